import type { CanvasGradient, SKRSContext2D } from '@napi-rs/canvas';
import type { ColourValue, Paint } from '../../shared/template-format.js';
import type { ResolvedValue } from '../render/render-protocol.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * `#RGB`, `#RRGGBB` or `#RRGGBBAA` as a canvas colour, its opacity multiplied by `alpha` (a bound
 * colour's, see ColourValue); null when the value is empty.
 */
export function cssColour(hex: string | null | undefined, alpha = 1): string | null {
  if (!hex) return null;
  const h = hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join('')}` : hex;
  const opacity = (h.length === 9 ? parseInt(h.slice(7, 9), 16) / 255 : 1) * alpha;
  if (opacity >= 1) return h.slice(0, 7);
  return `rgba(${parseInt(h.slice(1, 3), 16)}, ${parseInt(h.slice(3, 5), 16)}, ${parseInt(h.slice(5, 7), 16)}, ${Math.max(0, opacity).toFixed(4)})`;
}

/** A literal colour, or a colour variable's value, or its fallback; null draws nothing. */
export function resolveColour(
  value: ColourValue,
  values: Record<string, ResolvedValue>,
): string | null {
  if (typeof value === 'string') return cssColour(value);
  const bound = values[value.var];
  return cssColour(
    typeof bound === 'string' && bound.startsWith('#') ? bound : (value.fallback ?? null),
    value.alpha,
  );
}

/** A fill or stroke style for the box: solid colour or gradient laid out like CSS. */
export function resolvePaint(
  ctx: SKRSContext2D,
  paint: Paint,
  box: Box,
  values: Record<string, ResolvedValue>,
): string | CanvasGradient | null {
  if (typeof paint === 'string' || 'var' in paint) return resolveColour(paint, values);
  let gradient: CanvasGradient;
  if (paint.type === 'linear') {
    // CSS gradient line: through the centre, long enough that the corners get the end colours.
    const angle = (paint.angle * Math.PI) / 180;
    const length = Math.abs(box.width * Math.sin(angle)) + Math.abs(box.height * Math.cos(angle));
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const dx = (Math.sin(angle) * length) / 2;
    const dy = (-Math.cos(angle) * length) / 2;
    gradient = ctx.createLinearGradient(cx - dx, cy - dy, cx + dx, cy + dy);
  } else {
    const cx = box.x + paint.cx * box.width;
    const cy = box.y + paint.cy * box.height;
    gradient = ctx.createRadialGradient(
      cx,
      cy,
      0,
      cx,
      cy,
      paint.radius * Math.max(box.width, box.height),
    );
  }
  for (const stop of paint.stops) {
    gradient.addColorStop(stop.offset, resolveColour(stop.colour, values) ?? 'rgba(0, 0, 0, 0)');
  }
  return gradient;
}

/** A path of the ellipse inscribed in the box (a circle in a square box). */
export function ellipsePath(ctx: SKRSContext2D, box: Box): void {
  ctx.beginPath();
  ctx.ellipse(
    box.x + box.width / 2,
    box.y + box.height / 2,
    box.width / 2,
    box.height / 2,
    0,
    0,
    Math.PI * 2,
  );
}

/** A rectangle path with corner radius clamped to the box. */
export function roundedRectPath(ctx: SKRSContext2D, box: Box, radius: number): void {
  const r = Math.max(0, Math.min(radius, box.width / 2, box.height / 2));
  ctx.beginPath();
  if (r === 0) ctx.rect(box.x, box.y, box.width, box.height);
  else ctx.roundRect(box.x, box.y, box.width, box.height, r);
}
