import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../main/engine/fonts.js';
import { FONTS_DIR } from '../../main/engine/render-job.js';
import { checkRules } from '../../main/engine/rules/check-rules.js';
import { readCatalogTemplates } from '../../scripts/preview-template.js';
import { realisticLongValues } from '../../scripts/realistic-values.js';
import { jobFor, layoutNamesOf } from '../helpers/catalog-layouts.js';

/**
 * A name, phone number, code, price or figure is never cut: every layout of every built-in
 * template, rendered with the longest realistic values its fields allow (a full Vietnamese name,
 * "+84 28 3822 9999", a 16-character voucher, a price at the field's max), ends no critical
 * value in "…" (the `critical-cut` rule). Critical fields are marked in the template format.
 */

const catalog = readCatalogTemplates();
registerBundledFonts(FONTS_DIR);

/** Variable names that say they hold a critical value; such a variable must be marked. */
const CRITICAL_NAME =
  /phone|hotline|voucher|^code$|sku|ticketId|attendeeId|price|^fee$|^amount$|statValue|recipient|customer$|customerName|agentName|speakerName|hostName|guestName|firstName|lastName|^author$|^coach$|^couple$|signerName|accountName|accountNumber/i;

describe('critical values in the built-in templates', () => {
  it('are marked wherever a variable carries a name, phone, code, price or figure', () => {
    const unmarked = catalog.flatMap(({ slug, template }) =>
      template.variables
        .filter((v) => CRITICAL_NAME.test(v.name) && !('critical' in v && v.critical))
        .map((v) => `${slug} ${v.name}`),
    );
    expect(unmarked).toEqual([]);
  });

  it('each declare the limit they are guaranteed within: a maxLength, or a max for numbers', () => {
    const unbounded = catalog.flatMap(({ slug, template }) =>
      template.variables
        .filter((v) => 'critical' in v && v.critical)
        .filter((v) =>
          v.type === 'number' ? v.max === undefined : !('maxLength' in v) || !v.maxLength,
        )
        .map((v) => `${slug} ${v.name}`),
    );
    expect(unbounded).toEqual([]);
  });

  for (const entry of catalog) {
    it(`${entry.template.id} shows every critical value whole at its longest, in every layout`, async () => {
      const values = realisticLongValues(entry.template);
      const cut: string[] = [];
      for (const layout of layoutNamesOf(entry.template)) {
        for (const violation of await checkRules(jobFor(entry, layout, values))) {
          if (violation.rule === 'critical-cut') cut.push(`${layout} ${violation.layer}`);
        }
      }
      expect(cut).toEqual([]);
    }, 120_000);
  }
});
