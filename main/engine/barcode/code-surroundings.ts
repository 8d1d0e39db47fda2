import type { DrawnLayer } from '../stack-layout.js';

/** A box by its edges, in layout pixels. */
export interface Bounds {
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
 * Where a page's codes are read, in layout pixels: the smallest box that holds every code layer
 * with its surroundings (the reader's margin, stroke and turn included); null without a code.
 * Checking a PDF's codes rasterises only this box (renderTemplate's `codesOnly`).
 */
export function codesArea(layers: readonly DrawnLayer[]): Bounds | null {
  const around = layers
    .filter((layer) => layer.kind === 'qr' || layer.kind === 'barcode')
    .map((layer) => {
      const bounds = drawnBounds(layer);
      const margin = Math.max(
        AROUND_MIN_PX,
        AROUND_SHARE * Math.max(bounds.right - bounds.left, bounds.bottom - bounds.top),
      );
      return {
        left: bounds.left - margin,
        top: bounds.top - margin,
        right: bounds.right + margin,
        bottom: bounds.bottom + margin,
      };
    });
  if (around.length === 0) return null;
  return {
    left: Math.min(...around.map((bounds) => bounds.left)),
    top: Math.min(...around.map((bounds) => bounds.top)),
    right: Math.max(...around.map((bounds) => bounds.right)),
    bottom: Math.max(...around.map((bounds) => bounds.bottom)),
  };
}

/**
 * The layers that can put pixels where a code is read: every layer whose drawing (stroke and
 * rotation included) reaches the codes' area (codesArea), the codes among them, in drawing
 * order. Checking a PDF's codes draws only these on the raster: the other layers' text fitting
 * and painting cannot change what a scanner sees, and were most of the check's cost.
 */
export function layersAroundCodes(layers: readonly DrawnLayer[]): DrawnLayer[] {
  const area = codesArea(layers);
  if (!area) return [];
  return layers.filter((layer) => {
    const bounds = drawnBounds(layer);
    return (
      bounds.left < area.right &&
      bounds.right > area.left &&
      bounds.top < area.bottom &&
      bounds.bottom > area.top
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
