import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { drawContext, prepareLayout } from '../../main/engine/render-template.js';
import { FONTS_DIR } from '../../main/engine/render-job.js';
import type { RulePage } from '../../main/engine/rules/rule-types.js';
import { subjectInCrop } from '../../main/engine/rules/subject-in-crop.js';
import { layoutLayers, layoutPages } from '../../shared/layout-pages.js';
import type { ImageLayer, Template } from '../../shared/template-format.js';
import { readCatalogTemplates } from '../../scripts/preview-template.js';
import { jobFor, layoutNamesOf } from '../helpers/catalog-layouts.js';

/**
 * The picture's subject (the product, the face, the house) stays whole in every crop: every image
 * a built-in template crops to fill its frame marks its subject with a keep-box, and in every
 * layout the frame shows all of it (rule.subject-cropped) with the box really applied.
 */

const catalog = readCatalogTemplates();
registerBundledFonts(FONTS_DIR);

/** A cover-fit picture the template ships a sample of (brand logos are the user's). */
function croppedPicture(template: Template, layer: ImageLayer): boolean {
  if (layer.fit !== 'cover') return false;
  if ('asset' in layer.source) return true;
  const name = layer.source.var;
  return !template.variables.find((v) => v.name === name)?.bindsTo;
}

function keepOf(template: Template, layer: ImageLayer) {
  if (layer.keep || 'asset' in layer.source) return layer.keep;
  const name = layer.source.var;
  const variable = template.variables.find((v) => v.name === name);
  return variable?.type === 'image' ? variable.keep : undefined;
}

describe('image subjects in the built-in templates', () => {
  it('are marked with a keep-box on every picture a layout crops', () => {
    // Format 1 has no keep-box (a workspace copy of such a template would be refused with one).
    const unmarked = catalog
      .filter(({ template }) => template.schemaVersion >= 2)
      .flatMap(({ slug, template }) =>
        Object.entries(template.layouts).flatMap(([name, layout]) =>
          layoutLayers(layout)
            .filter((l): l is ImageLayer => l.kind === 'image')
            .filter((l) => croppedPicture(template, l) && !keepOf(template, l))
            .map((l) => `${slug} ${name} ${l.id}`),
        ),
      );
    expect(unmarked).toEqual([]);
  });

  // Format 1 draws no keep-box (it crops on the focal point only).
  const withPictures = catalog.filter(
    ({ template }) =>
      template.schemaVersion >= 2 &&
      Object.values(template.layouts).some((layout) =>
        layoutLayers(layout).some((l) => l.kind === 'image' && croppedPicture(template, l)),
      ),
  );
  for (const entry of withPictures) {
    it(`${entry.template.id} keeps every subject whole in every layout`, async () => {
      const problems: string[] = [];
      let kept = 0;
      for (const name of layoutNamesOf(entry.template)) {
        const job = jobFor(entry, name, entry.template.sampleValues);
        const layout = entry.template.layouts[name]!;
        for (let index = 0; index < layoutPages(layout).length; index += 1) {
          const dc = drawContext(job, createCanvas(8, 8).getContext('2d'), false);
          const prepared = await prepareLayout(dc, layout, index);
          for (const layer of prepared.visible) {
            if (layer.kind !== 'image' || !croppedPicture(entry.template, layer)) continue;
            if (prepared.images.get(layer.id)?.crop?.keep) kept += 1;
            else problems.push(`${name} ${layer.id}: its keep-box was not applied`);
          }
          const page = { page: index + 1, layers: prepared.visible, images: prepared.images };
          for (const v of subjectInCrop(page as RulePage)) problems.push(`${name} ${v.message}`);
        }
      }
      expect(problems).toEqual([]);
      expect(kept).toBeGreaterThan(0);
    }, 60_000);
  }
});
