import { describe, expect, it } from 'vitest';
import { screenshot, useCoreAndUi, customiseInEditor } from './harness.js';

const CERTIFICATE = 'tmpl_certificate_award';

describe('editor on a print layout', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('shows the trim inside the bleed and the safe area inside the trim, and edits in millimetres', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customiseInEditor(page, core, CERTIFICATE);
    await page.getByRole('radio', { name: 'a4' }).click();
    const trim = page.getByTestId('editor-trim');
    await expect.poll(() => trim.getAttribute('class')).toContain('print');
    const preview = page.getByTestId('editor-preview');
    await preview.waitFor({ timeout: 30_000 });
    // The engine's preview of the a4 draft is the sheet: trim and bleed, 720 px wide.
    await expect
      .poll(
        () =>
          preview.evaluate(
            (img: { naturalHeight: number; naturalWidth: number }) =>
              img.naturalHeight / img.naturalWidth,
          ),
        {
          timeout: 30_000,
        },
      )
      .toBeCloseTo(1275 / 1789, 2);
    expect(await page.getByText('The preview waits until these are fixed').count()).toBe(0);

    const stage = (await page.locator('.ed-stage').boundingBox())!;
    const trimBox = (await trim.boundingBox())!;
    const safeBox = (await page.locator('.ed-safe').boundingBox())!;
    // A4 landscape at 150 dpi: 1754 × 1240 px trim, 3 mm bleed (17.7 px), 10 mm safe (59.1 px).
    const bleed = (3 / 25.4) * 150;
    const safe = (10 / 25.4) * 150;
    const perPixel = stage.width / (1754 + 2 * bleed);
    expect(stage.height / stage.width).toBeCloseTo((1240 + 2 * bleed) / (1754 + 2 * bleed), 2);
    expect(trimBox.x - stage.x).toBeCloseTo(bleed * perPixel, 0);
    expect(trimBox.width).toBeCloseTo(1754 * perPixel, 0);
    expect(safeBox.x - trimBox.x).toBeCloseTo(safe * perPixel, 0);
    expect(safeBox.y - trimBox.y).toBeCloseTo(safe * perPixel, 0);

    // A layer box (the citation, a stack of the names and achievement) sits at its place within
    // the trim, not within the bleed.
    const citation = (await page.locator('.ed-box[data-layer-id="citation"]').boundingBox())!;
    expect(citation.x - trimBox.x).toBeCloseTo(238 * perPixel, 0);

    // The inspector edits the layer in millimetres: 238 px at 150 dpi is 40.3 mm.
    await page.locator('.ed-box[data-layer-id="citation"]').click();
    const xField = page.getByLabel('X', { exact: true });
    await expect.poll(async () => Number(await xField.inputValue())).toBeCloseTo(40.3, 1);
    await xField.fill('50');
    // 50 mm is 295 px at 150 dpi.
    await expect
      .poll(async () => {
        const box = (await page.locator('.ed-box[data-layer-id="citation"]').boundingBox())!;
        return (box.x - trimBox.x) / perPixel;
      })
      .toBeCloseTo(295, -0.5);
    await screenshot(page, 'editor-print-layout');
  });
});
