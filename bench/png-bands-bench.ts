/**
 * `npm run bench:png-bands`: what reusing compressed bands saves a batch's PNG encoding
 * (main/engine/png-bands.ts). Rows of three built-in templates as a batch draws them (every other
 * row's texts end in " #i", as bench:batch's rows do, and the price changes every row), each
 * card encoded twice in turn on this one thread: with its bands compared with the last card's
 * and copied where equal, and cold (every band deflated). Reports the share of bands reused, the
 * median encode time both ways and their ratio (and the total over all rows), and checks both
 * give the same bytes.
 *
 *   BENCH_ROWS=60 npm run bench:png-bands   a smoke run
 */
import { registerBundledFonts } from '../main/engine/fonts.js';
import { PNG_COMPRESSION } from '../main/engine/encode-image.js';
import { bandStats } from '../main/engine/png-bands.js';
import { writePng } from '../main/engine/png-writer.js';
import { FONTS_DIR } from '../main/engine/render-job.js';
import { renderTemplate } from '../main/engine/render-template.js';
import { releaseCanvas } from '../main/engine/canvas-pool.js';
import type { Ratio } from '../shared/template-format.js';
import { buildJob, readCatalogTemplates } from '../scripts/preview-template.js';
import { fmt, median } from './stats.js';
import { runBench } from './run-bench.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 200);
const WARM_UP = 5;
const CASES: Array<{ slug: string; ratio: Ratio }> = [
  { slug: 'product-promo', ratio: 'square' },
  { slug: 'flash-sale-1111', ratio: 'square' },
  { slug: 'name-badge', ratio: 'square' },
];

async function main(): Promise<void> {
  registerBundledFonts(FONTS_DIR);
  const catalog = await readCatalogTemplates();
  const options = PNG_COMPRESSION.balanced;
  let allSame = true;
  const totals = { warm: [] as number[], cold: [] as number[] };
  for (const { slug, ratio } of CASES) {
    const entry = catalog.find((e) => e.slug === slug);
    if (!entry) throw new Error(`${slug} is missing`);
    const sample = entry.template.sampleValues;
    const texts = new Set(
      entry.template.variables
        .filter((v) => v.type === 'text' || v.type === 'longText')
        .map((v) => v.name),
    );
    const warm: number[] = [];
    const cold: number[] = [];
    const stats = { ...bandStats };
    for (let i = 0; i < ROWS + WARM_UP; i += 1) {
      const values = Object.fromEntries(
        Object.entries(sample).map(([name, value]) => [
          name,
          texts.has(name) && typeof value === 'string' && i % 2
            ? `${value} #${i}`
            : name === 'price' && typeof value === 'number'
              ? value + 1000 * i
              : value,
        ]),
      );
      const drawn = await renderTemplate(buildJob(entry, ratio, values));
      const { width, height } = drawn.canvas;
      const rgba = drawn.canvas.data();
      const times: Record<'warm' | 'cold', number> = { warm: 0, cold: 0 };
      const bytes: Record<'warm' | 'cold', Buffer | null> = { warm: null, cold: null };
      for (const way of i % 2 ? (['cold', 'warm'] as const) : (['warm', 'cold'] as const)) {
        const started = performance.now();
        bytes[way] = await writePng(rgba, width, height, {
          ...options,
          reuseBands: way === 'warm',
        });
        times[way] = performance.now() - started;
      }
      releaseCanvas(drawn.canvas);
      if (!bytes.warm!.equals(bytes.cold!)) allSame = false;
      if (i < WARM_UP) continue;
      warm.push(times.warm);
      cold.push(times.cold);
    }
    const bands = bandStats.bands - stats.bands;
    const reused = bandStats.reused - stats.reused;
    console.log(
      `${`${slug} ${ratio}`.padEnd(26)} bands reused ${fmt((100 * reused) / bands)} %; encode median ${fmt(median(cold), 2)} ms cold → ${fmt(median(warm), 2)} ms reusing (${fmt(median(warm) / median(cold), 3)}×)`,
    );
    totals.warm.push(...warm);
    totals.cold.push(...cold);
  }
  const sum = (times: number[]) => times.reduce((a, b) => a + b, 0);
  console.log(
    `All ${CASES.length * ROWS} rows: encoding took ${fmt(sum(totals.cold) / 1000, 2)} s cold → ${fmt(sum(totals.warm) / 1000, 2)} s reusing (${fmt(sum(totals.warm) / sum(totals.cold), 3)}×); ${allSame ? 'same bytes both ways on every row' : 'BYTES DIFFER'}`,
  );
  if (!allSame) process.exitCode = 1;
}

runBench(main);
