/**
 * PNG encoders compared on every built-in template × ratio (sample values): encode time and file
 * size against Skia's default encoder (canvas.encode('png')) for the same pixels. Every
 * candidate's output is decoded back and compared with the canvas's pixels.
 *
 * sharp-<level>[a]: sharp (libpng + zlib-ng), `a` = adaptive filtering. own-<filter>-<level>[f|r]:
 * png-writer.ts (filter none/sub/up/paeth, or auto = chosen per image by trial), Node's zlib,
 * `f` Z_FILTERED, `r` Z_RLE (own-auto-4 is the default preset's writer). baseline-auto-4: the
 * writer before the WebAssembly kernel (bench/png-writer-baseline.ts), timed in the same rounds.
 * The last row is encodeCanvas() with the default preset.
 *
 *   npx tsx bench/png-encoders.ts            size sweep of every candidate, then timing of the
 *                                            ones within 110 % of Skia everywhere
 *   PNG_BENCH_ROUNDS=9 …                     timing rounds (default 7)
 *   PNG_BENCH_ONLY=sharp-4a,own-up-2 …       time just these (comma-separated names)
 */
import zlib from 'node:zlib';
import sharp from 'sharp';
import { registerBundledFonts } from '../main/engine/fonts.js';
import { writePng, type PngFilter } from '../main/engine/png-writer.js';
import { encodeCanvas } from '../main/engine/encode-image.js';
import { FONTS_DIR } from '../main/engine/render-job.js';
import { renderTemplate } from '../main/engine/render-template.js';
import { buildJob, ratiosOf, readCatalogTemplates } from '../scripts/preview-template.js';
import { writePng as writePngBaseline } from './png-writer-baseline.js';
import { fmt, median } from './stats.js';

sharp.concurrency(1);
const ROUNDS = Number(process.env.PNG_BENCH_ROUNDS ?? 7);
const ONLY = process.env.PNG_BENCH_ONLY?.split(',');
const REFERENCE = 'product-promo square';
const SIZE_BAR = 1.1;

interface Image {
  name: string;
  rgba: Buffer;
  width: number;
  height: number;
  skiaBytes: number;
  skiaMs: number;
}

interface Candidate {
  name: string;
  encode: (image: Image) => Promise<Buffer>;
}

const { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE } = zlib.constants;
const STRATEGIES = { d: Z_DEFAULT_STRATEGY, f: Z_FILTERED, r: Z_RLE } as const;

function candidates(): Candidate[] {
  const list: Candidate[] = [];
  for (let level = 1; level <= 6; level++) {
    for (const adaptive of [true, false]) {
      list.push({
        name: `sharp-${level}${adaptive ? 'a' : ''}`,
        encode: (im) =>
          sharp(im.rgba, { raw: { width: im.width, height: im.height, channels: 4 } })
            .removeAlpha()
            .png({ compressionLevel: level, adaptiveFiltering: adaptive })
            .toBuffer(),
      });
    }
  }
  const own = (filter: PngFilter, level: number, strategy: keyof typeof STRATEGIES) =>
    list.push({
      name: `own-${filter}-${level}${strategy === 'd' ? '' : strategy}`,
      encode: (im) =>
        writePng(im.rgba, im.width, im.height, { filter, level, strategy: STRATEGIES[strategy] }),
    });
  list.push({
    name: 'baseline-auto-4',
    encode: (im) => writePngBaseline(im.rgba, im.width, im.height, { filter: 'auto', level: 4 }),
  });
  for (const filter of ['none', 'sub', 'up', 'paeth', 'auto'] as const) {
    for (const level of [1, 2, 3, 4, 5]) own(filter, level, 'd');
    own(filter, 4, 'f');
    own(filter, 1, 'r');
  }
  return list;
}

async function renderCatalog(): Promise<Image[]> {
  registerBundledFonts(FONTS_DIR);
  const images: Image[] = [];
  for (const entry of readCatalogTemplates()) {
    for (const ratio of ratiosOf(entry.template)) {
      const { canvas } = await renderTemplate(buildJob(entry, ratio, entry.template.sampleValues));
      const started = performance.now();
      const skia = await canvas.encode('png');
      images.push({
        name: `${entry.slug} ${ratio}`,
        rgba: Buffer.from(canvas.data()),
        width: canvas.width,
        height: canvas.height,
        skiaBytes: skia.length,
        skiaMs: performance.now() - started,
      });
    }
  }
  return images;
}

/** The PNG decodes (sharp) to exactly the canvas's RGB. */
async function samePixels(png: Buffer, image: Image): Promise<boolean> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  if (info.width !== image.width || info.height !== image.height || info.channels !== 3)
    return false;
  for (let p = 0, q = 0; p < image.rgba.length; p += 4, q += 3) {
    if (
      data[q] !== image.rgba[p] ||
      data[q + 1] !== image.rgba[p + 1] ||
      data[q + 2] !== image.rgba[p + 2]
    )
      return false;
  }
  return true;
}

interface Sizes {
  min: number;
  max: number;
  worst: string;
  roughMs: number;
}

async function sizeSweep(images: Image[], list: Candidate[]): Promise<Map<string, Sizes>> {
  const result = new Map<string, Sizes>();
  for (const candidate of list) {
    let min = Infinity;
    let max = 0;
    let worst = '';
    let ms = 0;
    for (const image of images) {
      const started = performance.now();
      const png = await candidate.encode(image);
      ms += performance.now() - started;
      const again = await candidate.encode(image);
      if (!png.equals(again)) throw new Error(`${candidate.name}: not deterministic`);
      if (!(await samePixels(png, image)))
        throw new Error(`${candidate.name} ${image.name}: pixels differ`);
      const ratio = png.length / image.skiaBytes;
      min = Math.min(min, ratio);
      if (ratio > max) {
        max = ratio;
        worst = image.name;
      }
    }
    const sizes = { min, max, worst, roughMs: ms / images.length };
    result.set(candidate.name, sizes);
    console.log(
      `${candidate.name.padEnd(20)} ${fmt(min * 100).padStart(6)} … ${fmt(max * 100).padStart(6)} %` +
        `  (worst ${worst})  ~${fmt(sizes.roughMs)} ms/image`,
    );
  }
  return result;
}

/** Interleaved rounds, one encode at a time: per candidate, each image's median. */
async function timing(images: Image[], list: Candidate[]): Promise<Map<string, number[]>> {
  const times = new Map<string, number[][]>(
    list.map((c) => [c.name, images.map((): number[] => [])]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, image] of images.entries()) {
      // Rotate the order each round so no candidate always follows the same one.
      for (let k = 0; k < list.length; k++) {
        const candidate = list[(k + round + i) % list.length]!;
        const started = performance.now();
        await candidate.encode(image);
        times.get(candidate.name)![i]!.push(performance.now() - started);
      }
    }
  }
  return new Map([...times].map(([name, perImage]) => [name, perImage.map(median)]));
}

async function main(): Promise<void> {
  const images = await renderCatalog();
  const reference = images.findIndex((im) => im.name === REFERENCE);
  console.log(
    `${images.length} images (every built-in template × ratio); Skia encode median ` +
      `${fmt(median(images.map((im) => im.skiaMs)))} ms; sharp ${sharp.versions.vips}, ` +
      `zlib-ng ${sharp.versions['zlib-ng'] ?? 'no'}; Node zlib ${process.versions.zlib}\n`,
  );
  const all = candidates();
  const chosen = ONLY ? all.filter((c) => ONLY.includes(c.name)) : all;
  const sizes = await sizeSweep(images, chosen);
  const timed = ONLY
    ? chosen
    : chosen.filter((c) => (sizes.get(c.name)?.max ?? Infinity) <= SIZE_BAR);
  timed.push({
    name: 'encodeCanvas (default)',
    encode: (im) =>
      encodeCanvas(
        { data: () => im.rgba, width: im.width, height: im.height } as Parameters<
          typeof encodeCanvas
        >[0],
        { format: 'png' },
      ),
  });
  console.log(`\nTiming ${timed.length} candidates, ${ROUNDS} interleaved rounds…`);
  const times = await timing(images, timed);
  console.log(
    `\n${'encoder'.padEnd(24)} ${'reference'.padStart(9)} ${'all (median)'.padStart(12)}  size vs Skia`,
  );
  const rows = [...times].sort((a, b) => median(a[1]) - median(b[1]));
  for (const [name, perImage] of rows) {
    const s = sizes.get(name);
    console.log(
      `${name.padEnd(24)} ${fmt(perImage[reference] ?? NaN).padStart(9)} ${fmt(median(perImage)).padStart(12)}  ` +
        (s ? `${fmt(s.min * 100)} … ${fmt(s.max * 100)} %` : '(as the default)'),
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
