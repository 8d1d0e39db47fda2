import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Box } from './barcode-placement.js';

/**
 * A QR code or barcode as a raster drawing placed it, noted for reading it back from the pixels
 * (verify-codes.ts): where it is on the canvas and what a scan of it must give.
 */
export interface DrawnCode {
  layerId: string;
  /** The layer's value as written (`{{ticketId}}`): says which value the code comes from. */
  source: string;
  /** "QR code", "Code 128": how messages name it. */
  label: string;
  /** ZXing's name of its format (barcode-reading.ts). */
  format: string;
  /** The text a reader must decode. */
  expected: string;
  /** The code with its quiet zones, in canvas pixels (turned codes: the box around them). */
  box: Box;
  /** One module in canvas pixels. */
  module: number;
  /** How far the drawing turned the code, in radians (0 for a code drawn upright). */
  angle?: number;
}

/**
 * Notes a code just drawn at `area` (in the context's current coordinates) with `module`-unit
 * modules: mapped through the transform to canvas pixels, so scale, crop-mark margins and turned
 * layers are all accounted for.
 */
export function noteDrawnCode(
  codes: DrawnCode[],
  ctx: SKRSContext2D,
  code: Omit<DrawnCode, 'box'> & { area: Box },
): void {
  const m = ctx.getTransform();
  const { x, y, width, height } = code.area;
  const corners = [
    [x, y],
    [x + width, y],
    [x, y + height],
    [x + width, y + height],
  ].map(([cx = 0, cy = 0]) => [m.a * cx + m.c * cy + m.e, m.b * cx + m.d * cy + m.f] as const);
  const xs = corners.map(([cx]) => cx);
  const ys = corners.map(([, cy]) => cy);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  const { area: _area, ...rest } = code;
  codes.push({
    ...rest,
    box: { x: left, y: top, width: Math.max(...xs) - left, height: Math.max(...ys) - top },
    module: code.module * Math.hypot(m.a, m.b),
    angle: Math.atan2(m.b, m.a),
  });
}

/**
 * Around each code this many modules of what surrounds it are read too: a code drawn without a
 * quiet zone of its own gets one from its background, and no other whole code fits in it.
 */
const MARGIN_MODULES = 4;
const MIN_MARGIN_PX = 4;

/**
 * The pixels a code is read from when it does not read as drawn: its box and this many modules
 * around it, in canvas pixels. The reader never looks further.
 */
export function readArea(code: DrawnCode): Box {
  const margin = Math.max(MIN_MARGIN_PX, Math.ceil(MARGIN_MODULES * code.module));
  return {
    x: code.box.x - margin,
    y: code.box.y - margin,
    width: code.box.width + 2 * margin,
    height: code.box.height + 2 * margin,
  };
}
