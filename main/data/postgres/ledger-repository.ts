import type pg from 'pg';
import { Errors } from '../../../shared/errors.js';
import type { AsyncPort } from '../async-port.js';
import { LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX } from '../../store/ledger-repository.js';
import { LEDGER_KINDS, type CreditLedger, type InvariantReport } from '../types/ledger.js';
import { groupedLedgerSql, toLedgerLine, type LedgerLineRow } from '../../store/ledger-lines.js';
import {
  balanceOf,
  ENTRY_COLUMNS,
  grantCredits,
  heldFor,
  readTotals,
  releaseHeld,
  toEntry,
} from './ledger-writes.js';
import type { EntryRow, Totals } from './ledger-writes.js';
import { inTransaction } from './transaction.js';

export type PostgresLedger = AsyncPort<CreditLedger>;

/** The credit ledger as services read and adjust it; charges go through DataCommands. */
export function postgresLedger(pool: pg.Pool): PostgresLedger {
  return {
    async account() {
      const t = await readTotals(pool);
      return { balance: balanceOf(t), heldCredits: t.held, granted: t.granted, debited: t.debited };
    },
    grant: (amount, options = {}) =>
      inTransaction(pool, async (client) =>
        toEntry(await grantCredits(client, amount, options.note ?? null, options.apiKeyId ?? null)),
      ),
    release: ({ batchId, amount, note = null }) =>
      inTransaction(pool, (client) => releaseHeld(client, batchId, amount, note)),
    heldFor: (batchId) => heldFor(pool, batchId),
    async list(options = {}) {
      const limit = pageLimit(options.limit);
      const kind = options.kind ?? null;
      if (kind !== null && !(LEDGER_KINDS as readonly string[]).includes(kind)) {
        throw Errors.validation([
          { path: 'kind', message: `must be one of ${LEDGER_KINDS.join(', ')}` },
        ]);
      }
      const cursor = parseCursor(options.cursor);
      if (options.group === 'batch') {
        const lines = await pool.query<LedgerLineRow>(
          groupedLedgerSql(
            { cursor: '$1', kind: '$2::text', key: '$3::text', limit: '$4' },
            '::bigint',
          ),
          [cursor, kind, options.apiKeyId ?? null, limit + 1],
        );
        const entries = lines.rows.slice(0, limit).map(toLedgerLine);
        const last = entries[entries.length - 1];
        return { entries, nextCursor: lines.rows.length > limit && last ? String(last.id) : null };
      }
      // Holds and releases carry no key: they belong to whoever created their batch.
      const result = await pool.query<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM ledger
         WHERE id < $1 AND ($2::text IS NULL OR kind = $2)
           AND ($4::text IS NULL OR api_key_id = $4
                OR batch_id IN (SELECT id FROM batches WHERE api_key_id = $4))
         ORDER BY id DESC LIMIT $3`,
        [cursor, kind, limit + 1, options.apiKeyId ?? null],
      );
      const entries = result.rows.slice(0, limit).map(toEntry);
      const last = entries[entries.length - 1];
      return {
        entries,
        nextCursor: result.rows.length > limit && last ? String(last.id) : null,
      };
    },
    // One snapshot, so the sums and the running totals describe the same moment.
    verifyInvariant: () =>
      inTransaction(pool, verify, { mode: 'ISOLATION LEVEL REPEATABLE READ, READ ONLY' }),
  };
}

async function verify(client: pg.PoolClient): Promise<InvariantReport> {
  const sums = await client.query<Totals>(
    `SELECT
       COALESCE(SUM(CASE WHEN kind = 'grant' THEN amount END), 0)::bigint AS granted,
       COALESCE(SUM(CASE WHEN kind = 'debit' THEN amount END), 0)::bigint AS debited,
       COALESCE(SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount END), 0)::bigint AS held
     FROM ledger`,
  );
  const fromEntries = sums.rows[0] as Totals;
  const running = await readTotals(client);
  const problems: string[] = [];
  for (const field of ['granted', 'debited', 'held'] as const) {
    if (fromEntries[field] !== running[field]) {
      problems.push(
        `${field}: entries say ${fromEntries[field]}, running total says ${running[field]}`,
      );
    }
  }
  if (balanceOf(running) < 0) problems.push(`balance is negative (${balanceOf(running)})`);
  const perBatch = await client.query<{ batch_id: string; entries: number; running: number }>(
    `SELECT COALESCE(l.batch_id, h.batch_id) AS batch_id,
            COALESCE(l.held, 0)::bigint AS entries, COALESCE(h.held, 0)::bigint AS running
     FROM (SELECT batch_id,
                  SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount ELSE 0 END) AS held
           FROM ledger WHERE batch_id IS NOT NULL GROUP BY batch_id) l
     FULL JOIN batch_holds h ON h.batch_id = l.batch_id
     WHERE COALESCE(l.held, 0) < 0 OR COALESCE(l.held, 0) <> COALESCE(h.held, 0)
     ORDER BY 1`,
  );
  for (const row of perBatch.rows) {
    if (row.entries < 0) problems.push(`batch ${row.batch_id} released more than it held`);
    else {
      problems.push(
        `batch ${row.batch_id}: entries say it holds ${row.entries}, running total says ${row.running}`,
      );
    }
  }
  return { ok: problems.length === 0, problems, fromEntries, running };
}

function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return LEDGER_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw Errors.validation([{ path: 'limit', message: 'must be a positive integer' }]);
  }
  return Math.min(limit, LEDGER_PAGE_MAX);
}

function parseCursor(cursor: number | string | null | undefined): number {
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
