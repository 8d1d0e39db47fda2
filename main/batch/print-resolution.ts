import sharp from 'sharp';
import { layoutLayers } from '../../shared/layout-pages.js';
import { unitsPerInch } from '../../shared/page-sizes.js';
import type { Layout } from '../../shared/template-format.js';
import type { ImageInput } from '../render/render-protocol.js';
import { oncePerImage } from './once-per-image.js';

/** Print shops ask for 300 pixels an inch at the printed size; below it photos look soft. */
export const PRINT_DPI = 300;

/**
 * How many pixels an inch an image variable gets where a print layout shows it, per image layer
 * that shows it: its source pixels over the inches of the box (`cover` crops, so the tighter axis
 * counts; `contain` shows it all, so the looser one). Below PRINT_DPI is a pre-flight warning:
 * the row still renders.
 */
export async function lowResolutionImages(
  layout: Layout,
  images: readonly { path: string; input: ImageInput }[],
  sizes: Map<string, Promise<{ width: number; height: number } | null>>,
): Promise<{ path: string; message: string }[]> {
  const page = layout.page;
  if (!page) return [];
  const perInch = page.dpi;
  const warnings: { path: string; message: string }[] = [];
  for (const image of images) {
    const name = /^values\.([A-Za-z][A-Za-z0-9_]*)$/.exec(image.path)?.[1];
    if (!name) continue;
    const layers = layoutLayers(layout).filter(
      (layer) => layer.kind === 'image' && 'var' in layer.source && layer.source.var === name,
    );
    if (layers.length === 0) continue;
    const size = await sizeOf(image.input, sizes);
    if (!size) continue;
    let worst: { dpi: number; inches: { width: number; height: number } } | null = null;
    for (const layer of layers) {
      if (layer.kind !== 'image') continue;
      const inches = { width: layer.width / perInch, height: layer.height / perInch };
      const across = size.width / inches.width;
      const down = size.height / inches.height;
      const dpi = layer.fit === 'contain' ? Math.max(across, down) : Math.min(across, down);
      if (!worst || dpi < worst.dpi) worst = { dpi, inches };
    }
    if (!worst || worst.dpi >= PRINT_DPI - 0.5) continue;
    const unit = unitsPerInch(page.unit);
    const shown = `${round(worst.inches.width * unit)} × ${round(worst.inches.height * unit)} ${page.unit}`;
    const needed = `${Math.ceil(worst.inches.width * PRINT_DPI)} × ${Math.ceil(worst.inches.height * PRINT_DPI)} px`;
    warnings.push({
      path: image.path,
      message: `the image is ${size.width} × ${size.height} px, ${Math.round(worst.dpi)} dpi where it prints ${shown}: it will look soft on paper. Use one of at least ${needed} for ${PRINT_DPI} dpi`,
    });
  }
  return warnings;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Pixel size after EXIF orientation, read from the header once per distinct image. */
function sizeOf(
  input: ImageInput,
  cache: Map<string, Promise<{ width: number; height: number } | null>>,
): Promise<{ width: number; height: number } | null> {
  return oncePerImage(cache, input, (data) =>
    sharp(data, { limitInputPixels: false })
      .metadata()
      .then(
        (meta) => {
          // Vector images have no resolution of their own: they print sharp at any size.
          if (meta.format === 'svg' || !meta.width || !meta.height) return null;
          const turned = (meta.orientation ?? 1) >= 5;
          return turned
            ? { width: meta.height, height: meta.width }
            : { width: meta.width, height: meta.height };
        },
        () => null,
      ),
  );
}
