import type { DrawnLayer } from '../stack-layout.js';

interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * Around a code, the pixels a reader looks at: its quiet zone and the careful reader's margin
 * (4 modules, under 15 % of a code's side for every symbology drawn) with room to spare.
 */
const AROUND_SHARE = 0.25;
const AROUND_MIN_PX = 32;

/**
 * The layers that can put pixels where a code is read: the codes themselves and every layer
 * whose drawing (stroke and rotation included) reaches a code's surroundings, in drawing order.
 * Checking a PDF's codes draws only these on the raster: the other layers' text fitting and
 * painting cannot change what a scanner sees, and were most of the check's cost.
 */
export function layersAroundCodes(layers: readonly DrawnLayer[]): DrawnLayer[] {
  const codes = layers
    .filter((layer) => layer.kind === 'qr' || layer.kind === 'barcode')
    .map((layer) => {
      const bounds = drawnBounds(layer);
      const around = Math.max(
        AROUND_MIN_PX,
        AROUND_SHARE * Math.max(bounds.right - bounds.left, bounds.bottom - bounds.top),
      );
      return {
        left: bounds.left - around,
        top: bounds.top - around,
        right: bounds.right + around,
        bottom: bounds.bottom + around,
      };
    });
  if (codes.length === 0) return [];
  return layers.filter((layer) => {
    const bounds = drawnBounds(layer);
    return codes.some(
      (code) =>
        bounds.left < code.right &&
        bounds.right > code.left &&
        bounds.top < code.bottom &&
        bounds.bottom > code.top,
    );
  });
}

/** Where a layer may draw: its box, grown by half its stroke, and by its turn when rotated. */
function drawnBounds(layer: DrawnLayer): Bounds {
  const stroke = 'stroke' in layer && layer.stroke ? layer.stroke.width / 2 : 0;
  const cx = layer.x + layer.width / 2;
  const cy = layer.y + layer.height / 2;
  // A turned box stays within the circle through its corners.
  const reach = layer.rotation
    ? Math.hypot(layer.width, layer.height) / 2
    : Math.max(layer.width, layer.height) / 2;
  const halfWidth = (layer.rotation ? reach : layer.width / 2) + stroke;
  const halfHeight = (layer.rotation ? reach : layer.height / 2) + stroke;
  return {
    left: cx - halfWidth,
    top: cy - halfHeight,
    right: cx + halfWidth,
    bottom: cy + halfHeight,
  };
}
