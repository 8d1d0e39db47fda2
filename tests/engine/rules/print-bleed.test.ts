import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { FONTS_DIR } from '../../../main/engine/render-job.js';
import { checkRules } from '../../../main/engine/rules/check-rules.js';
import { Template } from '../../../shared/template-format.js';
import { jobFor, layoutTemplate, subjectImage } from '../layout/layout-fixtures.js';

registerBundledFonts(FONTS_DIR);

/** A 99.1 × 38.1 mm label at 300 dpi (1170 × 450 px): 2 mm of bleed is 23.6 px, 1 mm 11.8. */
function label(bleed: number, layers: Array<Record<string, unknown>>) {
  return Template.parse({
    ...layoutTemplate({ layers: [] }),
    layouts: {
      tag: {
        width: 1170,
        height: 450,
        background: '#FFFFFF',
        page: { unit: 'mm', width: 99.1, height: 38.1, dpi: 300, bleed, safe: 2 },
        layers,
      },
    },
  });
}

const bar = (box: Record<string, number>) => ({
  kind: 'shape',
  id: 'bar',
  shape: 'rectangle',
  fill: '#0E7C3A',
  ...box,
});

async function rules(template: Template) {
  return (await checkRules(jobFor(template))).map((v) => `${v.rule} ${v.layer}`);
}

describe('print bleed rule', () => {
  it('wants art that reaches the trim to run on through the whole bleed', async () => {
    const edgeBar = { x: 0, y: 0, width: 20, height: 450 };
    const noBleed = await checkRules(jobFor(label(0, [bar(edgeBar)])));
    expect(noBleed.map((v) => `${v.rule} ${v.layer}`)).toEqual(['art-without-bleed bar']);
    expect(noBleed[0]!.message).toContain('left, top, bottom trim edges');
    expect(noBleed[0]!.message).toContain('Give the page a bleed');
    // A bleed on the page is not enough: the bar itself has to be drawn into it.
    const cutAtTrim = await checkRules(jobFor(label(2, [bar(edgeBar)])));
    expect(cutAtTrim.map((v) => v.rule)).toEqual(['art-without-bleed']);
    expect(cutAtTrim[0]!.message).toContain('24 px past the trim');
    expect(await rules(label(2, [bar({ x: -24, y: -24, width: 44, height: 498 })]))).toEqual([]);
    // Through the bleed on the left only: top and bottom still stop at the trim.
    expect(await rules(label(2, [bar({ x: -24, y: 0, width: 44, height: 450 })]))).toEqual([
      'art-without-bleed bar',
    ]);
  });

  it('wants art that stops short of the trim to stay at least 1 mm inside it', async () => {
    const inset = (gap: number) =>
      label(0, [bar({ x: gap, y: gap, width: 1170 - 2 * gap, height: 450 - 2 * gap })]);
    expect(await rules(inset(6))).toEqual(['art-without-bleed bar']);
    expect(await rules(inset(12))).toEqual([]);
  });

  it('judges images and turned layers by the area they cover, and leaves text and screens alone', async () => {
    // 40 × 400 turned a quarter covers 400 × 40 about the same centre: it reaches the top edge.
    const turned = bar({ x: 200, y: -180, width: 40, height: 400, rotation: 90 });
    expect(await rules(label(2, [turned]))).toEqual(['art-without-bleed bar']);
    const { dir } = await subjectImage(200, 200, { x: 0.25, y: 0.25, width: 0.5, height: 0.5 });
    const photo = (x: number) => ({
      kind: 'image',
      id: 'photo',
      x,
      y: 100,
      width: 200,
      height: 200,
      source: { asset: 'photo.png' },
      fit: 'cover',
    });
    const withPhoto = async (x: number) =>
      (await checkRules(jobFor(label(2, [photo(x)]), {}, {}, dir))).map(
        (v) => `${v.rule} ${v.layer}`,
      );
    expect(await withPhoto(970)).toEqual(['art-without-bleed photo']);
    expect(await withPhoto(994)).toEqual([]);
    const text = {
      kind: 'text',
      id: 'copy',
      x: 0,
      y: 0,
      width: 600,
      height: 100,
      text: 'Edge',
      font: { family: 'Be Vietnam Pro', weight: 700 },
      size: 40,
      colour: '#000000',
    };
    expect(await rules(label(0, [text]))).toEqual([]);
    const screen = layoutTemplate({ layers: [bar({ x: 0, y: 0, width: 1080, height: 200 })] });
    expect(await rules(screen)).toEqual([]);
  });
});
