import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import type { ImageInput, RenderFailure } from '../../main/render/render-protocol.js';
import { forgedPng } from '../helpers/forged-png.js';
import { decodePixels, maxChroma } from './fixtures/pixels.js';
import { buildJob, buildTemplate, pngSuiteDir } from './fixtures/template-builder.js';

const template = buildTemplate({
  variables: [{ name: 'photo', type: 'image' }],
  layers: [
    { kind: 'image', id: 'photo', source: { var: 'photo' }, x: 40, y: 40, width: 400, height: 300 },
  ],
});

const render = (photo: ImageInput) => renderJob(buildJob(template, { photo }));

async function failureOf(photo: ImageInput): Promise<RenderFailure> {
  const result = await render(photo);
  if (result.ok) throw new Error('expected the render to fail');
  return result;
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-image-layer-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('image layers', () => {
  it('refuses a file that is not an image, with the value path and an actionable message', async () => {
    const file = path.join(dir, 'notes.png');
    fs.writeFileSync(file, '<html>not an image</html>'.repeat(3).replace('<html>', 'hello'));
    const failure = await failureOf({ kind: 'file', path: file });
    expect(failure).toMatchObject({ ok: false, code: 'image-invalid', path: 'values.photo' });
    expect(failure.message).toMatch(
      /^the file is not a readable image \(PNG, JPEG, WebP, GIF, SVG\)/,
    );
  });

  it('refuses a truncated PNG although its header reads fine', async () => {
    const whole = await sharp({
      create: { width: 200, height: 200, channels: 3, background: '#3366CC' },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const truncated = whole.subarray(0, Math.floor(whole.length / 2));
    await expect(sharp(truncated).metadata()).resolves.toMatchObject({ width: 200 });
    const failure = await failureOf({
      kind: 'bytes',
      bytes: new Uint8Array(truncated),
      mime: 'image/png',
    });
    expect(failure.code).toBe('image-invalid');
    expect(failure.message).toContain('truncated');
  });

  it('refuses a tiny PNG that claims 30000×30000 pixels, quickly', async () => {
    const bomb = forgedPng(30000, 30000);
    expect(bomb.length).toBeLessThan(2000);
    const started = performance.now();
    const failure = await failureOf({
      kind: 'bytes',
      bytes: new Uint8Array(bomb),
      mime: 'image/png',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(failure).toMatchObject({ code: 'image-invalid', path: 'values.photo' });
    expect(failure.message).toBe(
      'the image is 30000×30000 pixels, over the 268-megapixel limit; scale it down and try again',
    );
  });

  it('refuses a file deleted after it was resolved', async () => {
    const failure = await failureOf({ kind: 'file', path: path.join(dir, 'gone.png') });
    expect(failure.code).toBe('image-invalid');
  });

  it('refuses every corrupt PngSuite file (x*.png)', async () => {
    const corrupt = fs.readdirSync(pngSuiteDir).filter((f) => /^x.*\.png$/.test(f));
    expect(corrupt.length).toBe(14);
    for (const file of corrupt) {
      const failure = await failureOf({ kind: 'file', path: path.join(pngSuiteDir, file) });
      expect(failure.code, file).toBe('image-invalid');
      expect(failure.path, file).toBe('values.photo');
    }
  });

  it('draws every valid PngSuite file, whatever its colour type, depth or interlacing', async () => {
    const valid = fs.readdirSync(pngSuiteDir).filter((f) => /^[^x].*\.png$/.test(f));
    expect(valid.length).toBe(161);
    for (const file of valid) {
      const result = await render({ kind: 'file', path: path.join(pngSuiteDir, file) });
      expect(result.ok, file).toBe(true);
    }
  });

  it('draws SVG images from a data: URI, rasterised to the box', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3" fill="#E11D48"/></svg>';
    const result = await render({
      kind: 'bytes',
      bytes: new Uint8Array(Buffer.from(svg)),
      mime: 'image/svg+xml',
    });
    if (!result.ok) throw new Error(result.message);
    const pixels = await decodePixels(result.bytes);
    expect(maxChroma(pixels, 60, 60, 360, 260)).toBeGreaterThan(150);
    expect(maxChroma(pixels, 0, 400, 100, 100)).toBe(0);
  });
});
