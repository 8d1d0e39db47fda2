import fs from 'node:fs';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';
import { wizardWithRows } from './wizard.js';

/** A fresh install has an empty brand kit: the app says so, and renders follow the API's rule. */
describe('first run with an empty brand kit', () => {
  let core: CoreProcess;
  let ui: UiSession;
  beforeEach(async () => {
    core = await startCore();
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('invites the user to fill the brand kit, leads there, and stops once dismissed', async () => {
    ui = await openUi(core);
    const { page } = ui;
    const invite = page.getByRole('region', { name: 'Your brand kit is empty' });
    await invite.waitFor();
    await screenshot(page, 'catalog-brand-invite-en');
    await invite.getByRole('button', { name: 'Fill in the brand kit' }).click();
    await expect.poll(() => page.url()).toContain('/ui/brand');

    await page.goBack();
    await invite.waitFor();
    await invite.getByRole('button', { name: 'Later' }).click();
    await invite.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('.template-card').first().waitFor();
    expect(await invite.count()).toBe(0);
    expect(ui.consoleErrors).toEqual([]);
  });

  it('shows the invitation in Vietnamese and not once the brand has a name', async () => {
    ui = await openUi(core, { locale: 'vi-VN' });
    await ui.page
      .getByRole('region', { name: 'Bộ nhận diện thương hiệu của bạn đang trống' })
      .waitFor();
    await screenshot(ui.page, 'catalog-brand-invite-vi');

    const put = await core.api('/v1/brand-profile', { method: 'PUT', json: { name: 'Hồng Phát' } });
    expect(put.status).toBe(200);
    await ui.page.reload();
    await ui.page.locator('.template-card').first().waitFor();
    expect(await ui.page.locator('.brand-invite').count()).toBe(0);
  });

  it('previews a brand-bound value the brand lacks as the API renders it: left empty, not the sample', async () => {
    ui = await openUi(core);
    const { page } = ui;
    const requests: { values: Record<string, unknown> }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/render/preview') && request.method() === 'POST')
        requests.push(JSON.parse(request.postData() ?? '{}'));
    });
    await page.goto(`${core.url}/ui/templates/tmpl_grand_opening`);
    await page.getByTestId('values-form').waitFor();
    // Any edit sends a preview request (previews may wait for the first edit).
    const headline = page.getByTestId('values-form').getByRole('textbox').first();
    await headline.fill('KHAI TRƯƠNG HỒNG PHÁT');
    await expect.poll(() => requests.length).toBeGreaterThan(0);
    const last = requests.at(-1)!;
    expect(last.values).not.toHaveProperty('storeName');
    expect(last.values).not.toHaveProperty('logo');
    // Each brand field says in a few words that the brand has nothing yet; the why and what
    // to do is the invitation's, said once above, not in full under every field.
    const notes = await page.locator('.brand-bound').allInnerTexts();
    expect(notes.length).toBeGreaterThan(1);
    for (const note of notes) {
      expect(note).toContain('Not in the brand yet: left empty');
      expect(note.length).toBeLessThan(90);
    }
    expect(ui.consoleErrors).toEqual([]);
  });

  it('draws an empty brand field the same in a single image and in a batch row: never the sample', async () => {
    ui = await openUi(core);
    const { page } = ui;
    const title = 'Sắm Tết sớm, nhận quà sớm';

    // Single: the template page, the shop name (brand-bound, sample "Hồng Phát Mart") left empty.
    await page.goto(`${core.url}/ui/templates/tmpl_tet_sale`);
    const form = page.getByTestId('values-form');
    await form.waitFor();
    await form.getByLabel('Tiêu đề', { exact: true }).fill(title);
    await expect
      .poll(() => page.getByTestId('preview-image').getAttribute('data-preview-count'), {
        timeout: 30_000,
      })
      .not.toBe('0');
    await screenshot(page, 'brand-empty-single');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save image…' }).click(),
    ]);
    const single = fs.readFileSync((await download.path())!);

    // Batch: the same values in a spreadsheet row whose shop-name and logo cells are blank.
    await wizardWithRows(page, core, {
      template: 'tmpl_tet_sale',
      rows: [{ title, storeName: '', logo: '' }],
      toReview: true,
    });
    await page.getByTestId('start-batch').click();
    await page.waitForURL(/\/ui\/batches\/bat_/, { timeout: 30_000 });
    const id = /\/ui\/batches\/(bat_[A-Za-z0-9_-]+)/.exec(page.url())![1]!;
    await expect
      .poll(
        async () =>
          ((await (await core.api(`/v1/render-batches/${id}`)).json()) as { status: string })
            .status,
        { timeout: 120_000, interval: 1000 },
      )
      .toBe('succeeded');
    const manifest = (await (await core.api(`/v1/render-batches/${id}/renders`)).json()) as {
      rows: { outputKey: string | null }[];
    };
    const output = await core.api(`/v1/outputs/${manifest.rows[0]!.outputKey!}`);
    expect(output.status).toBe(200);
    const row = Buffer.from(await output.arrayBuffer());

    // The same pixels, decoded...
    expect(differingPixels(await pixels(single), await pixels(row))).toBe(0);
    // ...and not the template's sample shop name, which the API never puts in for an empty brand.
    const fields = (await (
      await core.api('/v1/render-batches/template-fields?templateId=tmpl_tet_sale')
    ).json()) as { sampleRow: Record<string, unknown> };
    const detail = (await (await core.api('/v1/catalog/tmpl_tet_sale')).json()) as {
      sampleValues: Record<string, unknown>;
    };
    expect(detail.sampleValues.storeName).toBe('Hồng Phát Mart');
    const withSample = await core.api('/v1/render', {
      method: 'POST',
      json: {
        templateId: 'tmpl_tet_sale',
        values: { ...fields.sampleRow, title, storeName: detail.sampleValues.storeName },
        format: 'png',
      },
    });
    expect(withSample.status, await withSample.clone().text()).toBe(200);
    const sample = await pixels(Buffer.from(await withSample.arrayBuffer()));
    expect(differingPixels(sample, await pixels(single))).toBeGreaterThan(0);
    expect(ui.consoleErrors).toEqual([]);
  });
});

describe('the brand kit preview of an empty brand', () => {
  let core: CoreProcess;
  let ui: UiSession;
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
  });

  it('sends no sample for a brand-bound value the brand lacks, as renders leave it empty', async () => {
    core = await startCore();
    ui = await openUi(core);
    const { page } = ui;
    const requests: { templateId: string; values: Record<string, unknown> }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/v1/render/preview') && request.method() === 'POST')
        requests.push(JSON.parse(request.postData() ?? '{}'));
    });
    await page.goto(`${core.url}/ui/brand`);
    const preview = page.getByTestId('brand-preview-image');
    await expect
      .poll(async () => Number(await preview.getAttribute('data-preview-count')), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const sent = requests.at(-1)!;
    const detail = (await (await core.api(`/v1/catalog/${sent.templateId}`)).json()) as {
      variables: { name: string; bindsTo?: string | null }[];
    };
    const bound = detail.variables.filter((v) => v.bindsTo).map((v) => v.name);
    expect(bound.length).toBeGreaterThan(0);
    // The empty brand has no name, logo or colours: each is left to the API's rule.
    for (const name of bound) expect(sent.values, name).not.toHaveProperty(name);
    expect(ui.consoleErrors).toEqual([]);
  });
});

interface Pixels {
  width: number;
  height: number;
  data: Buffer;
}

/** An image's decoded RGBA pixels with its size: PNG metadata and compression do not count. */
async function pixels(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** How many pixels two images of one size differ in (every pixel when the sizes differ). */
function differingPixels(a: Pixels, b: Pixels): number {
  if (a.width !== b.width || a.height !== b.height)
    return Math.max(a.data.length, b.data.length) / 4;
  let count = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data.readUInt32BE(i) !== b.data.readUInt32BE(i)) count += 1;
  }
  return count;
}
