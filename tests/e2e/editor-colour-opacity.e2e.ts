import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { WorkspaceTemplateDetail } from '../../shared/workspace-schemas.js';
import { customiseInEditor, saveInEditor, screenshot, useCoreAndUi } from './harness.js';

const REFERENCE = 'tmpl_product_promo';

describe('bound colour opacity in the editor', () => {
  const session = useCoreAndUi({
    launch: false,
    allowConsole: [/v1\/fonts.*404|404.*\(Not Found\)/],
  });

  it('binds a fill to a colour variable at half opacity, saves it and renders the colour see-through', async () => {
    const { core, ui } = session;
    const { page } = ui;
    const id = await customiseInEditor(page, core, REFERENCE);
    await page.getByTestId('editor-preview').waitFor({ timeout: 30_000 });

    // A new shape on top of every other layer, in the middle of the canvas.
    await page.getByLabel('Add layer…').selectOption({ label: 'Shape' });
    await page.getByRole('heading', { name: 'Shape layer' }).waitFor();

    // Fixed → a new colour variable; the opacity field appears only once the colour is bound.
    const opacity = page.getByLabel('Fill opacity');
    expect(await opacity.count()).toBe(0);
    await page.getByLabel('Where Fill comes from').selectOption({ label: 'New variable…' });
    await opacity.waitFor();
    expect(await opacity.inputValue()).toBe('100');
    await opacity.fill('50');
    await expect.poll(() => opacity.inputValue()).toBe('50');
    // The preview has drawn the draft as it is now: the see-through shape is on screen.
    const preview = page.getByTestId('editor-preview');
    const canvas = page.getByTestId('editor-canvas');
    await expect
      .poll(
        async () =>
          Number(await preview.getAttribute('data-preview-rev')) >=
          Number(await canvas.getAttribute('data-draft-rev')),
      )
      .toBe(true);
    await screenshot(page, 'editor-colour-opacity');
    await saveInEditor(page);

    const saved = (await (await core.api(`/v1/templates/${id}`)).json()) as WorkspaceTemplateDetail;
    const added = saved.template.layouts.square!.layers.at(-1)!;
    expect(added.kind).toBe('shape');
    const fill = added.kind === 'shape' ? added.fill : undefined;
    expect(fill).toMatchObject({ alpha: 0.5 });
    const variable = (fill as { var: string }).var;
    expect(saved.template.variables.find((v) => v.name === variable)?.type).toBe('colour');

    // Rendered by a script with pure blue, then pure red, in the variable: at half opacity the
    // shape's centre moves by half the distance between the two, whatever lies beneath it.
    const centre = async (colour: string): Promise<[number, number, number]> => {
      const values = { ...saved.template.sampleValues, [variable]: colour };
      const res = await core.api('/v1/render', {
        method: 'POST',
        json: { templateId: id, values, target: 'square', format: 'png' },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const { data } = await sharp(Buffer.from(await res.arrayBuffer()))
        .extract({
          left: Math.round(added.x + added.width / 2),
          top: Math.round(added.y + added.height / 2),
          width: 1,
          height: 1,
        })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return [...data] as [number, number, number];
    };
    const blue = await centre('#0000FF');
    const red = await centre('#FF0000');
    expect(Math.abs(blue[2] - red[2] - 128)).toBeLessThanOrEqual(3);
    expect(Math.abs(red[0] - blue[0] - 128)).toBeLessThanOrEqual(3);
    expect(blue[1]).toBe(red[1]);
  });
});
