import type { LedgerEntry } from '../types/ledger.js';
import { toLedgerEntry, type LedgerEntryRow } from './ledger-entries.js';

/**
 * The ledger as a person reads it (`group=batch`): every entry of a batch summed into one line,
 * every other entry a line of its own. A 200-row batch writes a hold, then a release and a debit
 * per row; grouped it is one line saying what the batch was charged and what it still holds.
 * The entries themselves are untouched: without `group` the ledger lists each one.
 */
export interface LedgerLineRow extends LedgerEntryRow {
  entry_count: number;
  held: number;
}

/**
 * The grouped page's SQL, the same in SQLite and PostgreSQL, given each dialect's spelling of
 * the four parameters: the cursor (a line's id is its newest entry's), the kind filter or null,
 * the API key or null, and the page size. A batch line is the batch's debits (or, filtered, that kind's sum); `held` is
 * what the batch still holds (hold − release), so a running batch shows its reservation.
 */
export function groupedLedgerSql(
  params: { cursor: string; kind: string; key: string; limit: string },
  bigint = '',
): string {
  const { cursor, kind, key, limit } = params;
  const shown = `COALESCE(${kind}, 'debit')`;
  return `SELECT MAX(id) AS id,
       CASE WHEN batch_id IS NULL THEN MAX(kind) ELSE ${shown} END AS kind,
       SUM(CASE WHEN batch_id IS NULL OR kind = ${shown} THEN amount ELSE 0 END)${bigint} AS amount,
       MAX(render_id) AS render_id,
       batch_id,
       CASE WHEN batch_id IS NULL THEN MAX(row_index) END AS row_index,
       CASE WHEN batch_id IS NULL THEN MAX(note) END AS note,
       MAX(created_at) AS created_at,
       COUNT(*)${bigint} AS entry_count,
       SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount ELSE 0 END)${bigint} AS held
     FROM ledger
     WHERE (${kind} IS NULL OR kind = ${kind})
       AND (${key} IS NULL OR api_key_id = ${key}
            OR batch_id IN (SELECT id FROM batches WHERE api_key_id = ${key}))
     GROUP BY batch_id, CASE WHEN batch_id IS NULL THEN id END
     HAVING MAX(id) < ${cursor}
     ORDER BY MAX(id) DESC
     LIMIT ${limit}`;
}

export function toLedgerLine(row: LedgerLineRow): LedgerEntry {
  return {
    ...toLedgerEntry(row),
    ...(row.batch_id !== null ? { entryCount: row.entry_count, heldCredits: row.held } : {}),
  };
}
