import { describe, expect, it } from 'vitest';
import { applyFont, measure } from '../../../main/engine/fit-text.js';
import { renderJob } from '../../../main/engine/render-job.js';
import type { RenderSuccess } from '../../../main/render/render-protocol.js';
import { decodePixels, type Pixels } from '../fixtures/pixels.js';
import { buildJob } from '../fixtures/template-builder.js';
import { format2Template, measuringContext, richSpec } from './text-fixtures.js';

const box = { x: 240, y: 240, width: 600, height: 600 };
const centre = { x: 540, y: 540 };

async function renderArc(
  text: string,
  path: Record<string, unknown>,
  size = 48,
): Promise<RenderSuccess> {
  const template = format2Template([
    {
      kind: 'text',
      id: 'seal',
      text,
      ...box,
      size,
      minSize: 16,
      font: { family: 'Be Vietnam Pro', weight: 700 },
      colour: '#000000',
      path: { kind: 'arc', ...path },
    },
  ]);
  const result = await renderJob(buildJob(template));
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Distance and angle (degrees clockwise from the top) of every dark pixel from the centre. */
function polarInk(p: Pixels) {
  const points: Array<{ r: number; angle: number }> = [];
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 3;
      if (p.data[i]! + p.data[i + 1]! + p.data[i + 2]! > 300) continue;
      const dx = x - centre.x;
      const dy = y - centre.y;
      points.push({ r: Math.hypot(dx, dy), angle: (Math.atan2(dx, -dy) * 180) / Math.PI });
    }
  }
  return points;
}

describe('text on an arc', () => {
  it('places the letters along the circle by their advances, centred at the top', async () => {
    const text = 'CHÍNH HÃNG';
    const result = await renderArc(text, { radius: 240 });
    expect(result.report.layers[0]).toMatchObject({ fittedSize: 48, truncated: false });
    const ink = polarInk(await decodePixels(result.bytes));
    expect(ink.length).toBeGreaterThan(500);
    // The letters (marks included) stay in a band around the radius.
    for (const point of ink) {
      expect(point.r).toBeGreaterThan(240 - 30);
      expect(point.r).toBeLessThan(240 + 48);
    }
    // Centred on the top: as much ink left of it as right.
    const angles = ink.map((p) => p.angle);
    const left = Math.min(...angles);
    const right = Math.max(...angles);
    expect(Math.abs(left + right)).toBeLessThan(4);
    // The span is the shaped width of the text over the radius (within a letter's overhang).
    const ctx = measuringContext();
    applyFont(ctx, richSpec(), 48);
    const expected = (measure(ctx, text, 0) / 240) * (180 / Math.PI);
    expect(right - left).toBeGreaterThan(expected * 0.85);
    expect(right - left).toBeLessThan(expected * 1.1);
  });

  it('reads from the inside along the bottom with inside: true', async () => {
    const result = await renderArc('RENDER DESK', { angle: 180, inside: true, radius: 240 });
    const ink = polarInk(await decodePixels(result.bytes));
    expect(ink.length).toBeGreaterThan(500);
    // All of it below the centre.
    expect(ink.every((p) => Math.abs(p.angle) > 100)).toBe(true);
  });

  it('shrinks text longer than its sweep, then ends it with "…"', async () => {
    const long = 'BẢO HÀNH CHÍNH HÃNG TOÀN QUỐC 24 THÁNG';
    const shrunk = await renderArc(long, { sweep: 180, radius: 240 });
    expect(shrunk.report.layers[0]!.fittedSize).toBeLessThan(48);
    expect(shrunk.report.layers[0]!.truncated).toBe(false);
    const cut = await renderArc(long.repeat(4), { sweep: 90, radius: 240 });
    expect(cut.report.layers[0]).toMatchObject({ fittedSize: 16, truncated: true });
    const ink = polarInk(await decodePixels(cut.bytes));
    expect(ink.every((p) => Math.abs(p.angle) <= 47)).toBe(true);
  });
});
