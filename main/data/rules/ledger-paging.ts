import { Errors } from '../../../shared/errors.js';
import {
  LEDGER_KINDS,
  type LedgerEntry,
  type LedgerListOptions,
  type LedgerPage,
} from '../types/ledger.js';

/** How the ledger is listed, page by page, the same in both stores. */

export const LEDGER_PAGE_DEFAULT = 50;
export const LEDGER_PAGE_MAX = 500;

/** A list request checked: the page size, the kind filter (or null) and the cursor to read below. */
export interface LedgerQuery {
  limit: number;
  kind: string | null;
  cursor: number;
}

export function ledgerQuery(options: LedgerListOptions): LedgerQuery {
  const limit = pageLimit(options.limit);
  const kind = options.kind ?? null;
  if (kind !== null && !(LEDGER_KINDS as readonly string[]).includes(kind)) {
    throw Errors.validation([
      { path: 'kind', message: `must be one of ${LEDGER_KINDS.join(', ')}` },
    ]);
  }
  return { limit, kind, cursor: parseCursor(options.cursor) };
}

export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return LEDGER_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw Errors.validation([{ path: 'limit', message: 'must be a positive integer' }]);
  }
  return Math.min(limit, LEDGER_PAGE_MAX);
}

/** The entry id to list below: a previous page's nextCursor, or the top for the first page. */
export function parseCursor(cursor: number | string | null | undefined): number {
  if (cursor === undefined || cursor === null || cursor === '') return Number.MAX_SAFE_INTEGER;
  const value = typeof cursor === 'number' ? cursor : Number(cursor);
  if (
    !Number.isSafeInteger(value) ||
    value < 1 ||
    (typeof cursor === 'string' && !/^\d+$/.test(cursor))
  ) {
    throw Errors.validation([{ path: 'cursor', message: 'is not a cursor this API returned' }]);
  }
  return value;
}

/**
 * A page from the `limit + 1` rows read: one row more than the page holds tells that another
 * page follows, and the last entry shown is its cursor.
 */
export function ledgerPage<R>(
  rows: R[],
  limit: number,
  toEntry: (row: R) => LedgerEntry,
): LedgerPage {
  const entries = rows.slice(0, limit).map(toEntry);
  const last = entries[entries.length - 1];
  return { entries, nextCursor: rows.length > limit && last ? String(last.id) : null };
}
