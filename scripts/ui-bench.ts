import type { Page } from 'playwright-core';
import type { CatalogDetail } from '../shared/api-schemas.js';
import { closeBrowser, openUi, startCore, waitForImages } from '../tests/e2e/harness.js';
import { referenceTemplate } from '../tests/e2e/reference-template.js';

/**
 * UI benchmark in real headless Chromium against a real core:
 *  1. opening the served UI until the catalog is interactive with every thumbnail drawn;
 *  2. preview latency after a keystroke on the reference template (target < 150 ms);
 *  3. frame times while scrolling the results table of a 10,000-row batch.
 * Usage: npm run bench:ui [-- --rows 10000 --samples 15]
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const ROWS = Number(args.get('rows') ?? 10_000);
const SAMPLES = Number(args.get('samples') ?? 15);

function stats(values: number[]): { median: number; p95: number; max: number; mean: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    median: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1] ?? NaN,
    mean: values.reduce((a, b) => a + b, 0) / values.length,
  };
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function catalogOpen(page: Page, uiLink: string): Promise<number> {
  // Cold: no cached assets, as on the first start after an install.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await page.goto('about:blank');
  const started = Date.now();
  await page.goto(uiLink);
  await page.waitForSelector('.template-card a');
  // The cards in the first screens: thumbnails further down load lazily, when scrolled to.
  await waitForImages(page, '.template-card:nth-child(-n+12) img');
  return Date.now() - started;
}

async function previewLatency(
  page: Page,
  baseUrl: string,
  template: CatalogDetail,
): Promise<number[]> {
  const text = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!;
  await page.goto(`${baseUrl}/ui/templates/${template.id}`);
  await page.waitForSelector('[data-testid="preview-image"][data-preview-count="1"]', {
    timeout: 30_000,
  });
  const input = page.getByLabel(text.label ?? text.name, { exact: true });
  await input.click();
  await page.keyboard.press('End');
  // Time from the input event to the new preview decoded on screen, measured in the page.
  await page.evaluate(`(() => {
    const field = document.activeElement;
    window.__previewTimes = [];
    const img = document.querySelector('[data-testid="preview-image"]');
    let start = null;
    field.addEventListener('input', () => { if (start === null) start = performance.now(); });
    new MutationObserver(() => {
      if (start === null) return;
      const began = start;
      start = null;
      img.decode().catch(() => {}).then(() => requestAnimationFrame(() => window.__previewTimes.push(performance.now() - began)));
    }).observe(img, { attributes: true, attributeFilter: ['data-preview-count'] });
  })()`);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
    // A function, not a string: the UI's CSP refuses eval.
    await page.waitForFunction(
      (n: number) =>
        ((globalThis as unknown as { __previewTimes: number[] }).__previewTimes.length ?? 0) > n,
      i,
      { timeout: 30_000 },
    );
    times.push(((await page.evaluate('window.__previewTimes')) as number[])[i]!);
    await page.waitForTimeout(150);
  }
  return times;
}

async function scrollFrames(page: Page, baseUrl: string, batchId: string): Promise<number[]> {
  await page.goto(`${baseUrl}/ui/batches/${batchId}`);
  await page.waitForSelector('[data-testid="results-scroll"] .results-row');
  await page.waitForTimeout(500);
  return flingFrames(page, '[data-testid="results-scroll"]');
}

/**
 * The same fling over an empty scroller of the same height: what this browser's frame pacing
 * gives with nothing to draw, so the table's figure can be read against it.
 */
async function controlFrames(page: Page): Promise<number[]> {
  // A blank page of its own: written over the UI's document, the UI's CSP (style-src 'self')
  // would refuse these inline styles, leaving nothing to scroll and two console errors.
  await page.goto('about:blank');
  await page.setContent(
    '<div id="s" style="height:620px;overflow:auto;contain:strict"><div style="height:560000px"></div></div>',
  );
  await page.waitForTimeout(500);
  return flingFrames(page, '#s');
}

/** Scrolls top to bottom over ~6 s in animation frames, like a fast trackpad fling. */
async function flingFrames(page: Page, selector: string): Promise<number[]> {
  return (await page.evaluate(`new Promise((resolve) => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const frames = [];
    const total = el.scrollHeight - el.clientHeight;
    const duration = 6000;
    let first = null;
    let last = null;
    const step = (now) => {
      if (first === null) first = now;
      if (last !== null) frames.push(now - last);
      last = now;
      const t = Math.min(1, (now - first) / duration);
      el.scrollTop = total * t;
      if (t < 1) requestAnimationFrame(step); else resolve(frames);
    };
    requestAnimationFrame(step);
  })`)) as number[];
}

async function main(): Promise<void> {
  const core = await startCore({ credits: ROWS + 1000 });
  const ui = await openUi(core);
  try {
    const page = ui.page;
    const openMs = await catalogOpen(
      page,
      ((await (await core.api('/v1/ui-sessions', { method: 'POST' })).json()) as { url: string })
        .url,
    );
    const template = await referenceTemplate(core);
    const preview = await previewLatency(page, core.url, template);

    const fields = (await (
      await core.api(`/v1/render-batches/template-fields?templateId=${template.id}`)
    ).json()) as {
      sampleRow: Record<string, unknown>;
    };
    const text = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!;
    // Image columns of the sample row name files that exist only on the template author's disk;
    // they take the template's own sample image instead (a required photo cannot be left out).
    const sample = Object.fromEntries(
      Object.entries(fields.sampleRow).map(([name, value]) =>
        template.variables.some((v) => v.name === name && v.type === 'image')
          ? [name, template.sampleValues[name]]
          : [name, value],
      ),
    );
    const records = Array.from({ length: ROWS }, (_, i) => ({
      ...sample,
      [text.name]: `Row ${i + 1}`,
    }));
    const created = (await (
      await core.api('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: template.id,
          sourceType: 'json-array',
          source: { records },
          format: 'jpeg',
          quality: 60,
        },
      })
    ).json()) as { id: string };
    // Render for up to a minute, then cancel: the table has every row either way.
    const deadline = Date.now() + 60_000;
    let status = 'queued';
    while (Date.now() < deadline) {
      status = (
        (await (await core.api(`/v1/render-batches/${created.id}`)).json()) as { status: string }
      ).status;
      if (!['queued', 'running'].includes(status)) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    if (['queued', 'running'].includes(status))
      await core.api(`/v1/render-batches/${created.id}/cancel`, { method: 'POST' });
    const batch = (await (await core.api(`/v1/render-batches/${created.id}`)).json()) as {
      status: string;
      succeeded: number;
      failed: number;
      total: number;
    };
    const frames = await scrollFrames(page, core.url, created.id);
    const control = await controlFrames(page);

    const p = stats(preview);
    const f = stats(frames);
    const slow = frames.filter((d) => d > 1000 / 60 + 1).length;
    console.log('Render Desk UI bench (headless Chromium, this machine)');
    console.log(`  catalog interactive with thumbnails: ${openMs} ms`);
    console.log(
      `  preview after a keystroke (${template.id}, ${preview.length} samples): median ${ms(p.median)}, p95 ${ms(p.p95)}, max ${ms(p.max)} (target < 150 ms)`,
    );
    console.log(
      `  results table, ${batch.total} rows (${batch.status}: ${batch.succeeded} rendered, ${batch.failed} failed), ${frames.length} frames scrolled: mean ${ms(f.mean)} (${(1000 / f.mean).toFixed(0)} fps), p95 ${ms(f.p95)}, max ${ms(f.max)}, frames over 16.7 ms: ${slow}`,
    );
    const c = stats(control);
    console.log(
      `  control: the same fling over an empty scroller, ${control.length} frames: mean ${ms(c.mean)}, p95 ${ms(c.p95)}, frames over 16.7 ms: ${control.filter((d) => d > 1000 / 60 + 1).length}`,
    );
    if (ui.consoleErrors.length) console.log('  console errors:', ui.consoleErrors);
  } finally {
    await ui.close();
    await closeBrowser();
    await core.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
