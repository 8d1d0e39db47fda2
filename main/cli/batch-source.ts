import fs from 'node:fs';
import path from 'node:path';
import { openRecordRowSource } from '../ingest/rows/record-row-source.js';
import { openRowSource } from '../ingest/rows/row-source.js';
import { UsageError } from './usage-error.js';
import type { SourceRow } from '../batch/source-records.js';

/**
 * The file given to `--source`: a CSV or xlsx spreadsheet (told apart by its bytes, as uploads
 * are), or a JSON array of records (`.json`, or text that starts with `[` or `{"records"`),
 * the same records POST /v1/render-batches takes inline.
 */
export type CliSource =
  | { kind: 'json'; file: string; records: Record<string, unknown>[] }
  | { kind: 'spreadsheet'; file: string; sheet?: string | number };

/**
 * Refuses, before anything starts, a source that is missing or not a regular file: opening a
 * FIFO or a device blocks until something writes to it, so it is stat'ed, never opened.
 */
export function checkSourceFile(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(path.resolve(file));
  } catch (error) {
    throw new UsageError(
      `--source: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (!stat.isFile())
    throw new UsageError(
      `--source: ${file} is not a regular file (a pipe, a device or a folder); save the data to a file first`,
    );
}

export function readCliSource(file: string, sheet: string | undefined): CliSource {
  const resolved = path.resolve(file);
  let head: string;
  try {
    checkSourceFile(file);
    const handle = fs.openSync(resolved, 'r');
    try {
      const buffer = Buffer.alloc(64);
      head = buffer.subarray(0, fs.readSync(handle, buffer, 0, 64, 0)).toString('utf8');
    } finally {
      fs.closeSync(handle);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `--source: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const json =
    path.extname(resolved).toLowerCase() === '.json' || /^\ufeff?\s*(\[|\{\s*"records")/.test(head);
  if (!json)
    return {
      kind: 'spreadsheet',
      file: resolved,
      ...(sheet !== undefined ? { sheet: /^\d+$/.test(sheet) ? Number(sheet) : sheet } : {}),
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(resolved, 'utf8').replace(/^\ufeff/, ''));
  } catch (error) {
    throw new UsageError(`--source: ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const records =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as { records?: unknown }).records
      : parsed;
  if (!Array.isArray(records) || records.length === 0)
    throw new UsageError(
      `--source: ${file} must hold a non-empty JSON array of records, like [{"title": "Hello"}], or {"records": [...]}`,
    );
  const bad = records.findIndex((r) => typeof r !== 'object' || r === null || Array.isArray(r));
  if (bad >= 0)
    throw new UsageError(`--source: record ${bad} of ${file} is not a JSON object of values`);
  return { kind: 'json', file: resolved, records: records as Record<string, unknown>[] };
}

/** Every row of the source, read once, in order. */
export async function readSourceRows(
  source: CliSource,
): Promise<{ fields: string[]; rows: SourceRow[] }> {
  const rows: SourceRow[] = [];
  if (source.kind === 'json') {
    const opened = openRecordRowSource(source.records);
    for await (const row of opened.rows) rows.push({ ...row, problems: [] });
    return { fields: opened.fields, rows };
  }
  const opened = await openRowSource(source.file, {
    ...(source.sheet !== undefined ? { sheet: source.sheet } : {}),
  });
  try {
    for await (const row of opened.rows) rows.push(row);
  } finally {
    await opened.close();
  }
  return { fields: opened.fields, rows };
}

/** The source's rows as pre-flight reads them (a spreadsheet straight from its file). */
export async function streamSpreadsheet(
  source: Extract<CliSource, { kind: 'spreadsheet' }>,
  sheet: string | number | undefined,
): Promise<{ fields: string[]; rows: AsyncIterable<SourceRow> }> {
  const chosen = sheet ?? source.sheet;
  const opened = await openRowSource(source.file, chosen !== undefined ? { sheet: chosen } : {});
  return { fields: opened.fields, rows: opened.rows };
}
