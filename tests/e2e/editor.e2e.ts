import fs from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Template } from '../../shared/template-format.js';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import {
  screenshot,
  showScreen,
  useCoreAndUi,
  waitForImages,
  type CoreProcess,
  customiseInEditor,
} from './harness.js';

const REFERENCE = 'tmpl_product_promo';
const NEW_COLOUR = '#1E7B34';

/** The reference template's sample values, as a script would send them. */
async function sampleValues(core: CoreProcess): Promise<Record<string, unknown>> {
  const res = await core.api(`/v1/catalog/${REFERENCE}`);
  return ((await res.json()) as { sampleValues: Record<string, unknown> }).sampleValues;
}

async function renderPng(core: CoreProcess, templateId: string, values: unknown): Promise<Buffer> {
  const res = await core.api('/v1/render', {
    method: 'POST',
    json: { templateId, values, target: 'square', format: 'png' },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Pixels within `box` whose colour is within `tolerance` of `hex`. */
async function pixelsNear(
  png: Buffer,
  box: { x: number; y: number; width: number; height: number },
  hex: string,
  tolerance = 40,
): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [
    number,
    number,
    number,
  ];
  let count = 0;
  const x1 = Math.min(info.width, Math.round(box.x + box.width));
  const y1 = Math.min(info.height, Math.round(box.y + box.height));
  for (let y = Math.max(0, Math.round(box.y)); y < y1; y++) {
    for (let x = Math.max(0, Math.round(box.x)); x < x1; x++) {
      const i = (y * info.width + x) * 3;
      const d = Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b);
      if (d <= tolerance) count++;
    }
  }
  return count;
}

describe('template editor', () => {
  // A core without the font list answers 404 there; the editor falls back to bundled fonts.
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('customises the reference template, moves and recolours its headline, saves, renders it by API, batches it and round-trips it as a pack', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, REFERENCE);

    const preview = page.getByTestId('editor-preview');
    const canvas = page.getByTestId('editor-canvas');
    /** Waits until the preview shows the draft as it is now. */
    const previewCaughtUp = async () => {
      await expect
        .poll(
          async () =>
            Number(await preview.getAttribute('data-preview-rev')) >=
            Number(await canvas.getAttribute('data-draft-rev')),
          { timeout: 20_000 },
        )
        .toBe(true);
    };
    await preview.waitFor({ timeout: 30_000 });
    // The editor has a page heading (headings navigation used to find none).
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(
      /^Editing .+\(copy\)$/,
    );
    await previewCaughtUp();
    await screenshot(page, 'editor-opened');

    // Select the headline by clicking it on the canvas.
    const headline = page.locator('.ed-box[data-layer-id="headline"]');
    await headline.click();
    await page.getByRole('heading', { name: 'Text layer' }).waitFor();
    await expect.poll(() => headline.getAttribute('class')).toContain('selected');

    // Recolour it in the inspector.
    const countBefore = Number(await preview.getAttribute('data-preview-count'));
    await page.getByLabel('Colour hex value').fill(NEW_COLOUR);
    await previewCaughtUp();
    expect(Number(await preview.getAttribute('data-preview-count'))).toBeGreaterThan(countBefore);

    // Move it by dragging...
    const xField = page.getByLabel('X', { exact: true });
    const yField = page.getByLabel('Y', { exact: true });
    const x0 = Number(await xField.inputValue());
    const y0 = Number(await yField.inputValue());
    const box = (await headline.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++)
      await page.mouse.move(box.x + box.width / 2 + i * 7, box.y + box.height / 2 + i * 9);
    await page.mouse.up();
    // The fields follow the drag through state updates: read them once they have settled.
    const position = async () => `${await xField.inputValue()},${await yField.inputValue()}`;
    let settled = '';
    await expect
      .poll(async () => {
        const [before] = [await position(), await page.waitForTimeout(100)];
        settled = await position();
        return before === settled;
      })
      .toBe(true);
    const [x1, y1] = settled.split(',').map(Number) as [number, number];
    expect(x1).toBeGreaterThan(x0 + 40);
    expect(y1).toBeGreaterThan(y0 + 60);

    // ...and by arrow keys: 1 px, and 10 px with Shift.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    // Each key press is its own state update: wait for both fields, not just the first.
    await expect.poll(async () => Number(await xField.inputValue())).toBe(x1 + 2);
    await expect.poll(async () => Number(await yField.inputValue())).toBe(y1 + 10);
    await previewCaughtUp();
    expect(await page.getByTestId('save-state').getAttribute('data-dirty')).toBe('true');
    await screenshot(page, 'editor-moved');

    // Undo takes back the nudges, redo brings them back.
    await page.keyboard.press('Control+z');
    await expect.poll(async () => Number(await xField.inputValue())).toBe(x1);
    expect(Number(await yField.inputValue())).toBe(y1);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => Number(await xField.inputValue())).toBe(x1 + 2);
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+y');
    await expect.poll(async () => Number(await yField.inputValue())).toBe(y1 + 10);

    // Save with Ctrl+S.
    await page.keyboard.press('Control+s');
    await expect
      .poll(() => page.getByTestId('save-state').getAttribute('data-dirty'))
      .toBe('false');
    await previewCaughtUp();

    // The saved version, rendered by a script with the wtpl id and an API key.
    const saved = (await (await core.api(`/v1/templates/${id}`)).json()) as WorkspaceTemplateDetail;
    expect(saved.version).toBeGreaterThan(1);
    const layer = saved.template.layouts.square!.layers.find((l) => l.id === 'headline')!;
    expect(layer.kind === 'text' && layer.colour).toBe(NEW_COLOUR);
    expect(layer.x).toBe(x1 + 2);
    expect(layer.y).toBe(y1 + 10);
    const values = await sampleValues(core);
    const mine = await renderPng(core, id, values);
    const builtIn = await renderPng(core, REFERENCE, values);
    expect(mine.equals(builtIn)).toBe(false);
    // The new colour is drawn where the headline now is, and nowhere in the built-in render.
    const moved = { x: layer.x, y: layer.y, width: layer.width, height: layer.height };
    expect(await pixelsNear(mine, moved, NEW_COLOUR)).toBeGreaterThan(500);
    expect(await pixelsNear(builtIn, { x: 0, y: 0, width: 1080, height: 1080 }, NEW_COLOUR)).toBe(
      0,
    );

    // A batch with the workspace template runs to the end.
    const created = (await (
      await core.api('/v1/render-batches', {
        method: 'POST',
        json: {
          templateId: id,
          sourceType: 'json-array',
          source: {
            records: ['Serum A', 'Serum B', 'Serum C'].map((headline) => ({ ...values, headline })),
          },
          format: 'jpeg',
        },
      })
    ).json()) as { id: string };
    await expect
      .poll(
        async () =>
          (
            (await (await core.api(`/v1/render-batches/${created.id}`)).json()) as {
              status: string;
            }
          ).status,
        { timeout: 120_000, interval: 500 },
      )
      .toBe('succeeded');
    await page.goto(`${core.url}/ui/batches/${created.id}`);
    await page.locator('[data-status="succeeded"]').first().waitFor({ timeout: 30_000 });

    // My templates: export the pack, import it again under a new id.
    await page.getByRole('link', { name: 'My templates' }).click();
    await page.getByRole('heading', { level: 1, name: 'My templates' }).waitFor();
    const card = page.locator(`.ws-card[data-template-id="${id}"]`);
    await card.waitFor();
    await waitForImages(page, '.ws-card img');

    // "Batch" on the card opens the wizard with this template chosen and listed.
    await card.getByRole('button', { name: /batch/i }).click();
    await page.waitForURL(new RegExp(`template=${id}`));
    await page.getByTestId('template-chosen').waitFor();
    await page.getByRole('button', { name: 'Change template' }).click();
    const listed = page.getByRole('listbox').locator(`[data-template-id="${id}"]`);
    await expect.poll(() => listed.getAttribute('aria-selected')).toBe('true');
    await page.goBack();
    await card.waitFor();
    await screenshot(page, 'my-templates');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: /Export .* as a pack/ }).click(),
    ]);
    const packFile = await download.path();
    expect(fs.readFileSync(packFile).subarray(0, 2).toString()).toBe('PK');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Import pack…' }).click(),
    ]);
    await chooser.setFiles({
      name: 'pack.zip',
      mimeType: 'application/zip',
      buffer: fs.readFileSync(packFile),
    });
    await page.waitForURL(
      (url) => /\/ui\/editor\/wtpl_/.test(url.pathname) && !url.pathname.endsWith(id),
    );
    const importedId = /\/ui\/editor\/(wtpl_[a-z0-9_]+)/.exec(page.url())![1]!;
    expect(importedId).not.toBe(id);
    const imported = (await (
      await core.api(`/v1/templates/${importedId}`)
    ).json()) as WorkspaceTemplateDetail;
    const importedHeadline = (imported.template as Template).layouts.square!.layers.find(
      (l) => l.id === 'headline',
    )!;
    expect(importedHeadline.kind === 'text' && importedHeadline.colour).toBe(NEW_COLOUR);
    expect(importedHeadline.x).toBe(layer.x);
    await preview.waitFor({ timeout: 30_000 });

    // A draft the engine refuses is shown next to the field, and the preview keeps going after.
    await page.locator('.ed-box[data-layer-id="headline"]').click();
    await page.getByLabel('Width', { exact: true }).fill('-5');
    await page.getByTestId('draft-problems').waitFor({ timeout: 20_000 });
    await page.locator('.ed-inspector .field-error').first().waitFor();
    await screenshot(page, 'editor-problem');
    await page.keyboard.press('Escape');
    await page.locator('.ed-overlay').focus();
    await page.keyboard.press('Control+z');
    await expect
      .poll(() => page.getByTestId('draft-problems').count(), { timeout: 20_000 })
      .toBe(0);

    // Variables: open one to edit it, then add one; each opens its form and the editor stays.
    await page.locator('.ed-var-head', { hasText: 'headline' }).click();
    const variableName = page.locator('.ed-var').getByLabel('Name', { exact: true });
    await expect.poll(() => variableName.inputValue()).toBe('headline');
    await page.locator('.ed-variables').getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => variableName.inputValue()).toBe('field');
    await page.locator('.ed-box[data-layer-id="headline"]').waitFor();
    await screenshot(page, 'editor-variable-added');

    const unexpected = ui.consoleErrors.filter((e) => !/status of 422/.test(e));
    expect(unexpected).toEqual([]);
  });

  it('looks finished in light and dark, English and Vietnamese', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const fork = (await (
      await core.api(`/v1/catalog/${REFERENCE}/fork`, { method: 'POST', json: {} })
    ).json()) as WorkspaceTemplateDetail;
    for (const language of ['en', 'vi'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const res = await core.api('/v1/system/preferences', {
          method: 'PUT',
          json: { workers: null, port: null, theme, language },
        });
        expect(res.status).toBe(200);
        await page.goto(`${core.url}/ui/my-templates`);
        // Thumbnails are rendered on first request: wait for the pixels, not just the element.
        await waitForImages(page, '.ws-card img');
        await expect.poll(() => page.getAttribute('html', 'data-theme')).toBe(theme);
        await screenshot(page, `my-templates-${theme}-${language}`);
        await showScreen(page, `/ui/editor/${fork.id}`);
        await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
        await page.locator('.ed-box[data-layer-id="headline"]').click();
        await screenshot(page, `editor-${theme}-${language}`);
      }
    }
    expect(ui.consoleErrors).toEqual([]);
  });
});
