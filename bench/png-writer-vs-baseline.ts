/**
 * Today's PNG writer against the one before the WebAssembly kernel (bench/png-writer-baseline.ts),
 * on every built-in template × ratio (sample values), both with the default preset (auto filter,
 * zlib level 4):
 *
 * 1. Size table: each card's bytes, new/old (bar: every card ≤ 1.005) and new/Skia (Skia's own
 *    encoder for the same pixels; bar ≤ 1.1), which path the new writer took, and checks that
 *    its PNG decodes (sharp) to the canvas's pixels and comes out the same twice.
 * 2. Encode time per card, old and new interleaved in one run (the order alternates each round),
 *    scaled to a 1080×1080 card: medians and new/old ratios (bar: ≤ 0.5 on every card).
 *
 *   npx tsx bench/png-writer-vs-baseline.ts
 *   PNG_BENCH_ROUNDS=15 …       timing rounds (default 9)
 *   PNG_BENCH_SIZES_ONLY=1 …    the size table alone
 */
import zlib from 'node:zlib';
import sharp from 'sharp';
import { registerBundledFonts } from '../main/engine/fonts.js';
import { writePng, type PngWriterOptions } from '../main/engine/png-writer.js';
import { PNG_COMPRESSION } from '../main/engine/encode-image.js';
import { FONTS_DIR } from '../main/engine/render-job.js';
import { renderTemplate } from '../main/engine/render-template.js';
import { buildJob, ratiosOf, readCatalogTemplates } from '../scripts/preview-template.js';
import { writePng as writePngBaseline } from './png-writer-baseline.js';
import { fmt, median } from './stats.js';

sharp.concurrency(1);
const ROUNDS = Number(process.env.PNG_BENCH_ROUNDS ?? 9);
const SIZES_ONLY = process.env.PNG_BENCH_SIZES_ONLY === '1';
const OPTIONS: PngWriterOptions = PNG_COMPRESSION.balanced;
const CARD_PIXELS = 1080 * 1080;
const SIZE_BAR = 1.005;
const SKIA_BAR = 1.1;
const TIME_BAR = 0.5;

interface Card {
  name: string;
  rgba: Buffer;
  width: number;
  height: number;
  skiaBytes: number;
}

async function renderCatalog(): Promise<Card[]> {
  registerBundledFonts(FONTS_DIR);
  const cards: Card[] = [];
  for (const entry of readCatalogTemplates()) {
    for (const ratio of ratiosOf(entry.template)) {
      const { canvas } = await renderTemplate(buildJob(entry, ratio, entry.template.sampleValues));
      cards.push({
        name: `${entry.slug} ${ratio}`,
        rgba: Buffer.from(canvas.data()),
        width: canvas.width,
        height: canvas.height,
        skiaBytes: (await canvas.encode('png')).length,
      });
    }
  }
  return cards;
}

const encodeNew = (card: Card) => writePng(card.rgba, card.width, card.height, OPTIONS);
const encodeOld = (card: Card) => writePngBaseline(card.rgba, card.width, card.height, OPTIONS);

/** The PNG decodes (sharp) to exactly the canvas's RGB. */
async function samePixels(png: Buffer, card: Card): Promise<boolean> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  if (info.width !== card.width || info.height !== card.height || info.channels !== 3) return false;
  for (let p = 0, q = 0; p < card.rgba.length; p += 4, q += 3) {
    if (
      data[q] !== card.rgba[p] ||
      data[q + 1] !== card.rgba[p + 1] ||
      data[q + 2] !== card.rgba[p + 2]
    )
      return false;
  }
  return true;
}

/** The filter of the PNG's first row: 4 (Paeth) only on the Paeth + Z_RLE path. */
function path(png: Buffer, width: number): string {
  // One IDAT chunk (png-writer writes one), after the signature and IHDR.
  const idat = png.subarray(8 + 25 + 8, 8 + 25 + 8 + png.readUInt32BE(8 + 25));
  const rows = zlib.inflateSync(idat);
  const filter = rows[1 + width * 3] ?? rows[0];
  return filter === 4 ? 'paeth+rle' : (['none', 'sub', 'up'][filter!] ?? '?');
}

async function sizeTable(cards: Card[]): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  const ratios: number[] = [];
  let worstSkia = 0;
  console.log(
    `${'card'.padEnd(32)} ${'old bytes'.padStart(10)} ${'new bytes'.padStart(10)} ${'new/old'.padStart(8)} ${'new/Skia'.padStart(8)}  path`,
  );
  for (const card of cards) {
    const [old, png, again] = [await encodeOld(card), await encodeNew(card), await encodeNew(card)];
    if (!png.equals(again)) throw new Error(`${card.name}: not the same bytes twice`);
    if (!(await samePixels(png, card))) throw new Error(`${card.name}: pixels differ`);
    if (!(await samePixels(old, card))) throw new Error(`${card.name}: baseline pixels differ`);
    const ratio = png.length / old.length;
    const skia = png.length / card.skiaBytes;
    ratios.push(ratio);
    worstSkia = Math.max(worstSkia, skia);
    paths.set(card.name, path(png, card.width));
    console.log(
      `${card.name.padEnd(32)} ${String(old.length).padStart(10)} ${String(png.length).padStart(10)} ` +
        `${ratio.toFixed(4).padStart(8)} ${skia.toFixed(3).padStart(8)}  ${paths.get(card.name)}`,
    );
  }
  const worst = Math.max(...ratios);
  console.log(
    `\n${cards.length} cards, same pixels and same bytes twice on all. new/old: min ${fmt(Math.min(...ratios), 4)}, ` +
      `median ${fmt(median(ratios), 4)}, max ${fmt(worst, 4)}; new/Skia max ${fmt(worstSkia, 3)}`,
  );
  console.log(`${worst <= SIZE_BAR ? 'PASS' : 'FAIL'}  every card new/old ≤ ${SIZE_BAR}`);
  console.log(`${worstSkia <= SKIA_BAR ? 'PASS' : 'FAIL'}  every card new/Skia ≤ ${SKIA_BAR}`);
  return paths;
}

/** Interleaved rounds: per card, the median of each writer's encode times, per 1080² card. */
async function timing(cards: Card[], paths: Map<string, string>): Promise<void> {
  const times = cards.map(() => ({ old: [] as number[], new: [] as number[] }));
  const writers = [
    ['old', encodeOld],
    ['new', encodeNew],
  ] as const;
  for (const card of cards) await Promise.all([encodeOld(card), encodeNew(card)]); // warm up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, card] of cards.entries()) {
      const scale = CARD_PIXELS / (card.width * card.height);
      for (let k = 0; k < 2; k++) {
        const [name, encode] = writers[(k + round + i) % 2]!;
        const started = performance.now();
        await encode(card);
        times[i]![name].push((performance.now() - started) * scale);
      }
    }
  }
  const perCard = cards.map((card, i) => {
    const old = median(times[i]!.old);
    const now = median(times[i]!.new);
    return { name: card.name, old, now, ratio: now / old, path: paths.get(card.name) ?? '' };
  });
  console.log(`\nEncode per 1080² card, ${ROUNDS} interleaved rounds (ms, medians per card):`);
  const groups = [
    ['all', perCard],
    ['paeth+rle', perCard.filter((c) => c.path === 'paeth+rle')],
    ['trial filter, level 4', perCard.filter((c) => c.path !== 'paeth+rle')],
  ] as const;
  for (const [label, group] of groups) {
    if (!group.length) continue;
    const ratios = group.map((c) => c.ratio);
    console.log(
      `${label.padEnd(22)} ${String(group.length).padStart(3)} cards: old ${fmt(median(group.map((c) => c.old)))} ms, ` +
        `new ${fmt(median(group.map((c) => c.now)))} ms; new/old median ${fmt(median(ratios), 3)}, ` +
        `max ${fmt(Math.max(...ratios), 3)}; ${ratios.filter((r) => r <= TIME_BAR).length} cards ≤ ${TIME_BAR}`,
    );
  }
  const slowest = [...perCard].sort((a, b) => b.ratio - a.ratio).slice(0, 5);
  console.log(
    `highest new/old: ${slowest.map((c) => `${c.name} ${fmt(c.ratio, 2)} (${c.path})`).join(', ')}`,
  );
  const all = perCard.map((c) => c.ratio);
  console.log(
    `${Math.max(...all) <= TIME_BAR ? 'PASS' : 'FAIL'}  every card new/old ≤ ${TIME_BAR} ` +
      `(median ${fmt(median(all), 3)})`,
  );
}

async function main(): Promise<void> {
  const cards = await renderCatalog();
  console.log(`${cards.length} cards (every built-in template × ratio), sample values\n`);
  const paths = await sizeTable(cards);
  if (!SIZES_ONLY) await timing(cards, paths);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
