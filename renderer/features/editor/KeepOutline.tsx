import type { ReactElement } from 'react';
import type { Layer } from '../../api/types';
import { keepWindow } from '../../../shared/keep-window';
import { useImageSize, useKeepSource } from './keep-source';

type ImageLayer = Extract<Layer, { kind: 'image' }>;

/**
 * Where the layer's subject lands in its box after the crop, computed as the engine crops, so
 * the designer sees the subject kept whole (or the image drawn smaller to keep it).
 */
export function KeepOutline({ layer }: { layer: ImageLayer }): ReactElement | null {
  const source = useKeepSource(layer);
  const size = useImageSize(source.url);
  const keep = source.keep;
  if (!source.supported || !keep || !size || layer.fit !== 'cover') return null;
  const window = keepWindow(
    size.width,
    size.height,
    layer.width,
    layer.height,
    layer.focalPoint,
    keep,
  );
  // Fractions of the box: the subject's edges in source pixels, relative to the window shown.
  const across = (at: number) => (at * size.width - window.x) / window.width;
  const down = (at: number) => (at * size.height - window.y) / window.height;
  const right = Math.min(keep.x + keep.width, 1);
  const bottom = Math.min(keep.y + keep.height, 1);
  return (
    <span
      className="ed-keep-outline"
      data-testid="keep-outline"
      aria-hidden
      style={{
        left: `${across(keep.x) * 100}%`,
        top: `${down(keep.y) * 100}%`,
        width: `${(across(right) - across(keep.x)) * 100}%`,
        height: `${(down(bottom) - down(keep.y)) * 100}%`,
      }}
    />
  );
}
