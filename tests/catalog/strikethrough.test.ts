import { describe, expect, it } from 'vitest';
import { layoutLayers } from '../../shared/layout-pages.js';
import { readCatalogTemplates } from '../../scripts/preview-template.js';

/**
 * A struck-through old price strikes the amount only: "Giá gốc ~~890.000 ₫~~", never the label
 * beside it, which is what the shopper reads to know the number is the old price.
 */

/** The text a layer strikes through: all of it with `decoration`, else each `~~…~~` span. */
function struck(layer: { text: string; decoration?: string; markup?: boolean }): string[] {
  if (layer.decoration === 'strikethrough') return [layer.text];
  if (!layer.markup) return [];
  return [...layer.text.matchAll(/~~(.+?)~~/g)].map((m) => m[1]!);
}

describe('strikethrough in the built-in templates', () => {
  it('crosses out only a placeholder (the amount), never the words around it', () => {
    const offending: string[] = [];
    let seen = 0;
    for (const { slug, template } of readCatalogTemplates()) {
      for (const [name, layout] of Object.entries(template.layouts)) {
        for (const layer of layout ? layoutLayers(layout) : []) {
          if (layer.kind !== 'text') continue;
          for (const text of struck(layer)) {
            seen += 1;
            if (!/^\{\{\s*\w+\s*\}\}$/.test(text))
              offending.push(`${slug} ${name} ${layer.id}: ${text}`);
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });
});
