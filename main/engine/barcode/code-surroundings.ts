import type { DrawnLayer } from '../stack-layout.js';

/** A box by its edges. */
export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The layers that can put pixels in any of these areas (layout pixels): every layer whose
 * drawing (stroke and rotation included) reaches one, in drawing order. Checking a PDF's codes
 * draws only these, on a raster of the areas where its codes are read: the other layers' text
 * fitting and painting cannot change what a scanner sees, and were most of the check's cost.
 */
export function layersReaching(
  layers: readonly DrawnLayer[],
  areas: readonly Bounds[],
): DrawnLayer[] {
  return layers.filter((layer) => {
    const bounds = drawnBounds(layer);
    return areas.some(
      (area) =>
        bounds.left < area.right &&
        bounds.right > area.left &&
        bounds.top < area.bottom &&
        bounds.bottom > area.top,
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
