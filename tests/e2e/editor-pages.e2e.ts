import { describe, expect, it } from 'vitest';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import { customiseInEditor, openUi, screenshot, startCore, useCoreAndUi } from './harness.js';

const BADGE = 'tmpl_name_badge';

describe('editor on a multi-page layout', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it("switches to the badge's back by keyboard, edits a layer there, and saves it without touching the front", async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, BADGE);
    const read = async () =>
      ((await (await core.api(`/v1/templates/${id}`)).json()) as WorkspaceTemplateDetail).template
        .layouts.badge!;
    const before = await read();
    const backBefore = before.morePages![0]!.layers.find((l) => l.id === 'back-name')!;

    await page.getByRole('radio', { name: 'badge' }).click();
    const pages = page.getByRole('radiogroup', { name: 'Page being edited' });
    await expect.poll(() => pages.getByRole('radio').count()).toBe(2);
    const front = pages.getByRole('radio', { name: 'Page 1' });
    expect(await front.getAttribute('aria-checked')).toBe('true');
    // The layers listed are the front's.
    await page.locator('[data-layer="event"]').waitFor();
    expect(await page.locator('[data-layer="back-name"]').count()).toBe(0);

    // Arrow keys move to the back, as in any radio group.
    await front.focus();
    await page.keyboard.press('ArrowRight');
    const back = pages.getByRole('radio', { name: 'Page 2: back' });
    await expect.poll(() => back.getAttribute('aria-checked')).toBe('true');
    // The focus moved with the choice.
    await expect.poll(() => page.locator(':focus').textContent()).toBe('Page 2: back');
    expect(await page.locator('[data-layer="event"]').count()).toBe(0);

    // The preview follows to page 2.
    const preview = page.getByTestId('editor-preview');
    await expect
      .poll(() => preview.getAttribute('data-preview-page'), { timeout: 30_000 })
      .toBe('2');

    // Select the back's name and move it in the badge's unit (inches at 300 dpi).
    await page.locator('[data-layer="back-name"]').click();
    await page.locator('.ed-box.selected[data-layer-id="back-name"]').waitFor();
    const xField = page.getByLabel('X', { exact: true });
    await expect
      .poll(async () => Number(await xField.inputValue()))
      .toBeCloseTo(backBefore.x / 300, 2);
    await xField.fill('0.5');
    await expect.poll(() => page.getByTestId('save-state').getAttribute('data-dirty')).toBe('true');

    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-dirty'))
      .toBe('false');
    await expect
      .poll(() => preview.getAttribute('data-preview-rev'), { timeout: 30_000 })
      .toBe(await page.getByTestId('editor-canvas').getAttribute('data-draft-rev'));
    await screenshot(page, 'editor-badge-back');

    const after = await read();
    const backAfter = after.morePages![0]!.layers.find((l) => l.id === 'back-name')!;
    expect(backAfter.x).toBe(150);
    expect({ ...backAfter, x: backBefore.x }).toEqual(backBefore);
    // The front and the back's other layers are as they were.
    expect(after.layers).toEqual(before.layers);
    expect(after.morePages![0]!.layers.filter((l) => l.id !== 'back-name')).toEqual(
      before.morePages![0]!.layers.filter((l) => l.id !== 'back-name'),
    );

    // A page can be added (blank, switched to) and removed again.
    await page.getByRole('button', { name: 'Add a page' }).click();
    const third = pages.getByRole('radio', { name: 'Page 3' });
    await expect.poll(() => third.getAttribute('aria-checked')).toBe('true');
    expect(await page.locator('.ed-layer').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove page 3' }).click();
    await expect.poll(() => pages.getByRole('radio').count()).toBe(2);
    await expect.poll(() => back.getAttribute('aria-checked')).toBe('true');
    await page.locator('[data-layer="back-name"]').waitFor();
  });

  it('keeps Add a page clear of the canvas at 1366 × 768 on a tall size, and after going back', async () => {
    // In Vietnamese the size names wrap to a second line, leaving the canvas less height.
    const core = await startCore();
    const ui = await openUi(core, {
      locale: 'vi-VN',
      allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
    });
    try {
      const { page } = ui;
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto(`${core.url}/ui/templates/tmpl_tet_sale`);
      await page.getByRole('button', { name: 'Tùy chỉnh' }).click();
      await page.waitForURL(/\/ui\/editor\/wtpl_/);
      const add = page.getByRole('button', { name: 'Thêm trang' });
      await add.waitFor();
      /** Whether a click at the button's centre lands on it, not on the canvas over it. */
      const reachable = async () => {
        const box = (await add.boundingBox())!;
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        return page.evaluate<boolean>(
          `Boolean(document.elementFromPoint(${x}, ${y})?.closest('button')?.textContent?.includes('Thêm trang'))`,
        );
      };
      for (const size of ['Tin (story) 9:16', 'Vuông 1:1', 'Tin (story) 9:16']) {
        await page.getByRole('radio', { name: size }).click();
        await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
        expect(await reachable(), size).toBe(true);
        // The canvas stays below the page controls, whole in the window.
        const stage = (await page.locator('.ed-stage').boundingBox())!;
        const controls = (await page.locator('.ed-pages').boundingBox())!;
        expect(stage.y, size).toBeGreaterThanOrEqual(controls.y + controls.height);
        expect(stage.y + stage.height, size).toBeLessThanOrEqual(768);
      }
      await screenshot(page, 'editor-story-1366-vi');
      expect(ui.consoleErrors).toEqual([]);
    } finally {
      await ui.close();
      await core.stop();
    }
  });
});
