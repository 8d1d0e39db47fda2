import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PNG_COMPRESSION_LEVEL, PNG_COMPRESSION } from '../../main/engine/encode-image.js';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { FONTS_DIR, renderJob } from '../../main/engine/render-job.js';
import { renderTemplate } from '../../main/engine/render-template.js';
import type { RenderJob, RenderResult, RenderSuccess } from '../../main/render/render-protocol.js';
import { decodePixels, maxChroma } from './fixtures/pixels.js';
import { buildJob, buildTemplate, pngSuiteDir } from './fixtures/template-builder.js';

async function ok(job: RenderJob): Promise<RenderSuccess> {
  const result = await renderJob(job);
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** A card with every layer kind, gradients, an image, Vietnamese and emoji. */
const richTemplate = buildTemplate({
  locale: 'vi-VN',
  background: {
    type: 'linear',
    angle: 135,
    stops: [
      { offset: 0, colour: '#FDE68A' },
      { offset: 1, colour: { var: 'accent', fallback: '#F43F5E' } },
    ],
  },
  variables: [
    { name: 'headline', type: 'text' },
    { name: 'price', type: 'number', format: { style: 'currency' } },
    { name: 'perks', type: 'list' },
    { name: 'photo', type: 'image' },
    { name: 'accent', type: 'colour' },
    { name: 'badge', type: 'text' },
  ],
  layers: [
    {
      kind: 'shape',
      id: 'card',
      shape: 'rectangle',
      x: 60,
      y: 60,
      width: 960,
      height: 960,
      radius: 48,
      fill: '#FFFFFFE6',
      stroke: { paint: '#0F172A', width: 6 },
    },
    {
      kind: 'image',
      id: 'photo',
      source: { var: 'photo' },
      x: 100,
      y: 100,
      width: 300,
      height: 300,
      circle: true,
    },
    {
      kind: 'text',
      id: 'headline',
      text: '{{headline}}',
      x: 440,
      y: 100,
      width: 540,
      height: 220,
      size: 72,
      minSize: 28,
      font: { family: 'Be Vietnam Pro', weight: 800 },
      colour: '#0F172A',
      maxLines: 3,
    },
    {
      kind: 'text',
      id: 'price',
      text: 'Giá {{price}} 🎉',
      x: 440,
      y: 330,
      width: 540,
      height: 70,
      size: 48,
      font: { family: 'Montserrat', weight: 700 },
      colour: '#FFFFFF',
      background: {
        paint: {
          type: 'radial',
          stops: [
            { offset: 0, colour: '#F43F5E' },
            { offset: 1, colour: '#9F1239' },
          ],
        },
        radius: 35,
        padding: 10,
      },
    },
    {
      kind: 'list',
      id: 'perks',
      items: { var: 'perks' },
      x: 100,
      y: 440,
      width: 600,
      height: 300,
      size: 40,
      font: { family: 'Noto Serif' },
      colour: '#0F172A',
    },
    {
      kind: 'qr',
      id: 'qr',
      value: 'https://example.com/{{headline}}',
      x: 740,
      y: 700,
      width: 240,
      height: 240,
    },
    {
      kind: 'text',
      id: 'badge',
      text: '{{badge}}',
      x: 100,
      y: 900,
      width: 400,
      height: 80,
      size: 40,
      font: { family: 'Be Vietnam Pro' },
      colour: '#0F172A',
      rotation: -4,
      opacity: 0.8,
      visibleWhen: { var: 'badge', notEmpty: true },
    },
    {
      kind: 'shape',
      id: 'rule',
      shape: 'line',
      x: 100,
      y: 860,
      width: 600,
      height: 4,
      fill: '#F43F5E',
    },
  ],
});

const richValues = {
  headline: 'Khuyến mãi Tết Ất Tỵ — giảm giá cực sốc',
  price: 1250000,
  perks: ['Miễn phí vận chuyển toàn quốc', 'Đổi trả trong 30 ngày'],
  photo: { kind: 'file' as const, path: `${pngSuiteDir}/basn6a08.png` },
  accent: null,
  badge: 'Mới 😀',
};

function renderInWorker(job: RenderJob): Promise<RenderResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./fixtures/render-in-worker.mjs', import.meta.url), {
      workerData: job,
    });
    worker.once('message', (result: RenderResult) => {
      void worker.terminate();
      resolve(result);
    });
    worker.once('error', reject);
  });
}

describe('renderJob', () => {
  it('gives byte-identical PNGs for the same job, run after run and in another thread', async () => {
    const job = buildJob(richTemplate, richValues);
    const first = await ok(job);
    const second = await ok(job);
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    const inWorker = await renderInWorker(job);
    if (!inWorker.ok) throw new Error(inWorker.message);
    expect(Buffer.from(inWorker.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect(first.contentType).toBe('image/png');
    expect(first.report).toMatchObject({ width: 1080, height: 1080, missingGlyphs: [] });
    expect(first.report.layers.map((l) => l.id)).toEqual(['headline', 'price', 'perks', 'badge']);
    expect(first.report.layers.every((l) => !l.overflow)).toBe(true);
  });

  it('renders the same bytes on a reused canvas, whatever the render before it drew', async () => {
    const job = buildJob(richTemplate, richValues);
    const fresh = await renderInWorker(job);
    if (!fresh.ok) throw new Error(fresh.message);
    // Another card of the same size first, so this thread's canvas comes back used.
    await ok(buildJob(richTemplate, { ...richValues, accent: '#0F766E', badge: 'Mới' }));
    const reused = await ok(job);
    expect(Buffer.from(reused.bytes).equals(Buffer.from(fresh.bytes))).toBe(true);
  });

  it('encodes PNG within 10 % of the size of Skia’s own encoder', async () => {
    registerBundledFonts(FONTS_DIR);
    const job = buildJob(richTemplate, richValues);
    const { canvas } = await renderTemplate(job);
    const skia = (await canvas.encode('png')).length;
    const ours = (await ok(job)).bytes.length;
    expect(DEFAULT_PNG_COMPRESSION_LEVEL).toBe(4);
    expect(PNG_COMPRESSION.balanced).toMatchObject({ encoder: 'png-writer', filter: 'auto' });
    expect(Math.abs(ours / skia - 1)).toBeLessThan(0.1);
  });

  it('encodes opaque JPEG and WebP, and scales down to outputWidth', async () => {
    for (const format of ['jpeg', 'webp'] as const) {
      const result = await ok(buildJob(richTemplate, richValues, { format, quality: 80 }));
      expect(result.contentType).toBe(`image/${format}`);
      const meta = await sharp(Buffer.from(result.bytes)).metadata();
      expect(meta).toMatchObject({ format, width: 1080, height: 1080, hasAlpha: false });
    }
    const thumb = await ok(buildJob(richTemplate, richValues, { outputWidth: 270 }));
    const meta = await sharp(Buffer.from(thumb.bytes)).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 270, height: 270, channels: 3 });
  });

  it('hides a layer whose visibleWhen variable is empty', async () => {
    const shown = await ok(buildJob(richTemplate, richValues));
    const hidden = await ok(buildJob(richTemplate, { ...richValues, badge: null }));
    expect(hidden.report.layers.map((l) => l.id)).not.toContain('badge');
    expect(Buffer.from(hidden.bytes).equals(Buffer.from(shown.bytes))).toBe(false);
  });

  it('uses a bound colour when set and its fallback when empty', async () => {
    const template = buildTemplate({
      variables: [{ name: 'accent', type: 'colour' }],
      background: { var: 'accent', fallback: '#00FF00' },
    });
    const fallback = await decodePixels((await ok(buildJob(template, { accent: null }))).bytes);
    expect([...fallback.data.subarray(0, 3)]).toEqual([0, 255, 0]);
    const bound = await decodePixels((await ok(buildJob(template, { accent: '#0000FF' }))).bytes);
    expect([...bound.data.subarray(0, 3)]).toEqual([0, 0, 255]);
  });

  it('paints a bound colour at its alpha, whatever colour the variable holds', async () => {
    // A fade into the brand colour: the variable's colour at half opacity over white.
    const template = buildTemplate({
      variables: [{ name: 'accent', type: 'colour' }],
      background: '#FFFFFF',
      layers: [
        {
          kind: 'shape',
          id: 'veil',
          shape: 'rectangle',
          x: 0,
          y: 0,
          width: 1080,
          height: 1080,
          fill: { var: 'accent', fallback: '#00FF00', alpha: 0.5 },
        },
      ],
    });
    const blue = await decodePixels((await ok(buildJob(template, { accent: '#0000FF' }))).bytes);
    const [r, g, b] = [...blue.data.subarray(0, 3)];
    expect(g).toBe(r);
    expect(r).toBeGreaterThanOrEqual(126);
    expect(r).toBeLessThanOrEqual(129);
    expect(b).toBe(255);
    // The fallback takes the alpha too, and a colour with its own alpha keeps both.
    const green = await decodePixels((await ok(buildJob(template, { accent: null }))).bytes);
    expect(green.data[0]).toBeGreaterThanOrEqual(126);
    expect(green.data[1]).toBe(255);
    const faint = await decodePixels((await ok(buildJob(template, { accent: '#0000FF80' }))).bytes);
    expect(faint.data[0]).toBeGreaterThanOrEqual(189);
    expect(faint.data[0]).toBeLessThanOrEqual(193);
  });

  it('draws a crisp QR code: only pure foreground and background pixels, centred', async () => {
    const template = buildTemplate({
      layers: [
        {
          kind: 'qr',
          id: 'qr',
          value: 'https://example.com',
          x: 100,
          y: 100,
          width: 301,
          height: 301,
          foreground: '#112233',
        },
      ],
      background: '#FF0000',
    });
    const pixels = await decodePixels((await ok(buildJob(template))).bytes);
    const colours = new Set<string>();
    let minX = Infinity;
    let maxX = -Infinity;
    for (let y = 100; y < 401; y++) {
      for (let x = 100; x < 401; x++) {
        const i = (y * pixels.width + x) * 3;
        const rgb = [...pixels.data.subarray(i, i + 3)].join(',');
        colours.add(rgb);
        if (rgb !== '255,0,0') {
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
        }
      }
    }
    expect([...colours].sort()).toEqual(['17,34,51', '255,0,0', '255,255,255']);
    expect(Math.abs(minX - 100 - (400 - maxX))).toBeLessThanOrEqual(1);
  });

  it('draws gradients in colour', async () => {
    const pixels = await decodePixels((await ok(buildJob(richTemplate, richValues))).bytes);
    expect(maxChroma(pixels, 1040, 1040, 30, 30)).toBeGreaterThan(100);
  });

  it('answers render-failed for a ratio the template does not have', async () => {
    const result = await renderJob(buildJob(richTemplate, richValues, { ratio: 'story' }));
    expect(result).toMatchObject({ ok: false, code: 'render-failed' });
  });
});
