import type { WorkspaceTemplateDetail } from '../shared/workspace-schemas.js';
import { openUi, startCore } from '../tests/e2e/harness.js';

/**
 * Editor responsiveness in real headless Chromium against a real core: the reference template
 * is forked, its headline dragged again and again on the editor's canvas, and each sample is the
 * time from the drag's last pointer move to the engine's preview of that position being on
 * screen (decoded, next frame).
 * Usage: npm run bench:editor [-- --drags 30 --template tmpl_product_promo]
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2)
  args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const DRAGS = Number(args.get('drags') ?? 30);
const TEMPLATE = args.get('template') ?? 'tmpl_product_promo';

function stats(values: number[]): { median: number; p95: number; max: number; min: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    median: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1] ?? NaN,
    min: sorted[0] ?? NaN,
  };
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const core = await startCore();
  const ui = await openUi(core, { allowConsole: [/404/] });
  try {
    const page = ui.page;
    const res = await core.api(`/v1/catalog/${TEMPLATE}/fork`, { method: 'POST', json: {} });
    if (res.status !== 201) throw new Error(`fork answered ${res.status}`);
    const fork = (await res.json()) as WorkspaceTemplateDetail;
    await page.goto(`${core.url}/ui/editor/${fork.id}`);
    await page.waitForSelector('[data-testid="editor-preview"]', { timeout: 30_000 });
    const layout = Object.values(fork.template.layouts)[0]!;
    const layerId =
      layout.layers.find((l) => l.id === 'headline')?.id ??
      layout.layers.find((l) => l.kind === 'text')!.id;
    const box = page.locator(`.ed-box[data-layer-id="${layerId}"]`);
    await box.click();
    // The time of the last pointer move, taken in the page.
    await page.evaluate(`(() => {
      window.__lastMove = 0;
      window.addEventListener('pointermove', () => { window.__lastMove = performance.now(); }, true);
    })()`);

    const times: number[] = [];
    for (let i = 0; i < DRAGS; i++) {
      const rect = (await box.boundingBox())!;
      const x = rect.x + rect.width / 2;
      const y = rect.y + rect.height / 2;
      // Back and forth, so the layer stays on the canvas; off the snapping lines by a few px.
      const dx = (i % 2 === 0 ? 1 : -1) * (23 + (i % 5));
      const dy = (i % 2 === 0 ? 1 : -1) * 11;
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let step = 1; step <= 6; step++)
        await page.mouse.move(x + (dx * step) / 6, y + (dy * step) / 6);
      await page.mouse.up();
      const elapsed = (await page.evaluate(`new Promise((resolve, reject) => {
        const canvas = document.querySelector('[data-testid="editor-canvas"]');
        const img = document.querySelector('[data-testid="editor-preview"]');
        const target = Number(canvas.dataset.draftRev);
        const started = window.__lastMove;
        const timer = setTimeout(() => reject(new Error('no preview in 30 s')), 30000);
        const done = () => {
          if (Number(img.dataset.previewRev) < target) return false;
          clearTimeout(timer);
          requestAnimationFrame(() => resolve(performance.now() - started));
          return true;
        };
        if (done()) return;
        const observer = new MutationObserver(() => { if (done()) observer.disconnect(); });
        observer.observe(img, { attributes: true, attributeFilter: ['data-preview-rev'] });
      })`)) as number;
      times.push(elapsed);
      await page.waitForTimeout(250);
    }

    const s = stats(times);
    console.log('Render Desk editor bench (headless Chromium, this machine)');
    console.log(
      `  drag → engine preview on screen (${TEMPLATE} forked, ${times.length} drags): median ${ms(s.median)}, p95 ${ms(s.p95)}, min ${ms(s.min)}, max ${ms(s.max)} (the end of a drag renders at once; typed edits wait for a 120 ms pause)`,
    );
    if (ui.consoleErrors.length) console.log('  console errors:', ui.consoleErrors);
  } finally {
    await ui.close();
    await core.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
