import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import { toLedgerEntry, type LedgerEntryRow } from '../rows/ledger-entries.js';
import { groupedLedgerSql, toLedgerLine, type LedgerLineRow } from '../rows/ledger-lines.js';
import { balanceOf, totalsProblems } from '../rules/credit-rules.js';
import { ledgerPage, ledgerQuery } from '../rules/ledger-paging.js';
import type { CreditLedger, CreditTotals, InvariantReport } from '../types/ledger.js';
import { ENTRY_COLUMNS, grantCredits, heldFor, readTotals, releaseHeld } from './ledger-writes.js';
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
        toLedgerEntry(
          await grantCredits(client, amount, options.note ?? null, options.apiKeyId ?? null),
        ),
      ),
    release: ({ batchId, amount, note = null }) =>
      inTransaction(pool, (client) => releaseHeld(client, batchId, amount, note)),
    heldFor: (batchId) => heldFor(pool, batchId),
    async list(options = {}) {
      const { limit, kind, cursor } = ledgerQuery(options);
      if (options.group === 'batch') {
        const lines = await pool.query<LedgerLineRow>(
          groupedLedgerSql(
            { cursor: '$1', kind: '$2::text', key: '$3::text', limit: '$4' },
            '::bigint',
          ),
          [cursor, kind, options.apiKeyId ?? null, limit + 1],
        );
        return ledgerPage(lines.rows, limit, toLedgerLine);
      }
      // Holds and releases carry no key: they belong to whoever created their batch.
      const result = await pool.query<LedgerEntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM ledger
         WHERE id < $1 AND ($2::text IS NULL OR kind = $2)
           AND ($4::text IS NULL OR api_key_id = $4
                OR batch_id IN (SELECT id FROM batches WHERE api_key_id = $4))
         ORDER BY id DESC LIMIT $3`,
        [cursor, kind, limit + 1, options.apiKeyId ?? null],
      );
      return ledgerPage(result.rows, limit, toLedgerEntry);
    },
    // One snapshot, so the sums and the running totals describe the same moment.
    verifyInvariant: () =>
      inTransaction(pool, verify, { mode: 'ISOLATION LEVEL REPEATABLE READ, READ ONLY' }),
  };
}

async function verify(client: pg.PoolClient): Promise<InvariantReport> {
  const sums = await client.query<CreditTotals>(
    `SELECT
       COALESCE(SUM(CASE WHEN kind = 'grant' THEN amount END), 0)::bigint AS granted,
       COALESCE(SUM(CASE WHEN kind = 'debit' THEN amount END), 0)::bigint AS debited,
       COALESCE(SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount END), 0)::bigint AS held
     FROM ledger`,
  );
  const fromEntries = sums.rows[0] as CreditTotals;
  const running = await readTotals(client);
  const problems = totalsProblems(fromEntries, running);
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
