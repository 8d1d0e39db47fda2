import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Template } from '../shared/template-format.js';

/**
 * Writes templates/template.schema.json from the zod Template, so editors can validate and
 * autocomplete template.json files. A test checks the committed file is up to date.
 */

export const TEMPLATE_SCHEMA_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'templates',
  'template.schema.json',
);

/** The schema as written to disk: pretty-printed, ending in a newline. */
export function templateSchemaText(): string {
  return JSON.stringify(z.toJSONSchema(Template, { io: 'input' }), null, 2) + '\n';
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(TEMPLATE_SCHEMA_PATH, templateSchemaText());
  console.log(`Wrote ${path.relative(process.cwd(), TEMPLATE_SCHEMA_PATH)}`);
}
