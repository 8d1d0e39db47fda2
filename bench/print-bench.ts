/**
 * `npm run bench:print`: the print and formats bars, every figure measured in this one run, one
 * thread (as one render worker), interleaved rounds so a busy machine slows both sides alike.
 *
 *   1. One A4 certificate page (tmpl_certificate_award, layout a4: 297 × 210 mm, 150 dpi, 3 mm
 *      bleed) as PDF: within 2× the time of its PNG render at 150 dpi; file ≤ 300 KB with its
 *      fonts embedded (checked with pdffonts).
 *   2. AVIF of the reference template (tmpl_product_promo square): ≤ 60 % of the PNG's size with
 *      no visible loss (PSNR against the PNG's pixels ≥ 40 dB), encoded in ≤ 3× the PNG's time.
 *
 *   BENCH_QUICK=1 npm run bench:print   fewer rounds, for a smoke run
 *   BENCH_AVIF_SWEEP=1                  also time AVIF settings (quality × effort) side by side
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { REPO_ROOT } from '../main/app.js';
import { loadCatalog } from '../main/catalog/load-catalog.js';
import { AVIF_SETTINGS, encodeCanvas } from '../main/engine/encode-image.js';
import { createImageReferenceResolver } from '../main/engine/image-reference.js';
import { renderJob } from '../main/engine/render-job.js';
import { renderTemplate } from '../main/engine/render-template.js';
import type { RenderPool } from '../main/render/render-pool.js';
import type { RenderJob, RenderSuccess } from '../main/render/render-protocol.js';
import { RenderService } from '../main/render/render-service.js';
import { EMPTY_BRAND_PROFILE } from '../shared/brand-profile.js';
import type { OutputFormat } from '../shared/api-schemas.js';
import { fmt, median } from './stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 5 : 25;
const CERTIFICATE = 'tmpl_certificate_award';
const REFERENCE = 'tmpl_product_promo';
sharp.concurrency(1);

const checks: { pass: boolean }[] = [];
function check(name: string, value: string, target: string, pass: boolean): void {
  checks.push({ pass });
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${name}: ${value} (target ${target})`);
}

async function run(job: RenderJob): Promise<RenderSuccess> {
  const result = await renderJob(job);
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Median wall time of each job, the jobs taking turns round after round. */
async function interleaved(jobs: Record<string, RenderJob>): Promise<Record<string, number>> {
  const times: Record<string, number[]> = {};
  for (const name of Object.keys(jobs)) {
    await run(jobs[name]!); // warm-up: fonts, image cache
    times[name] = [];
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, job] of Object.entries(jobs)) {
      const started = performance.now();
      await run(job);
      times[name]!.push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)]));
}

/** PSNR of `encoded` against the lossless pixels of `png`, over RGB. */
async function psnr(png: Uint8Array, encoded: Uint8Array): Promise<number> {
  const a = await sharp(Buffer.from(png)).removeAlpha().raw().toBuffer();
  const b = await sharp(Buffer.from(encoded)).removeAlpha().raw().toBuffer();
  if (a.length !== b.length) throw new Error('sizes differ');
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  const mse = sum / a.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

function pdffonts(pdf: Uint8Array): string[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'print-bench-')), 'page.pdf');
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync('pdffonts', [file], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error('pdffonts is not installed: install poppler-utils', { cause: error });
    throw error;
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const catalog = loadCatalog(path.join(REPO_ROOT, 'templates', 'catalog'));
  const renderer = new RenderService({
    templates: catalog,
    pool: undefined as unknown as RenderPool,
    brandProfile: () => EMPTY_BRAND_PROFILE,
    resolveImage: createImageReferenceResolver({ uploadPath: () => null, allowRemote: false }),
  });
  const job = (templateId: string, target: string, format: OutputFormat) =>
    renderer.prepare({
      templateId,
      target,
      format,
      values: catalog.get(templateId)!.template.sampleValues,
    });
  console.log(
    `print bench: ${ROUNDS} interleaved rounds, one thread, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => fmt(l, 2))
      .join(' ')}, Node ${process.version}\n`,
  );

  // 1. The A4 certificate as PDF against its PNG at 150 dpi.
  const a4 = { pdf: job(CERTIFICATE, 'a4', 'pdf'), png: job(CERTIFICATE, 'a4', 'png') };
  const a4Times = await interleaved(a4);
  const pdf = await run(a4.pdf);
  const png = await run(a4.png);
  console.log(
    `A4 certificate: PNG ${png.report.width} × ${png.report.height} px ${fmt(a4Times.png!)} ms, ` +
      `${fmt(png.bytes.byteLength / 1024)} KB; PDF ${fmt(a4Times.pdf!)} ms, ${fmt(pdf.bytes.byteLength / 1024)} KB`,
  );
  const ratio = a4Times.pdf! / a4Times.png!;
  check('A4 PDF time / PNG time at 150 dpi', `${fmt(ratio, 2)}×`, '≤ 2×', ratio <= 2);
  const fonts = pdffonts(pdf.bytes);
  const embedded = fonts.filter((line) => /\syes\s+yes\s+yes\s+\d+\s+\d+\s*$/.test(line)).length;
  check(
    'A4 PDF size, fonts embedded (subset)',
    `${fmt(pdf.bytes.byteLength / 1024)} KB, ${embedded}/${fonts.length} fonts embedded`,
    '≤ 300 KB, all embedded',
    pdf.bytes.byteLength <= 300 * 1024 && fonts.length > 0 && embedded === fonts.length,
  );

  // 2. AVIF of the reference card against its PNG.
  const card = {
    png: job(REFERENCE, 'square', 'png'),
    avif: job(REFERENCE, 'square', 'avif'),
  };
  const cardTimes = await interleaved(card);
  const cardPng = await run(card.png);
  const cardAvif = await run(card.avif);
  // Encoding alone: the same drawn canvas, each encoder in turn.
  const drawn = await renderTemplate(card.png);
  const encodeTimes: Record<string, number[]> = { png: [], avif: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const format of ['png', 'avif'] as const) {
      const started = performance.now();
      await encodeCanvas(drawn.canvas, { format });
      encodeTimes[format]!.push(performance.now() - started);
    }
  }
  const encodePng = median(encodeTimes.png!);
  const encodeAvif = median(encodeTimes.avif!);
  const quality = await psnr(cardPng.bytes, cardAvif.bytes);
  const share = cardAvif.bytes.byteLength / cardPng.bytes.byteLength;
  console.log(
    `\nReference card 1080 × 1080: PNG ${fmt(cardPng.bytes.byteLength / 1024)} KB, render ${fmt(cardTimes.png!)} ms ` +
      `(encode ${fmt(encodePng)} ms); AVIF q${AVIF_SETTINGS.quality} effort ${AVIF_SETTINGS.effort} ` +
      `${AVIF_SETTINGS.chromaSubsampling} ${fmt(cardAvif.bytes.byteLength / 1024)} KB, render ${fmt(cardTimes.avif!)} ms ` +
      `(encode ${fmt(encodeAvif)} ms), PSNR ${fmt(quality)} dB`,
  );
  check('AVIF size / PNG size', `${fmt(share * 100)} %`, '≤ 60 %', share <= 0.6);
  check(
    'AVIF PSNR against the PNG (no visible loss)',
    `${fmt(quality)} dB`,
    '≥ 40 dB',
    quality >= 40,
  );
  const timeRatio = cardTimes.avif! / cardTimes.png!;
  check('AVIF render time / PNG render time', `${fmt(timeRatio, 2)}×`, '≤ 3×', timeRatio <= 3);
  check(
    'AVIF encode time / PNG encode time',
    `${fmt(encodeAvif / encodePng, 2)}× (${fmt(encodeAvif)} / ${fmt(encodePng)} ms)`,
    'reported',
    true,
  );

  if (process.env.BENCH_AVIF_SWEEP === '1') {
    console.log('\nAVIF settings (encode ms median, size, PSNR):');
    for (const effort of [0, 2, 4]) {
      for (const q of [60, 70, 80]) {
        const times: number[] = [];
        let bytes = Buffer.alloc(0);
        for (let round = 0; round < Math.max(3, Math.floor(ROUNDS / 3)); round++) {
          const started = performance.now();
          bytes = await sharp(drawn.canvas.data(), {
            raw: { width: 1080, height: 1080, channels: 4 },
          })
            .removeAlpha()
            .avif({ quality: q, effort, chromaSubsampling: '4:4:4' })
            .toBuffer();
          times.push(performance.now() - started);
        }
        console.log(
          `  effort ${effort} quality ${q}: ${fmt(median(times))} ms, ${fmt(bytes.byteLength / 1024)} KB (${fmt((bytes.byteLength / cardPng.bytes.byteLength) * 100)} %), ${fmt(await psnr(cardPng.bytes, bytes))} dB`,
        );
      }
    }
  }

  const failed = checks.filter((c) => !c.pass).length;
  console.log(`\n${checks.length - failed}/${checks.length} bars met`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
