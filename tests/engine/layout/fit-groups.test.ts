import { describe, expect, it } from 'vitest';
import { jobFor, layoutTemplate, renderReport } from './layout-fixtures.js';

const text = (id: string, size: number, box: { width: number; height: number }, extra = {}) => ({
  kind: 'text',
  id,
  x: 40,
  y: id === 'hero' ? 40 : 600,
  ...box,
  text: `{{${id}}}`,
  font: { family: 'Be Vietnam Pro', weight: 700 },
  size,
  lineHeight: 1.25,
  colour: '#000000',
  ...extra,
});

function template(group: string | undefined, subExtra: Record<string, unknown> = {}) {
  const fitGroup = group ? { fitGroup: group } : {};
  return layoutTemplate({
    textVariables: ['hero', 'sub'],
    layers: [
      text('hero', 96, { width: 1000, height: 240 }, { minSize: 24, ...fitGroup }),
      text('sub', 48, { width: 1000, height: 300 }, { minSize: 12, ...fitGroup, ...subExtra }),
    ],
  });
}

const LONG_HERO = 'Khuyến mãi đặc biệt mừng năm mới giảm giá sâu cho mọi sản phẩm yêu thích';
const values = { hero: LONG_HERO, sub: 'Chỉ hôm nay' };

async function sizes(t: ReturnType<typeof template>) {
  const report = await renderReport(jobFor(t, values));
  const size = (id: string) => report.layers.find((l) => l.id === id)!.fittedSize;
  return { hero: size('hero'), sub: size('sub') };
}

describe('fit groups', () => {
  it('shrink on their own without a group, flattening the hierarchy', async () => {
    const alone = await sizes(template(undefined));
    expect(alone.hero).toBeLessThan(96);
    expect(alone.sub).toBe(48);
    expect(alone.hero / alone.sub).toBeLessThan(1.6);
  });

  it('shrink every member by the scale the tightest one needs, keeping their ratio', async () => {
    const alone = await sizes(template(undefined));
    const grouped = await sizes(template('titles'));
    expect(grouped.hero).toBe(alone.hero);
    const scale = alone.hero / 96;
    expect(grouped.sub).toBe(Math.floor(48 * scale + 1e-6));
    expect(grouped.hero / grouped.sub).toBeGreaterThanOrEqual(1.6);
    expect(grouped.hero / grouped.sub).toBeCloseTo(2, 1);
  });

  it('never take a member below its own minSize: the ratio gives way', async () => {
    const grouped = await sizes(template('titles', { minSize: 44 }));
    expect(grouped.sub).toBe(44);
  });

  it('follow a member that a full stack squeezed further', async () => {
    const stacked = layoutTemplate({
      textVariables: ['hero', 'sub'],
      layers: [
        {
          kind: 'stack',
          id: 'column',
          x: 40,
          y: 40,
          width: 1000,
          height: 260,
          layers: [
            text('hero', 96, { width: 1000, height: 400 }, { minSize: 12, fitGroup: 'titles' }),
            text('sub', 48, { width: 1000, height: 200 }, { minSize: 12, fitGroup: 'titles' }),
          ],
        },
      ],
    });
    const grouped = await sizes(stacked);
    // In its own 400 px box the hero would fit at a larger size; the 260 px stack squeezes it.
    const alone = await sizes(template(undefined));
    expect(grouped.hero).toBeLessThan(alone.hero);
    expect(grouped.hero / grouped.sub).toBeGreaterThanOrEqual(1.6);
    expect(grouped.sub).toBeLessThan(48);
  });

  it('leave groups apart and format 1 templates alone', async () => {
    const twoGroups = layoutTemplate({
      textVariables: ['hero', 'sub'],
      layers: [
        text('hero', 96, { width: 1000, height: 240 }, { minSize: 24, fitGroup: 'a' }),
        text('sub', 48, { width: 1000, height: 300 }, { fitGroup: 'b' }),
      ],
    });
    expect((await sizes(twoGroups)).sub).toBe(48);
    // Format 1 never reads fitGroup (saving one is refused): each layer fits on its own.
    const format1 = { ...template('titles'), schemaVersion: 1 as const };
    expect((await sizes(format1)).sub).toBe(48);
  });
});
