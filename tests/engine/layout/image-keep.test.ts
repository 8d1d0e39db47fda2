import { describe, expect, it } from 'vitest';
import { keepWindow } from '../../../shared/keep-window.js';
import { checkRules } from '../../../main/engine/rules/check-rules.js';
import {
  colourBounds,
  jobFor,
  layoutTemplate,
  renderPixels,
  subjectImage,
} from './layout-fixtures.js';

const RED: [number, number, number] = [255, 0, 0];
const BLUE: [number, number, number] = [0, 0, 255];

// A 2000 × 500 panorama with its subject at the far left (x 0.05–0.30 of the width).
const SUBJECT = { x: 0.05, y: 0.2, width: 0.25, height: 0.6 };

function photoLayer(extra: Record<string, unknown> = {}) {
  return {
    kind: 'image',
    id: 'photo',
    x: 290,
    y: 290,
    width: 500,
    height: 500,
    source: { asset: 'photo.png' },
    fit: 'cover',
    focalPoint: { x: 0.5, y: 0.5 },
    ...extra,
  };
}

describe('image keep-boxes', () => {
  it('keep the whole subject in a cover crop, as near the focal point as it allows', async () => {
    const { dir } = await subjectImage(2000, 500, SUBJECT);
    const plain = layoutTemplate({ layers: [photoLayer()] });
    const kept = layoutTemplate({ layers: [photoLayer({ keep: SUBJECT })] });
    // Cover scale 1 (500 high): the centred crop shows x 750–1250, none of the subject.
    expect(colourBounds(await renderPixels(jobFor(plain, {}, {}, dir)), RED)).toBeNull();
    for (const format of ['png', 'pdf'] as const) {
      const red = colourBounds(await renderPixels(jobFor(kept, {}, { format }, dir)), RED, 40)!;
      // Subject 500 × 300 px at cover scale: its right edge meets the frame's right edge.
      expect(red.right, format).toBeGreaterThanOrEqual(290 + 500 - 2);
      expect(red.right - red.left + 1, format).toBeGreaterThanOrEqual(498);
      expect(red.top, format).toBeGreaterThanOrEqual(290 + 100 - 1);
      expect(red.bottom - red.top + 1, format).toBeGreaterThanOrEqual(299);
    }
  });

  it('draw the image smaller over the layer background when the subject cannot fit at cover scale', async () => {
    const wide = { x: 0.05, y: 0.3, width: 0.9, height: 0.4 };
    const { dir } = await subjectImage(2000, 500, wide);
    const template = layoutTemplate({
      layers: [photoLayer({ keep: wide, background: '#0000FF' })],
    });
    const pixels = await renderPixels(jobFor(template, {}, {}, dir));
    const red = colourBounds(pixels, RED)!;
    const blue = colourBounds(pixels, BLUE)!;
    // 1800 px of subject in a 500 px frame: scale 500/1800, the 500 px high image 139 px high.
    expect(red.left).toBeGreaterThanOrEqual(290);
    expect(red.right).toBeLessThanOrEqual(290 + 499);
    expect(red.right - red.left + 1).toBeGreaterThanOrEqual(497);
    expect([blue.left, blue.top, blue.right, blue.bottom]).toEqual([290, 290, 789, 789]);
    expect(blue.count).toBeGreaterThanOrEqual(500 * (500 - 139) - 500);
    expect(blue.count).toBeLessThanOrEqual(500 * (500 - 138));
  });

  it('apply a variable’s keep-box to its sample image only', async () => {
    const { dir } = await subjectImage(2000, 500, SUBJECT);
    const template = layoutTemplate({
      imageVariables: [{ name: 'photo', type: 'image', keep: SUBJECT }],
      sampleValues: { photo: 'asset:photo.png' },
      layers: [photoLayer({ source: { var: 'photo' } })],
    });
    const sample = { photo: { kind: 'file' as const, path: `${dir}/photo.png` } };
    expect(colourBounds(await renderPixels(jobFor(template, sample, {}, dir)), RED)).not.toBeNull();
    // The same pixels under another name are another image: no keep-box, the centred crop.
    const { dir: other } = await subjectImage(2000, 500, SUBJECT);
    const elsewhere = { photo: { kind: 'file' as const, path: `${other}/photo.png` } };
    expect(colourBounds(await renderPixels(jobFor(template, elsewhere, {}, dir)), RED)).toBeNull();
  });

  it('place the window by the focal point, inside the image and around the subject', () => {
    const window = keepWindow(
      2000,
      500,
      500,
      500,
      { x: 1, y: 0.5 },
      { x: 0.5, y: 0, width: 0.1, height: 1 },
    );
    expect(window).toEqual({ x: 1000, y: 0, width: 500, height: 500 });
  });

  it('are checked by the subject rule where a round frame cuts the subject’s corners', async () => {
    const { dir } = await subjectImage(1000, 1000, { x: 0, y: 0, width: 1, height: 1 });
    const template = layoutTemplate({
      layers: [photoLayer({ circle: true, keep: { x: 0.05, y: 0.05, width: 0.9, height: 0.9 } })],
    });
    const violations = await checkRules(jobFor(template, {}, {}, dir));
    expect(violations.map((v) => [v.rule, v.layer])).toEqual([['subject-cropped', 'photo']]);
    const square = layoutTemplate({
      layers: [photoLayer({ keep: { x: 0.05, y: 0.05, width: 0.9, height: 0.9 } })],
    });
    expect(await checkRules(jobFor(square, {}, {}, dir))).toEqual([]);
  });
});
