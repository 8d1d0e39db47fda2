import type { SKRSContext2D } from '@napi-rs/canvas';
import type { SheetGeometry } from './sheet-geometry.js';

/** Hairline marks: 0.25 pt, the usual weight, in registration-free plain black. */
const MARK_WIDTH_PT = 0.25;

/**
 * Draws crop marks in sheet coordinates (the sheet's 0,0 at the top left): at each corner, one
 * horizontal and one vertical line on the trim's edges, outside the bleed, so cutting along them
 * never shows a mark.
 */
export function drawCropMarks(ctx: SKRSContext2D, sheet: SheetGeometry): void {
  const marks = sheet.marks;
  if (!marks) return;
  const left = sheet.origin;
  const top = sheet.origin;
  const right = sheet.origin + sheet.trimWidth;
  const bottom = sheet.origin + sheet.trimHeight;
  const near = marks.offset;
  const far = marks.offset + marks.length;
  ctx.save();
  ctx.strokeStyle = '#000000';
  ctx.lineWidth = (MARK_WIDTH_PT / 72) * sheet.dpi;
  ctx.setLineDash([]);
  ctx.beginPath();
  for (const y of [top, bottom]) {
    ctx.moveTo(left - far, y);
    ctx.lineTo(left - near, y);
    ctx.moveTo(right + near, y);
    ctx.lineTo(right + far, y);
  }
  for (const x of [left, right]) {
    ctx.moveTo(x, top - far);
    ctx.lineTo(x, top - near);
    ctx.moveTo(x, bottom + near);
    ctx.lineTo(x, bottom + far);
  }
  ctx.stroke();
  ctx.restore();
}
