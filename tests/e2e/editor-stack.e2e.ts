import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Layer } from '../../shared/template-format.js';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import { screenshot, useCoreAndUi, customiseInEditor, saveInEditor } from './harness.js';

/** The quote card keeps its text in a stack: body → mark, quote, rule, credit (→ …, byline). */
const TEMPLATE = 'tmpl_quote_card';
const RUBY = '#E0115F';

/** Waits until the preview shows the draft as it is now (the engine laid the stack out again). */
async function previewCaughtUp(page: Page): Promise<void> {
  const preview = page.getByTestId('editor-preview');
  const canvas = page.getByTestId('editor-canvas');
  await preview.waitFor({ timeout: 30_000 });
  await expect
    .poll(
      async () =>
        Number(await preview.getAttribute('data-preview-rev')) >=
        Number(await canvas.getAttribute('data-draft-rev')),
      { timeout: 20_000 },
    )
    .toBe(true);
}

/** Pixels of the shown preview within 40 of `hex` on every channel. */
async function previewPixelsNear(page: Page, hex: string): Promise<number> {
  const bytes = (await page.evaluate(`(async () => {
    const image = document.querySelector('[data-testid="editor-preview"]');
    const response = await fetch(image.src);
    return Array.from(new Uint8Array(await response.arrayBuffer()));
  })()`)) as number[];
  const { data, info } = await sharp(Buffer.from(bytes))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (want.every((v, c) => Math.abs(data[i + c]! - v) <= 40)) count++;
  }
  return count;
}

/** The rows under a stack in the layers panel, in order. */
async function rowOrder(page: Page, stackId: string): Promise<(string | null)[]> {
  const rows = page.locator(`[data-parent="${stackId}"]`);
  const count = await rows.count();
  return Promise.all(
    Array.from({ length: count }, (_, i) => rows.nth(i).getAttribute('data-layer')),
  );
}

/** The ids of a stack's layers in the saved template, by the stack's id (at any depth). */
function childIds(layers: Layer[], stackId: string): string[] | undefined {
  for (const layer of layers) {
    if (layer.kind !== 'stack') continue;
    if (layer.id === stackId) return layer.layers.map((l) => l.id);
    const inner = childIds(layer.layers, stackId);
    if (inner) return inner;
  }
  return undefined;
}

function findIn(layers: Layer[], id: string): Layer | undefined {
  for (const layer of layers) {
    if (layer.id === id) return layer;
    if (layer.kind === 'stack') {
      const inner = findIn(layer.layers, id);
      if (inner) return inner;
    }
  }
  return undefined;
}

describe('a format 2 stack in the editor', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  const saved = async (id: string) => {
    const response = await session.core.api(`/v1/templates/${id}`);
    const detail = (await response.json()) as WorkspaceTemplateDetail;
    return detail.template.layouts.square!.layers;
  };

  it('shows as one layer to select, move and resize, saying its layers are edited inside it', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customiseInEditor(page, core, TEMPLATE);
    await previewCaughtUp(page);
    const stack = page.locator('.ed-box[data-layer-id="body"]');
    await stack.click();
    await page.getByRole('heading', { name: 'Stack layer' }).waitFor();
    await page.getByText('select it under the stack in the Layers panel').waitFor();
    expect(await page.getByText('edited in the template’s JSON').count()).toBe(0);
    // Its layers are outlined where the engine drew them, not boxes of their own to drag.
    const quote = page.locator('.ed-box.ed-child[data-layer-id="quote"]');
    await quote.waitFor();
    expect(
      await page.evaluate(
        `getComputedStyle(document.querySelector('.ed-child[data-layer-id="quote"]')).pointerEvents`,
      ),
    ).toBe('none');
    const x = page.getByLabel('X', { exact: true });
    await x.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('120');
    await page.keyboard.press('Tab');
    await expect.poll(() => x.inputValue()).toBe('120');
    // The preview (drawn by the engine, the stack laid out) catches up with the moved stack.
    await previewCaughtUp(page);
    await screenshot(page, 'editor-stack');
    // A duplicate gets fresh ids for the stack and its layers, so the template still saves.
    await page.getByRole('button', { name: 'Duplicate body' }).click();
    await page.locator('.ed-box[data-layer-id="body_2"]').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Unsaved changes').waitFor({ state: 'detached', timeout: 20_000 });
    expect(ui.consoleErrors).toEqual([]);
  });

  it('edits a stack’s text layer chosen in the layers panel: colour and size show in the preview and persist', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, TEMPLATE);
    await previewCaughtUp(page);
    // The stack's layers are listed under it, in stack order.
    await expect.poll(() => rowOrder(page, 'body')).toEqual(['mark', 'quote', 'rule', 'credit']);
    const row = page.locator('button[data-layer="quote"]');
    await row.click();
    await page.getByRole('heading', { name: 'Text layer' }).waitFor();
    await expect.poll(() => row.getAttribute('aria-pressed')).toBe('true');
    await page.locator('.ed-box.ed-child.selected[data-layer-id="quote"]').waitFor();
    // The stack places it: no position or size of its own to edit.
    expect(await page.getByLabel('X', { exact: true }).count()).toBe(0);
    await page.getByTestId('child-place').getByText('Layer 2 of 4 in the stack body').waitFor();

    expect(await previewPixelsNear(page, RUBY)).toBeLessThan(50);
    await page.getByLabel('Colour hex value').fill(RUBY);
    const size = page.getByLabel('Size', { exact: true });
    await size.fill('40');
    await size.press('Tab');
    await previewCaughtUp(page);
    expect(await previewPixelsNear(page, RUBY)).toBeGreaterThan(2000);
    await screenshot(page, 'editor-stack-child');

    await saveInEditor(page);
    const quote = findIn(await saved(id), 'quote');
    expect(quote?.kind === 'text' && quote.colour).toBe(RUBY);
    expect(quote?.kind === 'text' && quote.size).toBe(40);
    // After a reload the editor opens the saved template with the change.
    await page.reload();
    await page.locator('button[data-layer="quote"]').click();
    await expect.poll(() => page.getByLabel('Colour hex value').inputValue()).toBe(RUBY);
    await expect.poll(() => page.getByLabel('Size', { exact: true }).inputValue()).toBe('40');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('picks a stack’s layer on the canvas by clicking the stack again, and Escape goes back', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await customiseInEditor(page, core, TEMPLATE);
    await previewCaughtUp(page);
    const stack = page.locator('.ed-box[data-layer-id="body"]');
    await stack.click();
    await page.getByRole('heading', { name: 'Stack layer' }).waitFor();
    // Click again where the engine drew the quote.
    const quote = page.locator('.ed-box.ed-child[data-layer-id="quote"]');
    const box = (await quote.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.getByRole('heading', { name: 'Text layer' }).waitFor();
    await expect.poll(() => quote.getAttribute('class')).toContain('selected');
    await expect
      .poll(() => page.locator('button[data-layer="quote"]').getAttribute('aria-pressed'))
      .toBe('true');
    // Dragging the stack moves it with its layers: the outline follows at once, and stays
    // where the preview, laid out again, draws the quote.
    const before = (await quote.boundingBox())!;
    await page.mouse.move(before.x + 20, before.y + 10);
    await page.mouse.down();
    await page.mouse.move(before.x + 50, before.y + 10, { steps: 4 });
    await page.mouse.move(before.x + 80, before.y + 10, { steps: 4 });
    const dragged = (await quote.boundingBox())!;
    expect(Math.abs(dragged.x - before.x - 60)).toBeLessThan(3);
    await page.mouse.up();
    await previewCaughtUp(page);
    await expect
      .poll(async () => Math.abs((await quote.boundingBox())!.x - dragged.x))
      .toBeLessThan(3);
    await expect.poll(() => quote.getAttribute('class')).toContain('selected');
    await page.getByTestId('editor-canvas').focus();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Stack layer' }).waitFor();
    await expect
      .poll(() => page.locator('button[data-layer="body"]').getAttribute('aria-pressed'))
      .toBe('true');
    const mark = (await page.locator('.ed-box.ed-child[data-layer-id="mark"]').boundingBox())!;

    // From nothing selected, a double-click on the mark picks it at once.
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Canvas' }).waitFor();
    await page.mouse.dblclick(mark.x + mark.width / 2, mark.y + mark.height / 2);
    await expect
      .poll(() => page.locator('button[data-layer="mark"]').getAttribute('aria-pressed'))
      .toBe('true');
    await page.locator('.ed-box.ed-child.selected[data-layer-id="mark"]').waitFor();
    await screenshot(page, 'editor-stack-pick');
    // Enter on the canvas goes from a stack to its first layer, for the keyboard.
    await page.getByTestId('editor-canvas').focus();
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Stack layer' }).waitFor();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('button[data-layer="mark"]').getAttribute('aria-pressed'))
      .toBe('true');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('reorders, duplicates and removes a stack’s layers, but keeps a stack’s last one', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, TEMPLATE);
    await previewCaughtUp(page);
    await page.locator('button[data-layer="mark"]').click();
    await page.getByRole('button', { name: 'Move down', exact: true }).click();
    await page.getByTestId('child-place').getByText('Layer 2 of 4').waitFor();
    await expect.poll(() => rowOrder(page, 'body')).toEqual(['quote', 'mark', 'rule', 'credit']);
    // A move is one undo step, as any edit of the draft.
    await page.getByTestId('editor-canvas').focus();
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(() => rowOrder(page, 'body')).toEqual(['mark', 'quote', 'rule', 'credit']);
    await page.keyboard.press('ControlOrMeta+Shift+Z');
    await expect.poll(() => rowOrder(page, 'body')).toEqual(['quote', 'mark', 'rule', 'credit']);

    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await expect
      .poll(() => page.locator('button[data-layer="mark_2"]').getAttribute('aria-pressed'))
      .toBe('true');
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByRole('heading', { name: 'Stack layer' }).waitFor();
    expect(await page.locator('button[data-layer="mark_2"]').count()).toBe(0);

    // A stack's layer is renamed like any layer, and stays selected in its place.
    await page.locator('button[data-layer="rule"]').click();
    const name = page.getByLabel('Layer name');
    await name.fill('divider');
    await name.press('Enter');
    await expect
      .poll(() => page.locator('button[data-layer="divider"]').getAttribute('aria-pressed'))
      .toBe('true');
    await page.getByTestId('child-place').getByText('Layer 3 of 4').waitFor();

    // The byline holds the author and the role: with the role gone, the author is its last.
    await page.locator('button[data-layer="role"]').click();
    await page.keyboard.press('Delete');
    await page.getByRole('heading', { name: 'Stack layer' }).waitFor();
    await page.locator('button[data-layer="author"]').click();
    const remove = page.getByRole('button', { name: 'Remove', exact: true });
    await expect.poll(() => remove.isDisabled()).toBe(true);
    await page.getByText('author is the only layer of byline').waitFor();
    await page.getByTestId('editor-canvas').focus();
    await page.keyboard.press('Delete');
    await page.getByRole('heading', { name: 'Text layer' }).waitFor();
    expect(await page.locator('button[data-layer="author"]').count()).toBe(1);
    await previewCaughtUp(page);
    await screenshot(page, 'editor-stack-last');

    await saveInEditor(page);
    const layers = await saved(id);
    expect(childIds(layers, 'body')).toEqual(['quote', 'mark', 'divider', 'credit']);
    expect(childIds(layers, 'byline')).toEqual(['author']);
    await page.reload();
    await expect.poll(() => rowOrder(page, 'body')).toEqual(['quote', 'mark', 'divider', 'credit']);
    expect(ui.consoleErrors).toEqual([]);
  });
  it('gives every size a copied stack layer inside that size’s stack, not loose on the page', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, TEMPLATE);
    await previewCaughtUp(page);
    await page.locator('button[data-layer="quote"]').click();
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    await expect
      .poll(() => page.locator('button[data-layer="quote_2"]').getAttribute('aria-pressed'))
      .toBe('true');
    await page.getByRole('button', { name: 'Apply to all sizes' }).click();
    await saveInEditor(page);
    const response = await core.api(`/v1/templates/${id}`);
    const { template } = (await response.json()) as WorkspaceTemplateDetail;
    for (const [name, layout] of Object.entries(template.layouts)) {
      expect(childIds(layout!.layers, 'body'), name).toEqual([
        'mark',
        'quote',
        'quote_2',
        'rule',
        'credit',
      ]);
      expect(
        layout!.layers.map((l) => l.id),
        name,
      ).toEqual(['body']);
    }
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('a format 2 stack in the editor, in Vietnamese', () => {
  const session = useCoreAndUi({
    launch: false,
    locale: 'vi-VN',
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('says where a stack’s layers are edited, and why its last layer stays, in Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/${TEMPLATE}`);
    await page.getByRole('button', { name: 'Tùy chỉnh' }).click();
    await page.waitForURL(/\/ui\/editor\/wtpl_/);
    await previewCaughtUp(page);
    await page.locator('button[data-layer="body"]').click();
    await page.getByText('chọn lớp đó dưới nhóm trong danh sách Lớp').waitFor();
    await page.locator('button[data-layer="role"]').click();
    await page.getByRole('heading', { name: 'Trong nhóm' }).waitFor();
    await page.getByRole('button', { name: 'Đưa role lên trước trong nhóm' }).waitFor();
    await page.getByRole('button', { name: 'Xóa', exact: true }).click();
    await page.locator('button[data-layer="author"]').click();
    await page.getByText('author là lớp duy nhất của byline').waitFor();
    await screenshot(page, 'editor-stack-vi');
    expect(ui.consoleErrors).toEqual([]);
  });
});
