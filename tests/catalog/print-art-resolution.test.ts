import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PRINT_DPI } from '../../main/batch/print-resolution.js';
import { layoutPages, withChildren } from '../../shared/layout-pages.js';
import { readCatalogTemplates } from '../../scripts/preview-template.js';

/**
 * The art the catalog prints (logos, seals, photos in its sample values) has at least 300
 * pixels an inch where a print layout shows it, as pre-flight measures users' images: source
 * pixels over the inches of the box (`cover` crops, so the tighter axis counts; `contain` shows
 * it all, so the looser one). Vector art has no resolution and always passes.
 */
const catalog = readCatalogTemplates();

const printed = catalog.flatMap((entry) =>
  Object.entries(entry.template.layouts).flatMap(([name, layout]) =>
    layout?.page
      ? layoutPages(layout).flatMap((page, index) =>
          // Stack children too: an image in a stack keeps its own box.
          withChildren(page.layers).flatMap((layer) => {
            if (layer.kind !== 'image') return [];
            const value =
              'asset' in layer.source
                ? `asset:${layer.source.asset}`
                : entry.template.sampleValues[layer.source.var];
            if (typeof value !== 'string' || !value.startsWith('asset:')) return [];
            return [
              {
                label: `${entry.slug}/${name}#${index + 1}/${layer.id}`,
                file: path.join(entry.dir, value.slice('asset:'.length)),
                layer,
                dpi: layout.page!.dpi,
              },
            ];
          }),
        )
      : [],
  ),
);

describe('print art of the catalog', () => {
  it('covers the logos, the certificate seal and the badge photo', () => {
    const labels = printed.map((p) => p.label);
    for (const expected of [
      'certificate-award/a4#1/seal',
      'name-badge/badge#1/photo',
      'name-badge/badge#1/logo',
      'payment-qr/card#1/logo',
    ])
      expect(labels).toContain(expected);
  });

  it.each(printed)('$label prints at 300 dpi or more', async ({ file, layer, dpi }) => {
    const meta = await sharp(file).metadata();
    if (meta.format === 'svg') return;
    const inches = { width: layer.width / dpi, height: layer.height / dpi };
    const across = meta.width! / inches.width;
    const down = meta.height! / inches.height;
    const effective = layer.fit === 'contain' ? Math.max(across, down) : Math.min(across, down);
    expect(Math.round(effective)).toBeGreaterThanOrEqual(PRINT_DPI);
  });
});
