import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { FONTS_DIR } from '../../main/engine/render-job.js';
import { checkRules } from '../../main/engine/rules/check-rules.js';
import { layoutLayers } from '../../shared/layout-pages.js';
import type { Template } from '../../shared/template-format.js';
import { placeholderNames } from '../../main/engine/format-value.js';
import { readCatalogTemplates, stressValues } from '../../scripts/preview-template.js';
import { jobFor, layoutNamesOf } from '../helpers/catalog-layouts.js';

/**
 * Every built-in template × ratio and print layout (badge, ticket, a4), with its sample values
 * and with long (300-character) values, checked against the layout rules (docs/templates.md,
 * "Rules") after fitting. A variable a QR code encodes is a link: its long value is a link as
 * long as the variable's maxLength allows (tracking parameters and all), not 300 characters of
 * prose no one would encode.
 *
 * The catalog passes every rule, so rule-exceptions.json is empty. It stays as the way to record
 * a known violation (template, ratio, rule, layer) should one ever have to be accepted: the test
 * fails on a violation the list does not name, and on a listed one that no longer happens, so the
 * list only shrinks and stays true. After fixing templates, rewrite the list with
 *
 *   UPDATE_RULE_EXCEPTIONS=1 npx vitest run tests/catalog/rule-checks.test.ts
 *
 * and commit it (review the diff: it should only lose entries).
 */

const EXCEPTIONS_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'rule-exceptions.json',
);
const UPDATE = process.env.UPDATE_RULE_EXCEPTIONS === '1';

interface Exception {
  template: string;
  ratio: string;
  rule: string;
  layer: string;
}

const LONG_LINK =
  'https://www.example-shop.vn/khuyen-mai/tet-2027/san-pham/binh-giu-nhiet-inox-cao-cap?utm_source=render-desk&utm_medium=qr';

/** A link as long as the variable allows (LONG_LINK padded or cut), LONG_LINK with no limit. */
function longLink(template: Template, name: string): string {
  const variable = template.variables.find((v) => v.name === name);
  const max = variable && 'maxLength' in variable ? variable.maxLength : undefined;
  return max ? LONG_LINK.padEnd(max, '&ref=print').slice(0, max) : LONG_LINK;
}

/** stressValues' long values, with the variables QR codes encode set to a long link. */
function longValues(template: Template): Record<string, unknown> {
  const values = stressValues(template, 'long');
  for (const layout of Object.values(template.layouts)) {
    for (const layer of layout ? layoutLayers(layout) : []) {
      if (layer.kind !== 'qr' || typeof layer.value !== 'string') continue;
      for (const name of placeholderNames(layer.value)) values[name] = longLink(template, name);
    }
  }
  return values;
}

const keyOf = (e: Exception) => `${e.template} ${e.ratio} ${e.rule} ${e.layer}`;
const sortExceptions = (list: Exception[]) =>
  [...list].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));

const listed: Exception[] = existsSync(EXCEPTIONS_FILE)
  ? (JSON.parse(readFileSync(EXCEPTIONS_FILE, 'utf8')) as { exceptions: Exception[] }).exceptions
  : [];
const found: Exception[] = [];

registerBundledFonts(FONTS_DIR);

describe('the built-in templates keep the layout rules', () => {
  for (const entry of readCatalogTemplates()) {
    it(`${entry.template.id} breaks no rule its exceptions do not list`, async () => {
      const seen = new Map<string, Exception & { message: string }>();
      for (const ratio of layoutNamesOf(entry.template)) {
        for (const values of [entry.template.sampleValues, longValues(entry.template)]) {
          for (const violation of await checkRules(jobFor(entry, ratio, values))) {
            const exception = {
              template: entry.template.id,
              ratio,
              rule: violation.rule,
              layer: violation.layer,
            };
            if (!seen.has(keyOf(exception)))
              seen.set(keyOf(exception), { ...exception, message: violation.message });
          }
        }
      }
      found.push(...[...seen.values()].map(({ message: _m, ...e }) => e));
      if (UPDATE) return;
      const mine = listed.filter((e) => e.template === entry.template.id);
      const unlisted = [...seen.values()]
        .filter((e) => !mine.some((m) => keyOf(m) === keyOf(e)))
        .map((e) => `${keyOf(e)}: ${e.message}`);
      const fixed = mine.filter((m) => !seen.has(keyOf(m))).map(keyOf);
      expect(unlisted, 'new rule violations (fix the template)').toEqual([]);
      expect(
        fixed,
        'listed exceptions that no longer happen: remove them from rule-exceptions.json',
      ).toEqual([]);
    }, 120_000);
  }

  it('lists no exception for a template the catalog does not have', () => {
    const ids = new Set(readCatalogTemplates().map((e) => e.template.id));
    expect(listed.filter((e) => !ids.has(e.template)).map(keyOf)).toEqual([]);
  });

  afterAll(() => {
    if (!UPDATE) return;
    const text = JSON.stringify(
      {
        $comment:
          'Known rule violations of the built-in templates; this list must only shrink. See tests/catalog/rule-checks.test.ts.',
        count: found.length,
        exceptions: sortExceptions(found),
      },
      null,
      2,
    );
    writeFileSync(EXCEPTIONS_FILE, `${text}\n`);
  });
});
