import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { FONTS_DIR, renderJob } from '../../main/engine/render-job.js';
import type { RenderJob, ResolvedValue } from '../../main/render/render-protocol.js';
import { planSheet, sheetItemOf } from '../../shared/sheet-options.js';
import { slotBox } from '../../shared/sheet-plan.js';
import { Template } from '../../shared/template-format.js';
import { corpusPng } from '../helpers/image-fixtures.js';
import { pdfLinks, type PdfLink } from '../helpers/pdf-links.js';
import { poppler } from '../helpers/poppler.js';
import { jobFor, layoutTemplate } from './layout/layout-fixtures.js';

/**
 * Links in PDF output, read back from the file: a QR code or barcode holding a web address is
 * a link over the code, and a text or image layer's `link` is a link over its box, on single
 * pages, later pages and N-up sheets. Layout pixels are 0.75 pt here (96 dpi).
 */
registerBundledFonts(FONTS_DIR);
const PT = 0.75;

const assets = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-links-'));
fs.writeFileSync(path.join(assets, 'logo.png'), corpusPng('basn2c08.png'));

const text = (extra: Record<string, unknown>) => ({
  kind: 'text',
  id: 'more',
  text: 'Xem thêm',
  x: 100,
  y: 500,
  width: 400,
  height: 80,
  size: 40,
  font: { family: 'Be Vietnam Pro' },
  colour: '#000000',
  ...extra,
});

async function render(
  template: Template,
  values: Record<string, ResolvedValue>,
  extra: Partial<RenderJob> = {},
): Promise<Uint8Array> {
  const result = await renderJob(jobFor(template, values, { format: 'pdf', ...extra }, assets));
  if (!result.ok) throw new Error(result.message);
  return result.bytes;
}

/** A link's rectangle in layout pixels, rounded to a hundredth. */
const inPixels = (link: PdfLink) =>
  [link.left, link.top, link.right, link.bottom].map((v) => Math.round((v / PT) * 100) / 100);

describe('links in PDF output', () => {
  it('make a QR code that holds a web address a link over the code, as pdfinfo lists it', async () => {
    const template = layoutTemplate({
      textVariables: ['site'],
      layers: [
        { kind: 'qr', id: 'qr', x: 100, y: 100, width: 300, height: 300, value: '{{site}}' },
      ],
    });
    const pdf = await render(template, { site: 'https://example.com/ve?id=(42)' });
    const links = pdfLinks(pdf);
    expect(links.map((link) => link.uri)).toEqual(['https://example.com/ve?id=(42)']);
    // The code with its quiet zone: whole modules centred in the 300 px box.
    const [left, top, right, bottom] = inPixels(links[0]!);
    expect(right! - left!).toBe(bottom! - top!);
    expect(Math.abs(left! - 100 - (400 - right!))).toBeLessThanOrEqual(1);
    expect(left).toBeGreaterThanOrEqual(100);
    expect(poppler('pdfinfo', pdf, ['-url'])).toContain('https://example.com/ve?id=(42)');
  });

  it('leave a code that holds plain text, or another scheme, unlinked', async () => {
    const template = layoutTemplate({
      textVariables: ['value'],
      layers: [
        { kind: 'qr', id: 'qr', x: 100, y: 100, width: 300, height: 300, value: '{{value}}' },
      ],
    });
    expect(pdfLinks(await render(template, { value: 'TIX-1001' }))).toEqual([]);
    expect(pdfLinks(await render(template, { value: 'javascript:alert(1)' }))).toEqual([]);
  });

  it('make a barcode that holds a web address a link over the code and its quiet zone', async () => {
    const template = layoutTemplate({
      layers: [
        {
          kind: 'barcode',
          id: 'dm',
          symbology: 'datamatrix',
          x: 600,
          y: 100,
          width: 300,
          height: 300,
          value: 'https://example.com/dm',
        },
      ],
    });
    const links = pdfLinks(await render(template, {}));
    expect(links.map((link) => link.uri)).toEqual(['https://example.com/dm']);
    const [left, top, right, bottom] = inPixels(links[0]!);
    expect(left).toBeGreaterThanOrEqual(600);
    expect(right).toBeLessThanOrEqual(900);
    expect(top).toBeGreaterThanOrEqual(100);
    expect(bottom).toBeLessThanOrEqual(400);
  });

  it('put a text or image layer’s link over its box, placeholders filled and percent-encoded', async () => {
    const template = layoutTemplate({
      textVariables: ['slug'],
      layers: [
        text({ link: 'https://example.com/{{slug}}' }),
        {
          kind: 'image',
          id: 'logo',
          x: 600,
          y: 500,
          width: 200,
          height: 100,
          source: { asset: 'logo.png' },
          link: 'mailto:hello@example.com?subject=Xin chào',
        },
      ],
    });
    const links = pdfLinks(await render(template, { slug: 'Nguyễn Du' }));
    expect(links.map((link) => [link.uri, inPixels(link)])).toEqual([
      ['https://example.com/Nguy%E1%BB%85n%20Du', [100, 500, 500, 580]],
      ['mailto:hello@example.com?subject=Xin%20ch%C3%A0o', [600, 500, 800, 600]],
    ]);
  });

  it('cover the bounds of a turned layer, and nothing when the link’s value is empty', async () => {
    const template = layoutTemplate({
      textVariables: ['site'],
      layers: [
        text({ id: 'turned', rotation: 90, link: 'https://example.com/turned' }),
        text({ id: 'empty', y: 700, link: '{{site}}' }),
      ],
    });
    const links = pdfLinks(await render(template, { site: '' }));
    // 400 × 80 about its centre (300, 540): 80 wide and 400 tall.
    expect(links.map((link) => [link.uri, inPixels(link)])).toEqual([
      ['https://example.com/turned', [260, 340, 340, 740]],
    ]);
  });

  it('are left out of raster outputs, whose pixels are those of the same layers unlinked', async () => {
    const linked = layoutTemplate({ layers: [text({ link: 'https://example.com/' })] });
    const plain = layoutTemplate({ layers: [text({})] });
    const png = async (template: Template) =>
      Buffer.from(await render(template, {}, { format: 'png' }));
    expect((await png(linked)).equals(await png(plain))).toBe(true);
  });

  it('land on the page of the layer that carries them', async () => {
    const template = layoutTemplate({
      layers: [text({ link: 'https://example.com/front' })],
      morePages: [[text({ id: 'back', link: 'https://example.com/back' })]],
    });
    const links = pdfLinks(await render(template, {}));
    expect(links.map((link) => [link.page, link.uri])).toEqual([
      [1, 'https://example.com/front'],
      [2, 'https://example.com/back'],
    ]);
  });

  it('in N-up sheets, sit over each item’s layer at its slot on the sheet', async () => {
    const card = Template.parse({
      schemaVersion: 2,
      id: 'tmpl_link_card',
      name: 'Link card',
      category: 'Print',
      subCategory: 'Cards',
      market: 'global',
      createdAt: '2026-11-01',
      variables: [{ name: 'site', type: 'text' }],
      layouts: {
        card: {
          width: 502,
          height: 325,
          page: { unit: 'mm', width: 85, height: 55, dpi: 150 },
          background: '#FFFFFF',
          layers: [
            { kind: 'qr', id: 'qr', x: 20, y: 20, width: 200, height: 200, value: '{{site}}' },
            text({ x: 240, y: 200, width: 240, height: 100, link: '{{site}}' }),
          ],
        },
      },
    });
    const planned = planSheet({ preset: 'business-cards-10' }, sheetItemOf(card.layouts.card!)!);
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    const sites = Array.from({ length: 3 }, (_, i) => `https://example.com/card/${i + 1}`);
    const result = await renderJob({
      ...jobFor(card, { site: sites[0]! }, { format: 'pdf' }),
      sheet: { plan: planned.plan, items: sites.map((site) => ({ site })) },
    });
    if (!result.ok) throw new Error(result.message);
    const links = pdfLinks(result.bytes);
    const mm = 72 / 25.4;
    // Layout pixels to points on the sheet: the card's 85 × 55 mm over its 502 × 325 px.
    const scaleX = (85 * mm) / 502;
    const scaleY = (55 * mm) / 325;
    for (const [slot, site] of sites.entries()) {
      const box = slotBox(planned.plan, slot);
      const mine = links.filter((link) => link.uri === site);
      expect(mine, site).toHaveLength(2);
      const textLink = mine[1]!;
      expect(textLink.left).toBeCloseTo(box.x * mm + 240 * scaleX, 2);
      expect(textLink.top).toBeCloseTo(box.y * mm + 200 * scaleY, 2);
      expect(textLink.right).toBeCloseTo(box.x * mm + 480 * scaleX, 2);
      expect(textLink.bottom).toBeCloseTo(box.y * mm + 300 * scaleY, 2);
      const qrLink = mine[0]!;
      expect(qrLink.left).toBeGreaterThanOrEqual(box.x * mm + 20 * scaleX - 0.01);
      expect(qrLink.right).toBeLessThanOrEqual(box.x * mm + 220 * scaleX + 0.01);
    }
  });
});
