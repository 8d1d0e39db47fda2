import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOGUE, type ErrorCode } from '../shared/errors.js';

/**
 * Writes docs/errors.md from the one error catalogue (shared/errors.ts), so the documented codes
 * are the codes the server sends. A test checks the committed file is up to date.
 */

export const ERRORS_DOC_PATH = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'docs',
  'errors.md',
);

/** Table cells are one line; a `|` inside one would end the cell. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|');
}

/** The document as written to disk: codes by HTTP status, in catalogue order within one. */
export function errorsDocText(): string {
  const codes = (Object.keys(ERROR_CATALOGUE) as ErrorCode[])
    .map((code, index) => ({ code, index, ...ERROR_CATALOGUE[code] }))
    .sort((a, b) => a.status - b.status || a.index - b.index);
  const rows = codes.map(
    (entry) =>
      `| \`${entry.code}\` | ${entry.status} | ${cell(entry.title)} | ${cell(entry.when)} |`,
  );
  return [
    '# Errors',
    '',
    '<!-- Written by `npm run docs:errors` from shared/errors.ts; change the catalogue, not this file. -->',
    '',
    'Every error of the `/v1` API is an `application/problem+json` body with a stable `code`:',
    '',
    '```json',
    '{',
    '  "type": "https://render-desk.local/problems/validation-failed",',
    '  "title": "The request did not pass validation",',
    '  "status": 422,',
    '  "detail": "1 problem: values.headline: a value is required (text)",',
    '  "code": "validation-failed",',
    '  "errors": [{ "path": "values.headline", "message": "a value is required (text)" }]',
    '}',
    '```',
    '',
    '`detail` says what happened to this request and what to do about it; it may change between',
    'versions, `code` does not. `errors` lists the problems of validation errors (and of some image',
    'and pack errors) with the path of each, the first 100 of them: `problemsNotListed` counts',
    'the rest. Some errors add fields of their own, named below.',
    '`idempotency-key-in-use` and `rate-limited` come with a `Retry-After` header, and so does',
    '`service-busy` when the render threads or the rate limiter are busy.',
    '',
    "A batch pre-flight's `warnings` are not errors (the rows still render) and carry codes of",
    'their own: `rule.<name>` for a broken layout rule and `required-layer-hidden` for a required',
    "value whose every layer a row's `visibleWhen` rules hide; docs/templates.md describes them.",
    '',
    `These are all ${codes.length} codes the server sends.`,
    '',
    '| code | status | title | when |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(ERRORS_DOC_PATH, errorsDocText());
  console.log(`Wrote ${path.relative(process.cwd(), ERRORS_DOC_PATH)}`);
}
