import { describe, expect, it } from 'vitest';
import { registerBundledFonts } from '../../../main/engine/fonts.js';
import { FONTS_DIR } from '../../../main/engine/render-job.js';
import { checkRules } from '../../../main/engine/rules/check-rules.js';
import { Template } from '../../../shared/template-format.js';
import { jobFor, layoutTemplate } from '../layout/layout-fixtures.js';

registerBundledFonts(FONTS_DIR);

/** One line of contact details in a box as wide as `width`, the phone marked critical or not. */
function contact(width: number, critical: boolean) {
  const base = layoutTemplate({
    layers: [
      {
        kind: 'text',
        id: 'contact',
        x: 72,
        y: 900,
        width,
        height: 60,
        text: '{{agent}} · {{phone}}',
        font: { family: 'Be Vietnam Pro', weight: 600 },
        size: 30,
        minSize: 24,
        maxLines: 1,
        colour: '#111111',
      },
    ],
  });
  return Template.parse({
    ...base,
    variables: [
      { name: 'agent', type: 'text', maxLength: 30, ...(critical ? { critical: 'name' } : {}) },
      { name: 'phone', type: 'text', maxLength: 16, ...(critical ? { critical: 'phone' } : {}) },
    ],
  });
}

const LONG = { agent: 'Nguyễn Thị Phương Thảo Quỳnh', phone: '+84 28 3822 9999' };
const cuts = async (template: Template, values: Record<string, string>) =>
  (await checkRules(jobFor(template, values))).filter((v) => v.rule === 'critical-cut');

describe('critical-cut rule', () => {
  it('reports a critical value ended in "…" while every value keeps to its maxLength', async () => {
    const found = await cuts(contact(432, true), LONG);
    expect(found.map((v) => v.layer)).toEqual(['contact']);
    expect(found[0]!.message).toContain('{{phone}} (phone)');
  });

  it('says nothing when the whole value shows, or when nothing in the layer is critical', async () => {
    expect(await cuts(contact(936, true), LONG)).toEqual([]);
    expect(await cuts(contact(432, false), LONG)).toEqual([]);
  });

  it('leaves a value longer than its field allows to the row: the template is not at fault', async () => {
    const tooLong = { ...LONG, agent: `${LONG.agent} Anh Ngọc Diễm Hương` };
    expect(await cuts(contact(432, true), tooLong)).toEqual([]);
  });
});
