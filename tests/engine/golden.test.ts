import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../main/app.js';
import { loadCatalog } from '../../main/catalog/load-catalog.js';
import { createImageReferenceResolver } from '../../main/engine/image-reference.js';
import { renderJob } from '../../main/engine/render-job.js';
import type { RenderPool } from '../../main/render/render-pool.js';
import { RenderService } from '../../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';

/**
 * Golden images: every built-in template × ratio with its sample values, compared with the
 * committed image within a small pixel tolerance (font rasterisation may differ by a shade
 * between platforms). Goldens are stored at half size to keep the repository small; a failure
 * writes `<ratio>.actual.png` beside the golden for a look. `npm run golden:update` rewrites them.
 */
const GOLDEN_DIR = path.join(REPO_ROOT, 'tests', 'engine', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
/** Mean absolute difference per channel (0–255) allowed, and the share of pixels off by > 32. */
const MAX_MEAN_DIFF = 1.5;
const MAX_BAD_PIXEL_SHARE = 0.005;

const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
// Jobs are prepared in this thread and drawn by the engine directly: no pool is needed.
const renderer = new RenderService({
  templates: catalog,
  pool: undefined as unknown as RenderPool,
  brandProfile: () => EMPTY_BRAND_PROFILE,
  resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
});

async function halfSizeRaw(png: Buffer, width: number) {
  return sharp(png)
    .resize({ width: Math.round(width / 2) })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
}

describe('golden images of the built-in templates', () => {
  for (const entry of catalog.list()) {
    for (const ratio of entry.ratios) {
      it(`${entry.template.id} ${ratio} matches its golden image`, async () => {
        const job = renderer.prepare({
          templateId: entry.template.id,
          values: entry.template.sampleValues,
          target: ratio,
          format: 'png',
        });
        const result = await renderJob(job);
        if (!result.ok) throw new Error(result.message);
        const width = result.report.width;
        const actual = await halfSizeRaw(Buffer.from(result.bytes), width);
        const dir = path.join(GOLDEN_DIR, entry.template.id);
        const goldenFile = path.join(dir, `${ratio}.png`);
        const actualFile = path.join(dir, `${ratio}.actual.png`);
        const actualPng = () =>
          sharp(actual.data, { raw: actual.info })
            .png({ compressionLevel: 9, adaptiveFiltering: true })
            .toBuffer();
        if (UPDATE || !fs.existsSync(goldenFile)) {
          fs.mkdirSync(dir, { recursive: true });
          fs.writeFileSync(goldenFile, await actualPng());
          fs.rmSync(actualFile, { force: true });
          if (!UPDATE)
            throw new Error(
              `No golden image yet for ${entry.template.id} ${ratio}; wrote one. Look at it, commit it and rerun.`,
            );
          return;
        }
        const golden = await sharp(goldenFile)
          .removeAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        expect([golden.info.width, golden.info.height]).toEqual([
          actual.info.width,
          actual.info.height,
        ]);
        let total = 0;
        let bad = 0;
        for (let i = 0; i < golden.data.length; i += 3) {
          let pixelMax = 0;
          for (let c = 0; c < 3; c += 1) {
            const diff = Math.abs((golden.data[i + c] ?? 0) - (actual.data[i + c] ?? 0));
            total += diff;
            pixelMax = Math.max(pixelMax, diff);
          }
          if (pixelMax > 32) bad += 1;
        }
        const meanDiff = total / golden.data.length;
        const badShare = bad / (golden.data.length / 3);
        const pass = meanDiff <= MAX_MEAN_DIFF && badShare <= MAX_BAD_PIXEL_SHARE;
        if (!pass) fs.writeFileSync(actualFile, await actualPng());
        else fs.rmSync(actualFile, { force: true });
        expect({
          meanDiff: Number(meanDiff.toFixed(3)),
          badShare: Number(badShare.toFixed(4)),
          pass,
        }).toMatchObject({ pass: true });
      });
    }
  }
});
