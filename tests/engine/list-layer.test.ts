import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import type { TextLayerReport } from '../../main/render/render-protocol.js';
import { countNot, decodePixels } from './fixtures/pixels.js';
import { buildJob, buildTemplate } from './fixtures/template-builder.js';

const list = (extra: Record<string, unknown> = {}) =>
  buildTemplate({
    variables: [{ name: 'perks', type: 'list' }],
    layers: [
      {
        kind: 'list',
        id: 'perks',
        items: { var: 'perks' },
        x: 100,
        y: 100,
        width: 500,
        height: 300,
        size: 40,
        minSize: 20,
        font: { family: 'Be Vietnam Pro' },
        colour: '#000000',
        ...extra,
      },
    ],
  });

async function report(extra: Record<string, unknown>, perks: string[]): Promise<TextLayerReport> {
  const result = await renderJob(buildJob(list(extra), { perks }));
  if (!result.ok) throw new Error(result.message);
  const pixels = await decodePixels(result.bytes);
  // Never outside the box (100,100)–(600,400).
  const white: [number, number, number] = [255, 255, 255];
  expect(countNot(pixels, white, { x: 0, y: 400, width: 1080, height: 680 })).toBe(0);
  expect(countNot(pixels, white, { x: 600, y: 0, width: 480, height: 1080 })).toBe(0);
  return result.report.layers[0]!;
}

describe('list layers', () => {
  it('keeps a short list at its size', async () => {
    expect(await report({}, ['Một', 'Hai'])).toMatchObject({
      fittedSize: 40,
      lines: 2,
      truncated: false,
    });
  });

  it('shrinks the whole list to fit', async () => {
    const perks = Array.from(
      { length: 6 },
      (_, i) => `Ưu đãi số ${i + 1} cho khách hàng thân thiết`,
    );
    const r = await report({}, perks);
    expect(r.fittedSize).toBeLessThan(40);
    expect(r.fittedSize).toBeGreaterThanOrEqual(20);
    expect(r).toMatchObject({ truncated: false, overflow: false });
  });

  it('drops items that do not fit even at minSize, and reports it', async () => {
    const perks = Array.from(
      { length: 40 },
      (_, i) => `Ưu đãi số ${i + 1} cho khách hàng thân thiết`,
    );
    expect(await report({}, perks)).toMatchObject({
      fittedSize: 20,
      truncated: true,
      overflow: false,
    });
  });

  it('shows at most maxItems items and cuts each item at maxLines', async () => {
    const long = 'Miễn phí vận chuyển toàn quốc cho mọi đơn hàng từ 500.000 đồng trở lên';
    const r = await report({ maxItems: 2, maxLines: 1, minSize: 40 }, [long, 'Hai', 'Ba']);
    expect(r).toMatchObject({ lines: 2, truncated: true, overflow: false });
  });
});
