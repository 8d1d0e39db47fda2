import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import { Template } from '../../shared/template-format.js';
import { renderJob } from '../../main/engine/render-job.js';
import { resolveValues } from '../../main/engine/resolve-values.js';
import { buildJob, repoRoot } from './fixtures/template-builder.js';
import { TEMPLATE_SCHEMA_PATH, templateSchemaText } from '../../scripts/write-template-schema.js';

describe('templates/template.schema.json', () => {
  it('is the JSON Schema generated from the zod Template (run scripts/write-template-schema.ts)', () => {
    expect(fs.readFileSync(TEMPLATE_SCHEMA_PATH, 'utf8')).toBe(templateSchemaText());
  });
});

describe('docs/templates.md', () => {
  it('has a complete example that is a valid template and renders without overflow', async () => {
    const md = fs.readFileSync(path.join(repoRoot, 'docs', 'templates.md'), 'utf8');
    const json = md.slice(md.lastIndexOf('```json') + '```json'.length, md.lastIndexOf('```'));
    const template = Template.parse(JSON.parse(json));
    const values = resolveValues(template, template.sampleValues, {
      brand: EMPTY_BRAND_PROFILE,
      resolveImage: (value) => ({ kind: 'file', path: value }),
    });
    const result = await renderJob(buildJob(template, values));
    if (!result.ok) throw new Error(result.message);
    expect(result.report.layers.every((l) => !l.overflow && !l.truncated)).toBe(true);
    expect(result.report.missingGlyphs).toEqual([]);
  });
});
