import { describe, expect, it } from 'vitest';
import { startRecordsBatch, templateFields } from './csv.js';
import { screenshot, useCoreAndUi } from './harness.js';

const ROWS = 900;
/** How long the counter may have counted a row before the table must show it rendered. */
const LAG_MS = 1500;
/** Rows render a few at a time, about in order: a row below the count may still be running. */
const SLACK = 8;
const ROW_HEIGHT = 56;
/** The batch with failures: long enough for several refreshes of the failed list. */
const FAILING_ROWS = 600;
/**
 * How long a test watches its batch: until the batch is done, within the test's own timeout
 * (240 s). Two minutes was a guess about speed that a loaded machine broke mid-batch.
 */
const WATCH_MS = 200_000;
/**
 * The rows are drawn at a quarter of their size: what is watched is the table following the
 * count, not the images, and each row then costs its bookkeeping more than its drawing.
 */
const OUTPUT = { scale: 0.25 };

interface Sample {
  at: number;
  done: number;
  /** The table's rows in the DOM: their index, and whether a badge says rendered or failed. */
  rows: { index: number; state: 'done' | 'waiting' | 'skeleton' }[];
}

/**
 * One look at the batch screen (a string: the tests have no DOM types), then a scroll of the
 * table to the rows the counter counted `follow` rows ago: the rows a user watching the batch
 * reads.
 */
const look = (follow: number) => `(() => {
  const counter = document.querySelector('[data-testid="batch-done"]');
  const done = Number((counter ? counter.textContent : '').replace(/[^0-9]/g, ''));
  const scroller = document.querySelector('[data-testid="results-scroll"]');
  const rows = scroller
    ? Array.from(scroller.querySelectorAll('[role="row"]')).map((row) => {
        const badge = row.querySelector('.badge');
        const state = !badge
          ? 'skeleton'
          : /\\b(success|danger)\\b/.test(badge.className)
            ? 'done'
            : 'waiting';
        return { index: Number(row.getAttribute('aria-rowindex')) - 2, state };
      })
    : [];
  if (scroller) scroller.scrollTop = Math.max(0, (${follow} - 6) * ${ROW_HEIGHT});
  return { done, rows };
})()`;

describe('the results table of a running batch', () => {
  // The thumbnails of the rows scrolled past (a request each) would exhaust the default rate
  // limit of the session (600 a minute) before the batch ends.
  const session = useCoreAndUi({
    launch: false,
    credits: 5000,
    env: { RENDER_DESK_RATE_LIMIT: '100000' },
  });

  it('shows the rows the counter counts as rendered within a second or so, without placeholders', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const manifestRequests: { at: number; cursor: string }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (/\/v1\/render-batches\/[^/]+\/renders$/.test(url.pathname))
        manifestRequests.push({ at: Date.now(), cursor: url.searchParams.get('cursor') ?? '0' });
    });
    const records = Array.from({ length: ROWS }, (_, i) => ({
      quote: `Câu trích dẫn số ${i + 1}`,
      author: `Tác giả ${i + 1}`,
    }));
    const id = await startRecordsBatch(core, 'tmpl_quote_card', records, OUTPUT);
    await page.goto(`${core.url}/ui/batches/${id}`);
    await page.getByTestId('results-scroll').locator('.badge').first().waitFor();

    // Every ~200 ms until the batch ends: the counter, the table, and a scroll to rows the
    // counter counted LAG_MS ago (earlier rows would be all rendered; later ones may not be yet).
    const samples: Sample[] = [];
    let shot = false;
    for (const started = Date.now(); Date.now() - started < WATCH_MS;) {
      const now = Date.now();
      const counted = samples.filter((s) => s.at <= now - LAG_MS).at(-1)?.done ?? 0;
      const sample = (await page.evaluate(look(counted))) as Omit<Sample, 'at'>;
      samples.push({ at: now, ...sample });
      if (!shot && sample.done > ROWS / 3) {
        shot = true;
        await screenshot(page, 'batch-live-rows');
      }
      if (sample.done >= ROWS) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(samples.at(-1)?.done).toBe(ROWS);

    // Whenever the counter has said k for more than LAG_MS, the rows below k show rendered.
    const late: string[] = [];
    for (const sample of samples) {
      const counted = samples.filter((s) => s.at <= sample.at - LAG_MS).at(-1)?.done ?? 0;
      const behind = sample.rows.filter((r) => r.index < counted - SLACK && r.state !== 'done');
      if (behind.length > 0)
        late.push(
          `${sample.at - samples[0]!.at} ms: counted ${counted} ${LAG_MS} ms ago, rows ` +
            behind.map((r) => `${r.index + 1} ${r.state}`).join(', '),
        );
    }
    // The checks above looked at rows: the table followed the count down the batch.
    const checked = samples.flatMap((s) => s.rows).filter((r) => r.index > ROWS / 2);
    expect(checked.length).toBeGreaterThan(0);
    expect(late).toEqual([]);

    // No page is asked for more than about once a second (one first load, then a refresh a
    // second at most), however often progress arrives.
    const span = (samples.at(-1)!.at - samples[0]!.at) / 1000;
    const byCursor = new Map<string, number>();
    for (const r of manifestRequests) byCursor.set(r.cursor, (byCursor.get(r.cursor) ?? 0) + 1);
    for (const [cursor, count] of byCursor)
      expect(count, `requests for the page at ${cursor}`).toBeLessThanOrEqual(Math.ceil(span) + 3);
    console.log(
      `live results: ${samples.length} samples over ${span.toFixed(1)} s, manifest requests ` +
        JSON.stringify(Object.fromEntries(byCursor)),
    );
    expect(ui.consoleErrors).toEqual([]);
  });

  it('lists the failed rows as they fail, without emptying the list on every refresh', async () => {
    const { core, ui } = session;
    const { page } = ui;
    // Every fourth row fails: a price that is not a number.
    const template = 'tmpl_flash_sale_1111';
    const fields = await templateFields(core, template);
    const records = Array.from({ length: FAILING_ROWS }, (_, i) => ({
      ...fields.sampleRow,
      ...(i % 4 === 3 ? { price: 'liên hệ' } : {}),
    }));
    const id = await startRecordsBatch(core, template, records, OUTPUT);
    await page.goto(`${core.url}/ui/batches/${id}`);
    await page.getByRole('radio', { name: /Failed only/ }).click();
    // Every change of the table, as it happens: the fewest failed rows it showed after showing
    // some (a list emptied and fetched again would show none, or placeholders, for a moment).
    await page.evaluate(`(() => {
      window.__failedSeen = { most: 0, dropped: [] };
      const count = () => document.querySelectorAll(
        '[data-testid="results-scroll"] [role="row"] .badge.danger').length;
      new MutationObserver(() => {
        const now = count();
        const seen = window.__failedSeen;
        if (now < seen.most) seen.dropped.push(seen.most + ' then ' + now);
        seen.most = Math.max(seen.most, now);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    })()`);
    const samples: { at: number; failed: number; shown: number; total: number }[] = [];
    for (const started = Date.now(); Date.now() - started < WATCH_MS;) {
      const sample = (await page.evaluate(`(() => {
        const text = (id) => (document.querySelector('[data-testid="' + id + '"]') || {}).textContent || '';
        return {
          failed: Number(text('batch-failed').replace(/[^0-9]/g, '')),
          done: Number(text('batch-done').replace(/[^0-9]/g, '')),
          shown: document.querySelectorAll(
            '[data-testid="results-scroll"] [role="row"] .badge.danger').length,
          rows: document.querySelectorAll('[data-testid="results-scroll"] [role="row"]').length,
        };
      })()`)) as { failed: number; done: number; shown: number; rows: number };
      samples.push({
        at: Date.now(),
        failed: sample.failed,
        shown: sample.shown,
        total: sample.rows,
      });
      if (sample.done >= FAILING_ROWS) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(samples.at(-1)?.failed).toBe(FAILING_ROWS / 4);
    // The list was watched while it grew: through several refreshes, not only once it was full.
    const counts = new Set(samples.map((s) => s.failed).filter((n) => n < FAILING_ROWS / 4));
    expect(counts.size).toBeGreaterThanOrEqual(3);
    // Whenever the counter has said k failed for more than LAG_MS, the list shows k of them (or
    // as many as fit on screen).
    const late = samples.flatMap((sample) => {
      const counted = samples.filter((s) => s.at <= sample.at - LAG_MS).at(-1)?.failed ?? 0;
      const want = Math.min(counted - SLACK, sample.total - 1, 10);
      return sample.shown < want
        ? [`${sample.at - samples[0]!.at} ms: ${sample.shown} shown, ${counted} counted`]
        : [];
    });
    expect(late).toEqual([]);
    expect(await page.evaluate('window.__failedSeen.dropped')).toEqual([]);
    expect(ui.consoleErrors).toEqual([]);
  });
});
