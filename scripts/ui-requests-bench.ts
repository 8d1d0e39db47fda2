import type { Page } from 'playwright-core';
import { closeBrowser, openUi, startCore } from '../tests/e2e/harness.js';
import { referenceTemplate } from '../tests/e2e/reference-template.js';

/**
 * How many requests the screens make to keep their server state fresh, in real headless
 * Chromium against a real core: each screen is left open for a fixed time (a batch running on
 * the batch screens), and every request to /v1 is counted by endpoint (ids folded). Fewer is
 * better at the same freshness; compare two builds in the same session.
 * Usage: npm run bench:ui-requests [-- --seconds 20]
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const SECONDS = Number(args.get('seconds') ?? 20);

/** `/v1/render-batches/bat_x/manifest?cursor=0` → `GET /v1/render-batches/:id/manifest`. */
function endpoint(method: string, url: string): string {
  const { pathname } = new URL(url);
  const folded = pathname
    .split('/')
    .map((part) => (/^(bat|rnd|wh|whd|key|brand|wtpl|tmpl|up|font)_/.test(part) ? ':id' : part))
    .join('/');
  return `${method} ${folded}`;
}

async function countWhile(
  page: Page,
  open: () => Promise<void>,
): Promise<{ total: number; byEndpoint: Map<string, number> }> {
  const byEndpoint = new Map<string, number>();
  let counting = false;
  const listener = (request: { url(): string; method(): string }) => {
    if (!counting || !new URL(request.url()).pathname.startsWith('/v1/')) return;
    const key = endpoint(request.method(), request.url());
    byEndpoint.set(key, (byEndpoint.get(key) ?? 0) + 1);
  };
  page.on('request', listener);
  counting = true;
  await open();
  await page.waitForTimeout(SECONDS * 1000);
  counting = false;
  page.off('request', listener);
  let total = 0;
  for (const n of byEndpoint.values()) total += n;
  return { total, byEndpoint };
}

async function main(): Promise<void> {
  const core = await startCore({ credits: 100_000 });
  const ui = await openUi(core);
  const page = ui.page;
  try {
    const template = await referenceTemplate(core);
    const text = template.variables.find((v) => v.type === 'text' && !v.bindsTo)!;
    const records = Array.from({ length: 20_000 }, (_, i) => ({
      ...template.sampleValues,
      [text.name]: `Row ${i + 1}`,
    }));
    const created = (await (
      await core.api('/v1/render-batches', {
        method: 'POST',
        json: { templateId: template.id, sourceType: 'json-array', source: { records } },
      })
    ).json()) as { id: string };

    const results: [string, Awaited<ReturnType<typeof countWhile>>][] = [];
    // In-app navigation, as the sidebar's links do (no reload): what a screen fetches again
    // when the user comes back to it is part of what is counted.
    await page.goto(`${core.url}/ui/`);
    await page.waitForSelector('nav.sidebar');
    const leaveOpen = async (name: string, screen: string) => {
      const open = () =>
        page.evaluate(
          `history.pushState(null, '', '/ui/${screen}'); dispatchEvent(new PopStateEvent('popstate'))`,
        ) as Promise<void>;
      results.push([name, await countWhile(page, open)]);
    };
    await leaveOpen('Catalog (app shell, a batch running)', '');
    await leaveOpen('Batches list (a batch running)', 'batches');
    await leaveOpen('Batch screen (running)', `batches/${created.id}`);
    await leaveOpen('Settings (webhooks, team service)', 'settings');
    await core.api(`/v1/render-batches/${created.id}/cancel`, { method: 'POST' });
    await leaveOpen('Batch screen (finished)', `batches/${created.id}`);
    await leaveOpen('Batches list (nothing running)', 'batches');

    console.log(`Render Desk UI requests bench (headless Chromium, ${SECONDS} s per screen)`);
    let all = 0;
    for (const [name, { total, byEndpoint }] of results) {
      all += total;
      console.log(`  ${name}: ${total} requests`);
      for (const [key, n] of [...byEndpoint].sort((a, b) => b[1] - a[1]))
        console.log(`      ${String(n).padStart(4)}  ${key}`);
    }
    console.log(`  all screens: ${all} requests`);
    if (ui.consoleErrors.length > 0)
      console.log(`  console errors: ${ui.consoleErrors.join(' | ')}`);
  } finally {
    await ui.close();
    await closeBrowser();
    await core.stop();
  }
}

await main();
