/**
 * `npm run bench:layout`: what format 2 layout costs. One design drawn two ways: a plain format 1
 * template with fixed coordinates, and the same design as a format 2 template whose copy sits in
 * a stack, with the title and subtitle in a fit group and format 2's balanced line breaks. The
 * bar (issue 16): the format 2 render takes at most 1.5 × the plain one.
 *
 *   npm run bench:layout                 ~40 s
 *   BENCH_QUICK=1 npm run bench:layout   fewer runs, for a smoke run
 */
import path from 'node:path';
import sharp from 'sharp';
import { REPO_ROOT } from '../main/app.js';
import { renderJob } from '../main/engine/render-job.js';
import type { RenderJob, ResolvedValue } from '../main/render/render-protocol.js';
import { Template } from '../shared/template-format.js';
import { fmt, median } from './stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const RUNS = QUICK ? 15 : 60;
const BAR = 1.5;
sharp.concurrency(1);

const ASSETS = path.join(REPO_ROOT, 'templates', 'catalog', 'product-promo');

const font = { family: 'Be Vietnam Pro', weight: 800 };
const body = { family: 'Be Vietnam Pro', weight: 400 };
const photo = {
  kind: 'image',
  id: 'photo',
  x: 0,
  y: 0,
  width: 1080,
  height: 560,
  source: { asset: 'product.jpg' },
};
const title = {
  kind: 'text',
  id: 'title',
  x: 80,
  y: 600,
  width: 920,
  height: 180,
  text: '{{title}}',
  font,
  size: 72,
  minSize: 36,
  lineHeight: 1.25,
  colour: '#111827',
};
const subtitle = {
  kind: 'text',
  id: 'subtitle',
  x: 80,
  y: 790,
  width: 920,
  height: 100,
  text: '{{subtitle}}',
  font: body,
  size: 36,
  minSize: 24,
  lineHeight: 1.3,
  colour: '#374151',
};
const price = {
  kind: 'text',
  id: 'price',
  x: 80,
  y: 900,
  width: 500,
  height: 80,
  text: '{{price}}',
  font,
  size: 56,
  minSize: 32,
  colour: '#E11D48',
};
const button = {
  kind: 'text',
  id: 'cta',
  x: 640,
  y: 900,
  width: 360,
  height: 96,
  text: 'Mua ngay',
  font,
  size: 40,
  colour: '#FFFFFF',
  align: 'center',
  verticalAlign: 'middle',
  background: { paint: '#111827', radius: 48, padding: 24 },
};

function template(format: 1 | 2, stacked = format === 2): Template {
  const copy = !stacked
    ? [title, subtitle, price, button]
    : [
        {
          kind: 'stack',
          id: 'copy',
          x: 80,
          y: 600,
          width: 920,
          height: 440,
          gap: 16,
          layers: [
            { ...title, fitGroup: 'titles' },
            { ...subtitle, fitGroup: 'titles' },
            {
              kind: 'stack',
              id: 'buy',
              direction: 'horizontal',
              x: 0,
              y: 0,
              width: 920,
              height: 96,
              gap: 40,
              align: 'center',
              layers: [price, button],
            },
          ],
        },
      ];
  return Template.parse({
    schemaVersion: format,
    id: `tmpl_layout_bench_${format}${stacked ? '_stacked' : ''}`,
    name: 'Layout bench',
    category: 'Bench',
    subCategory: 'Bench',
    market: 'vietnam',
    createdAt: '2026-11-25',
    locale: 'vi-VN',
    variables: [
      { name: 'title', type: 'text' },
      { name: 'subtitle', type: 'text' },
      { name: 'price', type: 'text' },
    ],
    layouts: {
      square: { width: 1080, height: 1080, background: '#FFFFFF', layers: [photo, ...copy] },
    },
  });
}

const VALUES: Record<string, ResolvedValue> = {
  title: 'Bình giữ nhiệt inox mừng trăng tròn',
  subtitle: 'Giữ lạnh 24 giờ, giữ nóng 12 giờ, bảo hành chính hãng',
  price: '1.250.000 ₫',
};

function job(t: Template, measureOnly: boolean): RenderJob {
  return {
    template: t,
    assetsDir: ASSETS,
    ratio: 'square',
    values: VALUES,
    format: 'png',
    measureOnly,
  };
}

/** Median ms of each job, runs interleaved so both see the same machine. */
async function timeBoth(a: RenderJob, b: RenderJob): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < 5; i++) {
    await renderJob(a);
    await renderJob(b);
  }
  for (let i = 0; i < RUNS; i++) {
    for (const [index, which] of [a, b].entries()) {
      const started = performance.now();
      const result = await renderJob(which);
      times[index]!.push(performance.now() - started);
      if (!result.ok) throw new Error(result.message);
    }
  }
  return [median(times[0]), median(times[1])];
}

async function main(): Promise<void> {
  const plain = template(1);
  const laidOut = template(2);
  // Format 2 text at fixed coordinates: what balanced breaks cost without stacks or groups.
  const textOnly = template(2, false);
  const [one, two] = await timeBoth(job(plain, false), job(laidOut, false));
  const ratio = two / one;
  console.log(
    `${ratio <= BAR ? 'PASS' : 'FAIL'}  render (draw + PNG): format 1 ${fmt(one)} ms, format 2 with a stack, a fit group and balanced breaks ${fmt(two)} ms: ${ratio.toFixed(2)}× (target ≤ ${BAR}×), medians of ${RUNS}`,
  );
  const [drawOne, drawTwo] = await timeBoth(job(plain, true), job(laidOut, true));
  const [, drawText] = await timeBoth(job(plain, true), job(textOnly, true));
  console.log(
    `info  drawing only (pre-flight, no encoding): format 1 ${fmt(drawOne)} ms, format 2 text at fixed places ${fmt(drawText)} ms, format 2 with stack and fit group ${fmt(drawTwo)} ms`,
  );
  if (ratio > BAR) process.exitCode = 1;
}

await main();
