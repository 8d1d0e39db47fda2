import { describe, expect, it } from 'vitest';
import type { DrawContext } from '../../main/engine/draw-context.js';
import { measureTextLayer } from '../../main/engine/measure-text-layer.js';
import { measureFormat2TextLayer } from '../../main/engine/text/format2-text-layer.js';
import type { TextLayer } from '../../shared/template-format.js';
import { format2Template, measuringContext } from './text/text-fixtures.js';

const ctx = measuringContext();

/** A format 2 text layer (parsed, so with its defaults) and a draw context to measure it in. */
function layerAndContext(extra: Record<string, unknown>): { dc: DrawContext; layer: TextLayer } {
  const template = format2Template([
    {
      kind: 'text',
      id: 'text',
      x: 0,
      y: 0,
      width: 1000,
      height: 600,
      colour: '#000000',
      ...extra,
    },
  ]);
  const layer = Object.values(template.layouts)[0]!.layers[0] as TextLayer;
  const dc: DrawContext = {
    ctx,
    template,
    values: {},
    assetsDir: '',
    textReports: [],
    missingGlyphs: new Set(),
    vector: false,
  };
  return { dc, layer };
}

/** What the layer measures in a box `width` wide: its size, room and lines. */
function measuredAt(dc: DrawContext, layer: TextLayer, width: number) {
  const sized = { ...layer, width };
  const measured = measureTextLayer(dc, sized)!;
  return { ...measured, lines: measureFormat2TextLayer(dc, sized)!.fitted.lines };
}

describe('measuring a text layer', () => {
  it.each<[string, Record<string, unknown>]>([
    // The name a row drew as "Phòng tập…" in a box as wide as its line measured whole.
    [
      'Vietnamese on one line',
      {
        text: 'Phòng tập Nhịp Sống',
        font: { family: 'Montserrat', weight: 700 },
        size: 32,
        minSize: 32,
        maxLines: 1,
      },
    ],
    // Measured whole the line is 414 px exactly; its words and spaces add up to a hair more.
    [
      'kerning pairs',
      { text: 'AV To Wa', font: { family: 'Noto Serif', weight: 400 }, size: 92, minSize: 92 },
    ],
    [
      'balanced lines',
      {
        text: 'Khuyến mãi mùa trăng tròn cho cả nhà, quà sang đủ đầy',
        font: { family: 'Be Vietnam Pro', weight: 700 },
        width: 520,
        size: 48,
        minSize: 48,
      },
    ],
    [
      'letter spacing',
      {
        text: 'Summer sale on every single item',
        font: { family: 'Lexend', weight: 400 },
        width: 500,
        size: 40,
        minSize: 40,
        letterSpacing: 6,
        wrap: 'greedy',
      },
    ],
    [
      'runs in bold and regular',
      {
        text: '**Giảm giá** 50% cho **Wave Vortex** hôm nay',
        markup: true,
        font: { family: 'Lora', weight: 400 },
        width: 600,
        size: 44,
        minSize: 44,
      },
    ],
    // Broken between its letters, each line is the sum of its letters' widths, a pixel or two
    // more than the letters measured together.
    [
      'a word broken between its letters',
      {
        text: 'Supercalifragilisticexpialidociousness',
        font: { family: 'Be Vietnam Pro', weight: 400 },
        width: 300,
        size: 40,
        minSize: 40,
      },
    ],
    [
      'a size shrunk to fit',
      {
        text: 'Trường Tiểu học Yên Thế',
        font: { family: 'Playfair Display', weight: 700 },
        height: 60,
        size: 72,
        minSize: 20,
        maxLines: 1,
      },
    ],
  ])('gives the width its lines need: %s fits a box that wide as measured', (_, extra) => {
    const { dc, layer } = layerAndContext(extra);
    const measured = measuredAt(dc, layer, layer.width);
    expect(measured.width).toBeLessThan(layer.width);
    const again = measuredAt(dc, layer, Math.ceil(measured.width));
    expect(again).toMatchObject({
      size: measured.size,
      height: measured.height,
      lines: measured.lines,
    });
  });
});
