import crypto from 'node:crypto';
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { Template } from '../../shared/template-format.js';
import { zodProblems } from '../../shared/zod-problems.js';

/**
 * Templates already checked against the schema, by the SHA-256 of their file's text. Checking
 * is most of what loading the catalog costs (a quarter of a second of every core's start), and
 * the same bytes check the same way: a file seen before, in this process or when this copy of
 * the core was built (`writeCheckedTemplates`), is not checked again. A file that changed has
 * another digest and is checked as if it were new, so a stale record never lets a template
 * through that the schema refuses.
 */
const checked = new Map<string, Template>();
const recordsRead = new Set<string>();

/** What a records file holds: each template's parsed form by the digest of its file. */
interface CheckedRecords {
  format: 1;
  templates: Record<string, unknown>;
}

export type CheckedTemplate = { ok: true; template: Template } | { ok: false; problems: string };

/**
 * The template a file's text holds, checked. `records` names a file written by
 * `writeCheckedTemplates` (read once per process; absent or unreadable, it is ignored). Each
 * call returns its own copy: a caller that changes it changes nothing another load returns.
 */
export function checkTemplateText(text: string, records?: string): CheckedTemplate {
  if (records) readRecords(records);
  const digest = digestOf(text);
  const known = checked.get(digest);
  if (known) return { ok: true, template: structuredClone(known) };
  const parsed = Template.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const problems = zodProblems(parsed.error)
      .map((p) => `${p.path}: ${p.message}`)
      .join('; ');
    return { ok: false, problems };
  }
  checked.set(digest, structuredClone(parsed.data));
  return { ok: true, template: parsed.data };
}

/**
 * Checks each template file and records the parsed forms in `file`, for cores that start from
 * this copy. A template whose parsed form does not survive JSON unchanged is left out (it is
 * checked at each start instead), as is one the schema refuses.
 */
export function writeCheckedTemplates(templateFiles: string[], file: string): number {
  const templates: Record<string, unknown> = {};
  for (const source of templateFiles) {
    const text = fs.readFileSync(source, 'utf8');
    const checked = checkTemplateText(text);
    if (!checked.ok) continue;
    const stored: unknown = JSON.parse(JSON.stringify(checked.template));
    if (isDeepStrictEqual(stored, checked.template)) templates[digestOf(text)] = stored;
  }
  const records: CheckedRecords = { format: 1, templates };
  const next = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(next, JSON.stringify(records));
  fs.renameSync(next, file);
  return Object.keys(templates).length;
}

function readRecords(file: string): void {
  if (recordsRead.has(file)) return;
  recordsRead.add(file);
  let records: CheckedRecords;
  try {
    records = JSON.parse(fs.readFileSync(file, 'utf8')) as CheckedRecords;
  } catch {
    return;
  }
  if (records.format !== 1) return;
  for (const [digest, template] of Object.entries(records.templates)) {
    checked.set(digest, template as Template);
  }
}

function digestOf(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}
