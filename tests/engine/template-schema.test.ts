import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_SCHEMA_PATH, templateSchemaText } from '../../scripts/write-template-schema.js';

describe('templates/template.schema.json', () => {
  it('is the JSON Schema generated from the zod Template (run scripts/write-template-schema.ts)', () => {
    expect(fs.readFileSync(TEMPLATE_SCHEMA_PATH, 'utf8')).toBe(templateSchemaText());
  });
});
