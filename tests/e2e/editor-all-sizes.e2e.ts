import { afterEach, describe, expect, it } from 'vitest';
import type { Template } from '../../shared/template-format.js';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import {
  openUi,
  screenshot,
  startCore,
  type CoreProcess,
  type UiSession,
  customiseInEditor,
  saveInEditor,
} from './harness.js';

const FONT_404 = /v1\/fonts.*404|404.*\(Not Found\)/;

describe('editing one size or all of them', () => {
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('says which size an edit changes, and Apply to all sizes shares the content while each size keeps its place', async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [FONT_404] });
    const { page } = ui;
    const id = await customiseInEditor(page, core, 'tmpl_product_promo');
    const before = await template(core, id);

    await page.locator('.ed-box[data-layer-id="headline"]').click();
    await page.getByRole('heading', { name: 'Text layer' }).waitFor();
    const scope = page.getByTestId('size-scope');
    expect(await scope.innerText()).toContain(
      'Edits apply to Square 1:1 (1080 × 1080 px) only. Other sizes keep theirs.',
    );

    // An edit of the square's headline changes the square only...
    await page.getByLabel('Text', { exact: true }).fill('Sale {{headline}}');
    await page.getByLabel('Colour hex value').fill('#1E7B34');
    const afterEdit = await draftLayouts(page);
    expect(afterEdit.square).toEqual({ text: 'Sale {{headline}}', colour: '#1E7B34' });
    expect(afterEdit.story?.text).toBe(headline(before, 'story').text);

    // ...until it is applied to every size.
    await page.getByRole('button', { name: 'Apply to all sizes' }).click();
    expect(await scope.getByRole('status').innerText()).toContain(
      'Applied to Portrait 4:5, Story 9:16, Landscape 16:9, and Link preview 1.91:1.',
    );
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    await screenshot(page, 'editor-all-sizes-en');
    await saveInEditor(page);

    const saved = await template(core, id);
    for (const name of Object.keys(before.layouts)) {
      const was = headline(before, name);
      const now = headline(saved, name);
      expect(now.text, name).toBe('Sale {{headline}}');
      expect(now.colour, name).toBe('#1E7B34');
      // Position, box and text size stay each size's own.
      expect([now.x, now.y, now.width, now.height, now.size], name).toEqual([
        was.x,
        was.y,
        was.width,
        was.height,
        was.size,
      ]);
    }

    // The other sizes show it, and say that their edits are theirs.
    await page.getByRole('radio', { name: 'Story 9:16' }).click();
    expect(await scope.innerText()).toContain('Edits apply to Story 9:16 (1080 × 1920 px) only.');
    expect(await page.getByLabel('Text', { exact: true }).inputValue()).toBe('Sale {{headline}}');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'editor-all-sizes-en-1024');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('Apply to all sizes leaves each size its own crop: focal point and subject stay per size', async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [FONT_404] });
    const { page } = ui;
    // A format 2 template: its image layers can keep a subject in frame.
    const id = await customiseInEditor(page, core, 'tmpl_mid_autumn_greeting');
    const before = await template(core, id);
    const photoBox = page.locator('.ed-box[data-layer-id="photo"]');

    // The portrait gets a subject of its own: the left half of the picture.
    await page.getByRole('radio', { name: 'Portrait 4:5' }).click();
    await photoBox.click();
    await setSubject(page, { left: 0, top: 0, width: 50, height: 100 });
    // The square keeps the top fifth, its focal point lower, and a rounder corner.
    await page.getByRole('radio', { name: 'Square 1:1' }).click();
    await photoBox.click();
    await setSubject(page, { left: 0, top: 0, width: 100, height: 20 });
    const focalDown = page.getByLabel('Focal point, down');
    await focalDown.focus();
    for (let i = 0; i < 20; i += 1) await focalDown.press('ArrowRight');
    await page.getByRole('checkbox', { name: 'Crop to a circle' }).check();

    // The scope says what stays each size's own.
    expect(await page.getByTestId('size-scope').innerText()).toContain(
      'Each size keeps its own position, box, text size and image crop.',
    );
    await page.getByRole('button', { name: 'Apply to all sizes' }).click();
    await page.getByTestId('size-scope').getByRole('status').waitFor();
    await saveInEditor(page);

    const saved = await template(core, id);
    expect(photo(saved, 'square').keep).toEqual({ x: 0, y: 0, width: 1, height: 0.2 });
    expect(photo(saved, 'square').focalPoint.y).toBeCloseTo(
      photo(before, 'square').focalPoint.y + 0.2,
      5,
    );
    for (const name of Object.keys(before.layouts)) {
      if (name === 'square') continue;
      const now = photo(saved, name);
      // The shared part arrives...
      expect(now.circle, name).toBe(true);
      // ...while the crop stays the size's own.
      expect(now.focalPoint, name).toEqual(photo(before, name).focalPoint);
      expect(now.keep, name).toEqual(
        name === 'portrait' ? { x: 0, y: 0, width: 0.5, height: 1 } : photo(before, name).keep,
      );
    }
    expect(ui.consoleErrors).toEqual([]);
  });

  it('Apply to all sizes updates a layer nested in a group where a size keeps it there, never adding a second one', async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [FONT_404] });
    const { page } = ui;
    // Khuyến mãi Tết: the square's title sits in its copy stack, chosen in the layers panel; the
    // story's sits in content › headline.
    const id = await customiseInEditor(page, core, 'tmpl_tet_sale');
    const before = await template(core, id);
    await page.locator('button[data-layer="title"]').click();
    await page.getByLabel('Colour hex value').fill('#0B6E4F');
    await page.getByRole('button', { name: 'Apply to all sizes' }).click();
    const scope = page.getByTestId('size-scope');
    expect(await scope.getByRole('status').innerText()).toContain('Applied to');
    await saveInEditor(page);
    const saved = await template(core, id);
    for (const name of Object.keys(before.layouts)) {
      const titles = layersCalled(saved, name, 'title');
      if (name === 'og' && layersCalled(before, name, 'title').length === 0) continue;
      expect(titles, name).toHaveLength(1);
      expect((titles[0] as TextLayer).colour, name).toBe('#0B6E4F');
    }
    // The story's title stayed inside its group, where its stack places it.
    const story = saved.layouts.story!.layers.find((l) => l.id === 'content');
    expect(JSON.stringify(story)).toContain('"id":"title"');
    expect(saved.layouts.story!.layers.some((l) => l.id === 'title')).toBe(false);
    await page.getByRole('radio', { name: 'Story 9:16' }).click();
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(ui.consoleErrors).toEqual([]);
  });

  it('says which size cannot take a layer, and why, before changing anything', async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [FONT_404] });
    const { page } = ui;
    const id = await customiseInEditor(page, core, 'tmpl_tet_sale');
    // The link preview's "title" becomes a shape.
    const before = await template(core, id);
    const og = before.layouts.og!;
    const frame = og.layers.find((l) => l.id === 'frame')!;
    const version = ((await (await core.api(`/v1/templates/${id}`)).json()) as { version: number })
      .version;
    const patched = await core.api(`/v1/templates/${id}`, {
      method: 'PATCH',
      json: {
        baseVersion: version,
        layouts: {
          ...before.layouts,
          og: {
            ...og,
            // Wherever the title sits (at the top, or in the copy's stack).
            layers: replaceLayer(og.layers, 'title', {
              ...frame,
              id: 'title',
              width: 10,
              height: 10,
            }),
          },
        },
      },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    await page.reload();
    await page.locator('button[data-layer="title"]').click();
    await page.getByLabel('Colour hex value').fill('#0B6E4F');
    await page.getByRole('button', { name: 'Apply to all sizes' }).click();
    const status = page.getByTestId('size-scope').getByRole('status');
    await expect
      .poll(() => status.innerText())
      .toContain(
        'Nothing was changed. Link preview 1.91:1 has a shape layer called “title”, so it cannot take this one.',
      );
    await screenshot(page, 'editor-all-sizes-refused');
    // Nothing changed but the square's own edit: saved now, the story's title keeps its colour.
    await saveInEditor(page);
    const refused = await template(core, id);
    expect((layersCalled(refused, 'square', 'title')[0] as TextLayer).colour).toBe('#0B6E4F');
    expect(layersCalled(refused, 'story', 'title')).toEqual(layersCalled(before, 'story', 'title'));
    // The others can take it.
    await page.getByRole('button', { name: 'Apply to the other sizes' }).click();
    await expect.poll(() => status.innerText()).toContain('Applied to Portrait 4:5, Story 9:16');
    await saveInEditor(page);
    const saved = await template(core, id);
    expect(layersCalled(saved, 'og', 'title')[0]!.kind).toBe('shape');
    expect((layersCalled(saved, 'story', 'title')[0] as TextLayer).colour).toBe('#0B6E4F');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('says it in Vietnamese', async () => {
    core = await startCore();
    ui = await openUi(core, { launch: false, locale: 'vi-VN', allowConsole: [FONT_404] });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    await page.getByRole('button', { name: 'Tùy chỉnh' }).click();
    await page.waitForURL(/\/ui\/editor\/wtpl_/);
    await page.locator('.ed-box[data-layer-id="headline"]').click();
    const scope = page.getByTestId('size-scope');
    await scope.waitFor();
    expect(await scope.innerText()).toContain('Thay đổi chỉ áp dụng cho Vuông 1:1');
    await page.getByRole('button', { name: 'Áp dụng cho mọi kích thước' }).click();
    expect(await scope.getByRole('status').innerText()).toContain('Đã áp dụng cho');
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    await screenshot(page, 'editor-all-sizes-vi');
    await page.setViewportSize({ width: 1024, height: 700 });
    await screenshot(page, 'editor-all-sizes-vi-1024');
    expect(ui.consoleErrors).toEqual([]);
  });
});

type Layer = Template['layouts'][string]['layers'][number];
type TextLayer = Extract<Template['layouts'][string]['layers'][number], { kind: 'text' }>;
type ImageLayer = Extract<Template['layouts'][string]['layers'][number], { kind: 'image' }>;

async function template(core: CoreProcess, id: string): Promise<Template> {
  const res = await core.api(`/v1/templates/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as WorkspaceTemplateDetail).template;
}

/** Every layer of a layout called `id`, at the top or inside its groups. */
function layersCalled(tpl: Template, layout: string, id: string): Layer[] {
  const walk = (layers: Layer[]): Layer[] =>
    layers.flatMap((l) => [
      ...(l.id === id ? [l] : []),
      ...(l.kind === 'stack' ? walk(l.layers) : []),
    ]);
  return walk(tpl.layouts[layout]?.layers ?? []);
}

function headline(tpl: Template, layout: string): TextLayer {
  const layer = tpl.layouts[layout]?.layers.find((l) => l.id === 'headline');
  if (layer?.kind !== 'text') throw new Error(`no headline text layer in ${layout}`);
  return layer;
}

/** Types the image layer's kept subject, in percent of its picture, side by side. */
async function setSubject(
  page: UiSession['page'],
  box: { left: number; top: number; width: number; height: number },
): Promise<void> {
  for (const [side, value] of Object.entries(box)) {
    const field = page.getByLabel(`Subject ${side}`);
    await field.fill(String(value));
    await field.press('Tab');
  }
}

function photo(tpl: Template, layout: string): ImageLayer {
  const layer = tpl.layouts[layout]?.layers.find((l) => l.id === 'photo');
  if (layer?.kind !== 'image') throw new Error(`no photo image layer in ${layout}`);
  return layer;
}

/** The headline's text and colour in each layout of the editor's draft, read from its inspector per size. */
async function draftLayouts(
  page: UiSession['page'],
): Promise<Record<string, { text: string; colour: string }>> {
  const text = await page.getByLabel('Text', { exact: true }).inputValue();
  const colour = await page.getByLabel('Colour hex value').inputValue();
  const square = { text, colour: colour.toUpperCase() };
  await page.getByRole('radio', { name: 'Story 9:16' }).click();
  await page.locator('.ed-box[data-layer-id="headline"]').click();
  const story = { text: await page.getByLabel('Text', { exact: true }).inputValue(), colour: '' };
  await page.getByRole('radio', { name: 'Square 1:1' }).click();
  await page.locator('.ed-box[data-layer-id="headline"]').click();
  return { square, story };
}

/** The layers with the one called `id` replaced, at the top or inside a stack or group. */
function replaceLayer<L extends { id: string }>(layers: L[], id: string, by: unknown): L[] {
  return layers.map((layer) => {
    if (layer.id === id) return by as L;
    const inner = (layer as { layers?: L[] }).layers;
    return inner ? ({ ...layer, layers: replaceLayer(inner, id, by) } as L) : layer;
  });
}
