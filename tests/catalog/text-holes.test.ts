import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { FONTS_DIR } from '../../main/engine/render-job.js';
import type { Template } from '../../shared/template-format.js';
import { readCatalogTemplates } from '../../scripts/preview-template.js';
import { jobFor, layoutNamesOf } from '../helpers/catalog-layouts.js';
import { type TextBlock, textBlocks } from '../helpers/text-blocks.js';

/**
 * Where text follows text, a short value leaves no hole: every layout of every built-in template
 * is rendered with its sample values and with one-word values, and for each text block directly
 * below another in the same column (at most two of its lines below it with the sample values), when the text above ends more than half a line higher the gap
 * between them must not grow by as much (a stack moves what follows up; a fixed box leaves the
 * room empty).
 *
 * Known holes are listed in text-holes.json, which may only shrink: the test fails on a hole the
 * list does not name and on a listed one that no longer happens. After moving layers into stacks,
 * rewrite it with `UPDATE_TEXT_HOLES=1 npx vitest run tests/catalog/text-holes.test.ts`.
 */

const HOLES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'text-holes.json');
const UPDATE = process.env.UPDATE_TEXT_HOLES === '1';
const listed: string[] = existsSync(HOLES_FILE)
  ? (JSON.parse(readFileSync(HOLES_FILE, 'utf8')) as { holes: string[] }).holes
  : [];
const found: string[] = [];

registerBundledFonts(FONTS_DIR);

/** Sample values with every text cut to its first word. */
function oneWordValues(template: Template): Record<string, unknown> {
  const values: Record<string, unknown> = { ...template.sampleValues };
  for (const variable of template.variables) {
    const sample = values[variable.name] ?? ('default' in variable ? variable.default : undefined);
    if ((variable.type === 'text' || variable.type === 'longText') && typeof sample === 'string')
      values[variable.name] = sample.trim().split(/\s+/)[0];
  }
  return values;
}

/** Each block with the nearest block below it that shares at least half the narrower column. */
function followers(blocks: TextBlock[]): Array<[TextBlock, TextBlock]> {
  const pairs: Array<[TextBlock, TextBlock]> = [];
  for (const above of blocks) {
    const below = blocks
      .filter((b) => b.page === above.page && b !== above && b.top >= above.bottom - 1)
      .filter((b) => {
        const shared = Math.min(b.right, above.right) - Math.max(b.left, above.left);
        return shared >= 0.5 * Math.min(b.right - b.left, above.right - above.left);
      })
      .sort((a, b) => a.top - b.top)[0];
    if (below) pairs.push([above, below]);
  }
  return pairs;
}

const key = (b: TextBlock) => `${b.page > 1 ? `p${b.page} ` : ''}${b.id}`;

describe('text that follows text in the built-in templates', () => {
  for (const entry of readCatalogTemplates()) {
    it(`${entry.template.id} leaves no hole when a value is one word`, async () => {
      const holes: string[] = [];
      for (const layout of layoutNamesOf(entry.template)) {
        const sample = await textBlocks(jobFor(entry, layout, entry.template.sampleValues));
        const short = await textBlocks(jobFor(entry, layout, oneWordValues(entry.template)));
        const byKey = new Map(short.map((b) => [key(b), b]));
        for (const [above, below] of followers(sample)) {
          // Text set well apart on purpose (a footer, a block past a list) is not "following".
          if (below.top - above.bottom > 2 * above.lineHeight) continue;
          const [a, b] = [byKey.get(key(above)), byKey.get(key(below))];
          if (!a || !b) continue;
          // A hole is room the text above gave up (or left, moving up) that nothing below took.
          const gaveUp = above.bottom - a.bottom;
          const growth = b.top - a.bottom - (below.top - above.bottom);
          const least = Math.max(0.5 * a.lineHeight, 12);
          if (gaveUp > least && growth > least)
            holes.push(`${entry.template.id} ${layout} ${key(above)} → ${key(below)}`);
        }
      }
      found.push(...holes);
      if (UPDATE) return;
      const mine = listed.filter((h) => h.startsWith(`${entry.template.id} `));
      expect(
        holes.filter((h) => !mine.includes(h)),
        'new holes (use a stack)',
      ).toEqual([]);
      expect(
        mine.filter((h) => !holes.includes(h)),
        'listed holes that are gone: remove them from text-holes.json',
      ).toEqual([]);
    }, 120_000);
  }

  afterAll(() => {
    if (!UPDATE) return;
    const holes = [...new Set(found)].sort();
    const text = JSON.stringify(
      {
        $comment:
          'Known holes left by one-word values in built-in templates; this list must only shrink. See tests/catalog/text-holes.test.ts.',
        count: holes.length,
        holes,
      },
      null,
      2,
    );
    writeFileSync(HOLES_FILE, `${text}\n`);
  });
});
