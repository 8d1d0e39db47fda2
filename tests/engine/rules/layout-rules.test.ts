import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { FONTS_DIR } from '../../../main/engine/render-job.js';
import { checkRules } from '../../../main/engine/rules/check-rules.js';
import { Template } from '../../../shared/template-format.js';
import { jobFor, layoutTemplate } from '../layout/layout-fixtures.js';

registerBundledFonts(FONTS_DIR);

const text = (extra: Record<string, unknown>) => ({
  kind: 'text',
  id: 'copy',
  x: 100,
  y: 300,
  width: 800,
  height: 200,
  text: '{{copy}}',
  font: { family: 'Be Vietnam Pro', weight: 700 },
  size: 40,
  colour: '#000000',
  ...extra,
});

async function rules(template: ReturnType<typeof layoutTemplate>, copy = 'Hello') {
  return (await checkRules(jobFor(template, { copy }))).map((v) => `${v.rule} ${v.layer}`);
}

describe('layout rules', () => {
  it('want text of at least 24 px on 1080-wide ratios, 28 on og and 32 on landscape, after fitting', async () => {
    const at = (ratio: 'square' | 'og' | 'landscape', size: number) =>
      layoutTemplate({ ratio, textVariables: ['copy'], layers: [text({ size, minSize: size })] });
    expect(await rules(at('square', 24))).toEqual([]);
    expect(await rules(at('square', 22))).toEqual(['text-too-small copy']);
    expect(await rules(at('og', 27))).toEqual(['text-too-small copy']);
    expect(await rules(at('og', 28))).toEqual([]);
    expect(await rules(at('landscape', 30))).toEqual(['text-too-small copy']);
    // Shrunk by fitting below the minimum: a box too small for the value.
    const shrunk = layoutTemplate({
      textVariables: ['copy'],
      layers: [text({ size: 60, minSize: 12, width: 200, height: 40 })],
    });
    expect(await rules(shrunk, 'A rather long line of text')).toEqual(['text-too-small copy']);
    const decorative = layoutTemplate({
      textVariables: ['copy'],
      layers: [text({ size: 12, decorative: true })],
    });
    expect(await rules(decorative)).toEqual([]);
  });

  it('want printed text of at least 6 pt at the layout’s DPI, after fitting', async () => {
    // A 3 × 4 in badge: 6 pt is 25 px at 300 dpi and 50 px at 600.
    const badge = (dpi: number, layer: Record<string, unknown>) =>
      Template.parse({
        ...layoutTemplate({ textVariables: ['copy'], layers: [] }),
        layouts: {
          badge: {
            width: 3 * dpi,
            height: 4 * dpi,
            background: '#FFFFFF',
            page: { unit: 'in', width: 3, height: 4, dpi },
            layers: [text(layer)],
          },
        },
      });
    const at = (dpi: number, size: number) => badge(dpi, { size, minSize: size });
    expect(await rules(at(300, 25))).toEqual([]);
    const small = await checkRules(jobFor(at(300, 22), { copy: 'Hello' }));
    expect(small.map((v) => `${v.rule} ${v.layer}`)).toEqual(['text-too-small copy']);
    expect(small[0]!.message).toContain('5.3 pt (22 px at 300 dpi)');
    expect(small[0]!.message).toContain('at least 6 pt');
    // 30 px is 7.2 pt at 300 dpi but 3.6 pt at 600: the points are what is printed.
    expect(await rules(at(600, 30))).toEqual(['text-too-small copy']);
    expect(await rules(at(600, 50))).toEqual([]);
    // Shrunk below 6 pt by fitting a long value into a small box.
    const shrunk = badge(300, { size: 60, minSize: 12, width: 200, height: 40 });
    expect(await rules(shrunk, 'A rather long line of text')).toEqual(['text-too-small copy']);
    expect(await rules(badge(300, { size: 12, decorative: true }))).toEqual([]);
  });

  it('keep essential layers out of a story’s top 250 and bottom 340 px, backgrounds and ornaments exempt', async () => {
    const story = (layers: Array<Record<string, unknown>>) =>
      layoutTemplate({ ratio: 'story', textVariables: ['copy'], layers });
    expect(await rules(story([text({ y: 250, height: 1330 })]))).toEqual([]);
    expect(await rules(story([text({ y: 240 })]))).toEqual(['story-safe-zone copy']);
    expect(await rules(story([text({ y: 1500, height: 100 })]))).toEqual(['story-safe-zone copy']);
    expect(await rules(story([text({ y: 100, decorative: true })]))).toEqual([]);
    const ornament = {
      kind: 'shape',
      id: 'band',
      x: 0,
      y: 0,
      width: 1080,
      height: 200,
      shape: 'rectangle',
      fill: '#FF0000',
    };
    expect(await rules(story([ornament]))).toEqual([]);
  });

  it('want QR codes of at least 4 px a module, and none on a story or og', async () => {
    const qr = (size: number) => ({
      kind: 'qr',
      id: 'code',
      x: 100,
      y: 300,
      width: size,
      height: size,
      value: 'https://example.com/a/rather/long/link/to/a/product/page?utm_source=render-desk',
    });
    const square = (size: number) => layoutTemplate({ layers: [qr(size)] });
    expect(await rules(square(120))).toEqual(['qr-too-dense code']);
    expect(await rules(square(400))).toEqual([]);
    expect(await rules(layoutTemplate({ ratio: 'og', layers: [qr(400)] }))).toEqual([
      'qr-placement code',
    ]);
  });

  it("want printed QR codes of at least 0.5 mm a module at the layout's DPI", async () => {
    // A 130-character profile link: 49 × 49 modules at M, 41 × 41 at L.
    const link = `https://events.example.org/2027/attendees/${'a'.repeat(130 - 42)}`;
    const qr = (size: number, errorCorrection: 'L' | 'M') => ({
      kind: 'qr',
      id: 'code',
      x: 100,
      y: 100,
      width: size,
      height: size,
      value: link,
      errorCorrection,
    });
    // A 3 × 4 in badge at 300 dpi, where 0.5 mm is 5.9 px, so a module needs 6.
    const badge = (size: number, errorCorrection: 'L' | 'M') =>
      Template.parse({
        ...layoutTemplate({ layers: [] }),
        layouts: {
          badge: {
            width: 900,
            height: 1200,
            background: '#FFFFFF',
            page: { unit: 'in', width: 3, height: 4, dpi: 300 },
            layers: [qr(size, errorCorrection)],
          },
        },
      });
    // 120 px: 2 px (0.17 mm) a module at M.
    const dense = await checkRules(jobFor(badge(120, 'M')));
    expect(dense.map((v) => `${v.rule} ${v.layer}`)).toEqual(['qr-too-dense code']);
    expect(dense[0]!.message).toContain('0.17 mm');
    // 200 px at L is 4 px a module: enough on a screen, 0.34 mm printed.
    expect(await rules(layoutTemplate({ layers: [qr(200, 'L')] }))).toEqual([]);
    expect((await checkRules(jobFor(badge(200, 'L')))).map((v) => v.rule)).toEqual([
      'qr-too-dense',
    ]);
    // 270 px at L is 6 px (0.51 mm) a module, 440 px at M 8 px (0.68 mm).
    expect(await checkRules(jobFor(badge(270, 'L')))).toEqual([]);
    expect(await checkRules(jobFor(badge(440, 'M')))).toEqual([]);
  });

  it('want leading of 1.25 for more than one line of capitals with marks above', async () => {
    const caps = (lineHeight: number, transform = 'uppercase') =>
      layoutTemplate({
        textVariables: ['copy'],
        layers: [text({ lineHeight, transform, size: 60, width: 500, height: 400 })],
      });
    const vietnamese = 'Khuyến mãi mừng xuân rộn ràng';
    expect(await rules(caps(1.1), vietnamese)).toEqual(['caps-leading copy']);
    expect(await rules(caps(1.25), vietnamese)).toEqual([]);
    expect(await rules(caps(1.1, 'none'), vietnamese)).toEqual([]);
    expect(await rules(caps(1.1, 'none'), 'KHUYẾN MÃI MỪNG XUÂN RỘN RÀNG')).toEqual([
      'caps-leading copy',
    ]);
    expect(await rules(caps(1.1), 'Spring sale for every family')).toEqual([]);
    expect(await rules(caps(1.1), 'Khuyến')).toEqual([]);
  });

  it('check a stack’s children where the stack put them', async () => {
    const story = layoutTemplate({
      ratio: 'story',
      textVariables: ['copy'],
      layers: [
        {
          kind: 'stack',
          id: 'column',
          x: 100,
          y: 300,
          width: 880,
          height: 1400,
          justify: 'end',
          layers: [text({ height: 100 })],
        },
      ],
    });
    expect(await rules(story)).toEqual(['story-safe-zone copy']);
  });
});
