import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi } from './harness.js';
import { startRecordsBatch } from './csv.js';

describe('a batch cancelled half-way', () => {
  const session = useCoreAndUi({ launch: false });

  it('says how many rows were not rendered, not "Left 0" and a green toast, and renders the rest on request', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const records = Array.from({ length: 300 }, (_, i) => ({
      quote: `Câu trích dẫn số ${i + 1}`,
      author: `Tác giả ${i + 1}`,
    }));
    const id = await startRecordsBatch(core, 'tmpl_quote_card', records);
    await page.goto(`${core.url}/ui/batches/${id}`);
    const done = page.getByTestId('batch-done');
    await expect
      .poll(async () => Number(await done.textContent()), { timeout: 60_000 })
      .toBeGreaterThan(5);
    await page.getByRole('button', { name: 'Cancel batch' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel batch' }).click();

    const toast = page.locator('.toast', { hasText: 'Batch cancelled' });
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.getAttribute('class')).not.toContain('success');
    const batch = (await (await core.api(`/v1/render-batches/${id}`)).json()) as {
      status: string;
      succeeded: number;
      failed: number;
      total: number;
    };
    expect(batch.status).toBe('cancelled');
    const remaining = batch.total - batch.succeeded - batch.failed;
    expect(remaining).toBeGreaterThan(0);
    expect(await toast.textContent()).toContain(
      `${batch.succeeded} of 300 rows rendered, ${remaining} not rendered`,
    );
    expect(await page.getByTestId('batch-remaining').textContent()).toBe(String(remaining));
    await expect.poll(() => page.getByText('Not rendered', { exact: true }).count()).toBe(1);
    await screenshot(page, 'batch-cancelled');

    await page.getByRole('button', { name: `Render the remaining ${remaining} rows` }).click();
    await expect
      .poll(async () => Number(await page.getByTestId('batch-succeeded').textContent()), {
        timeout: 120_000,
      })
      .toBe(300);
    const after = (await (await core.api(`/v1/render-batches/${id}`)).json()) as { status: string };
    expect(after.status).toBe('succeeded');
    expect(ui.consoleErrors).toEqual([]);
  });
});
