import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { keepWindow } from '../../shared/keep-window.js';
import type { KeepBox, Template } from '../../shared/template-format.js';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import {
  ROOT,
  customiseInEditor,
  openUi,
  screenshot,
  startCore,
  waitForImages,
  type CoreProcess,
  type UiSession,
  saveInEditor,
} from './harness.js';
import { seriousViolations } from './axe.js';

const FONT_404 = /v1\/fonts.*404|404.*\(Not Found\)/;
const TEMPLATE = 'tmpl_mid_autumn_greeting';
const MOON = path.join(ROOT, 'templates', 'catalog', 'mid-autumn-greeting', 'moon.jpg');

type ImageLayer = Extract<Template['layouts'][string]['layers'][number], { kind: 'image' }>;

describe('keep in frame', () => {
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('marks the subject by dragging over the picture, and the size crops around it', async () => {
    core = await startCore();
    ui = await openUi(core, { allowConsole: [FONT_404] });
    const { page } = ui;
    const id = await customiseInEditor(page, core, TEMPLATE);
    const before = await template(core, id);
    expect(photo(before, 'square').keep).toBeUndefined();

    await page.locator('.ed-box[data-layer-id="photo"]').click();
    const section = page.locator('section.ed-section', {
      has: page.getByRole('heading', { name: 'Keep in frame' }),
    });
    // The variable's subject shows until the layer has its own.
    await expect
      .poll(() => section.getByRole('status').innerText())
      .toContain('The subject comes from the variable photo.');
    await waitForImages(page, '[data-testid="keep-picture"] img');

    // Drag a box over the moon picture's top-left part.
    const picture = page.getByTestId('keep-picture');
    await picture.scrollIntoViewIfNeeded();
    const rect = (await picture.boundingBox())!;
    await page.mouse.move(rect.x + rect.width * 0.06, rect.y + rect.height * 0.04);
    await page.mouse.down();
    await page.mouse.move(rect.x + rect.width * 0.2, rect.y + rect.height * 0.12, { steps: 4 });
    await page.mouse.move(rect.x + rect.width * 0.32, rect.y + rect.height * 0.22, { steps: 4 });
    await page.mouse.up();
    // The height is typed, as a keyboard user would set it.
    await page.getByLabel('Subject height').fill('20');
    await page.getByLabel('Subject height').press('Tab');

    // The canvas outlines where the subject lands in the square's crop.
    const outline = page.getByTestId('keep-outline');
    await outline.waitFor();
    const frame = (await page.locator('.ed-box[data-layer-id="photo"]').boundingBox())!;
    const drawn = (await outline.boundingBox())!;
    expect(drawn.y).toBeGreaterThanOrEqual(frame.y - 1);
    expect(drawn.y + drawn.height).toBeLessThanOrEqual(frame.y + frame.height + 1);
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    await screenshot(page, 'editor-keep-in-frame-en');
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page)).toEqual([]);

    // Saved; the subject is the square's own, as any edit of one size is.
    await saveInEditor(page);

    const saved = await template(core, id);
    const keep = photo(saved, 'square').keep!;
    expect(keep.x).toBeCloseTo(0.06, 1);
    expect(keep.y).toBeCloseTo(0.04, 1);
    expect(keep.width).toBeCloseTo(0.26, 1);
    expect(keep.height).toBe(0.2);
    expect(photo(saved, 'portrait').keep).toBeUndefined();

    // The square render shows the crop around the new subject, not around the old one.
    const variableKeep = before.variables.find((v) => v.name === 'photo');
    const oldKeep = variableKeep?.type === 'image' ? variableKeep.keep : undefined;
    expect(oldKeep).toBeDefined();
    const frameBox = photo(saved, 'square');
    const render = await core.api('/v1/render', {
      method: 'POST',
      json: { templateId: id, values: saved.sampleValues, target: 'square', format: 'png' },
    });
    expect(render.status, await render.clone().text()).toBe(200);
    const png = Buffer.from(await render.arrayBuffer());
    // The top of the frame: below it the template fades the photo into the text.
    const strip = { left: 0, top: 20, width: frameBox.width, height: 440 };
    const rendered = await pixels(sharp(png).extract(strip));
    const withNew = await pixels(expectedCrop(frameBox, keep).extract(strip));
    const withOld = await pixels(expectedCrop(frameBox, oldKeep!).extract(strip));
    const newWindow = keepWindow(
      900,
      900,
      frameBox.width,
      frameBox.height,
      frameBox.focalPoint,
      keep,
    );
    expect(newWindow.y).toBeLessThanOrEqual(keep.y * 900);
    expect(meanDifference(rendered, withNew)).toBeLessThan(8);
    expect(meanDifference(rendered, withOld)).toBeGreaterThan(20);

    // Cleared, the layer falls back to the variable's subject.
    await page.locator('.ed-box[data-layer-id="photo"]').click();
    await section.getByRole('button', { name: 'Clear subject' }).click();
    await expect
      .poll(() => section.getByRole('status').innerText())
      .toContain('The subject comes from the variable photo.');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('says in Vietnamese why a format 1 template has no subject to keep', async () => {
    core = await startCore();
    ui = await openUi(core, { launch: false, locale: 'vi-VN', allowConsole: [FONT_404] });
    const { page } = ui;
    await page.goto(`${core.url}/ui/templates/tmpl_product_promo`);
    await page.getByRole('button', { name: 'Tùy chỉnh' }).click();
    await page.waitForURL(/\/ui\/editor\/wtpl_/);
    await page.locator('.ed-box[data-layer-id="photo"]').click();
    const note = page.getByTestId('keep-format1');
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });
    // Scrolled up from the bottom of the inspector, clear of the toast.
    await note.scrollIntoViewIfNeeded();
    await note.hover();
    await page.mouse.wheel(0, 200);
    expect(await note.innerText()).toContain('Giữ trong khung cần mẫu định dạng 2');
    expect(await page.getByLabel('Chủ thể, chiều rộng').count()).toBe(0);
    await screenshot(page, 'editor-keep-in-frame-format1-vi');
    expect(await seriousViolations(page)).toEqual([]);
    expect(ui.consoleErrors).toEqual([]);
  });
});

async function template(core: CoreProcess, id: string): Promise<Template> {
  const res = await core.api(`/v1/templates/${id}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as WorkspaceTemplateDetail).template;
}

function photo(tpl: Template, layout: string): ImageLayer {
  const layer = tpl.layouts[layout]?.layers.find((l) => l.id === 'photo');
  if (layer?.kind !== 'image') throw new Error(`no photo image layer in ${layout}`);
  return layer;
}

/** The moon picture cropped as a frame keeping `keep` shows it (the window lies inside it here). */
function expectedCrop(frame: ImageLayer, keep: KeepBox): Sharp {
  const w = keepWindow(900, 900, frame.width, frame.height, frame.focalPoint, keep);
  return sharp(MOON)
    .extract({
      left: Math.round(w.x),
      top: Math.round(w.y),
      width: Math.round(w.width),
      height: Math.round(w.height),
    })
    .resize(frame.width, frame.height, { fit: 'fill' });
}

async function pixels(image: Sharp): Promise<Buffer> {
  // Through PNG: sharp applies one extract per pipeline.
  const png = await image.png().toBuffer();
  return sharp(png).removeAlpha().resize(108, 44, { fit: 'fill' }).raw().toBuffer();
}

function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}
