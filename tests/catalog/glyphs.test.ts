import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../main/app.js';
import { DEFAULT_FAMILY } from '../../main/engine/font-families.js';
import { missingGlyphs, registerBundledFonts } from '../../main/engine/fonts.js';
import type { Template } from '../../shared/template-format.js';
import { readCatalogTemplates } from '../../scripts/preview-template.js';

/**
 * Every character a built-in template may be asked to draw in Vietnamese is in its fonts: the
 * characters of its sample values and literal texts, and the upper-case letters with stacked marks
 * that fonts most often lack. Characters a family lacks may come from its fallbacks (Be Vietnam
 * Pro, then Noto Color Emoji), exactly as the engine draws them.
 */
const STACKED_CAPITALS = 'ẮẰẲẴẶẤẦẨẪẬĐÊẾỀỂỄỆÔỐỒỔỖỘƠỚỜỞỠỢƯỨỪỬỮỰ';
const probe = STACKED_CAPITALS + STACKED_CAPITALS.toLocaleLowerCase('vi-VN');

registerBundledFonts(path.join(REPO_ROOT, 'templates', 'fonts'));
const catalog = readCatalogTemplates();

/** The families a template's text and list layers use (a bound family: the variable's default). */
function familiesOf(template: Template): string[] {
  const families = new Set<string>();
  for (const layout of Object.values(template.layouts)) {
    for (const layer of layout?.layers ?? []) {
      if (layer.kind !== 'text' && layer.kind !== 'list') continue;
      const family = layer.font.family;
      if (typeof family === 'string') families.add(family);
      else {
        const variable = template.variables.find((v) => v.name === family.var);
        families.add(
          variable?.type === 'text' && variable.default ? variable.default : DEFAULT_FAMILY,
        );
      }
    }
  }
  return [...families];
}

/** Sample and default texts plus the literal words of every text layer (placeholders removed). */
function textsOf(template: Template): string {
  const parts: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string' && !value.startsWith('asset:')) parts.push(value);
    if (Array.isArray(value)) value.forEach(add);
  };
  for (const variable of template.variables) {
    if (variable.type === 'image' || variable.type === 'colour') continue;
    add(template.sampleValues[variable.name]);
    add(variable.default);
    if (variable.type === 'enum') variable.options.forEach((o) => add(o.label));
    if (variable.type === 'number') add([variable.format?.prefix, variable.format?.suffix]);
  }
  for (const layout of Object.values(template.layouts)) {
    for (const layer of layout?.layers ?? []) {
      if (layer.kind === 'text') parts.push(layer.text.replace(/\{\{[^}]*\}\}/g, ''));
    }
  }
  return parts.join(' ').normalize('NFC');
}

describe('glyph coverage of the built-in catalog', () => {
  it.each(catalog.map((e) => [e.slug, e.template] as const))(
    '%s: its fonts draw every sample character and every Vietnamese stacked capital',
    (_slug, template) => {
      const text = textsOf(template) + probe;
      for (const family of familiesOf(template)) {
        expect(missingGlyphs(text, family), family).toEqual([]);
      }
    },
  );
});
