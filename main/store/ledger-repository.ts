import { AppError, Errors } from '../../shared/errors.js';
import { toLedgerEntry, type LedgerEntryRow } from '../data/rows/ledger-entries.js';
import { groupedLedgerSql, toLedgerLine, type LedgerLineRow } from '../data/rows/ledger-lines.js';
import {
  alreadyCharged,
  balanceOf,
  checkAmount,
  heldTotalBelowBatch,
  releaseAmount,
  totalsProblems,
} from '../data/rules/credit-rules.js';
import { ledgerPage, ledgerQuery } from '../data/rules/ledger-paging.js';
import type {
  CreditLedger,
  CreditTotals,
  InvariantReport,
  LedgerKind,
} from '../data/types/ledger.js';
import { isUniqueViolation } from './open-database.js';
import type { Database } from './open-database.js';

/**
 * The credit ledger. Entries are only ever inserted; `account` keeps running totals updated in
 * the same transaction, so every balance check is one conditional UPDATE (atomic even across
 * processes). Every method is synchronous and runs in its own transaction, which becomes a
 * savepoint when called inside a caller's `db.transaction` (e.g. debit + idempotency record).
 */
export interface LedgerRepository extends CreditLedger {
  /** Charges a single render. Throws `insufficient-credits` and charges nothing when short. */
  debitRender(input: { renderId: string; amount?: number; apiKeyId?: string | null }): {
    balance: number;
  };
  /** Reserves credits for a batch. Throws `insufficient-credits` and holds nothing when short. */
  hold(input: { batchId: string; amount: number; note?: string | null }): { balance: number };
  /**
   * Turns one held credit of the batch into the row's debit, written as `release 1` + `debit 1`
   * (so holds and releases still net to what is held). False, with nothing written, when the
   * row was already charged (a retried row is charged at most once).
   */
  settleHeldRow(input: {
    batchId: string;
    rowIndex: number;
    renderId: string;
    apiKeyId?: string | null;
  }): boolean;
}

interface NewEntry {
  kind: LedgerKind;
  amount: number;
  render_id?: string | null;
  batch_id?: string | null;
  row_index?: number | null;
  note?: string | null;
  api_key_id?: string | null;
}

export function createLedgerRepository(db: Database): LedgerRepository {
  const insertEntry = db.prepare(
    `INSERT INTO ledger (kind, amount, render_id, batch_id, row_index, note, api_key_id, created_at)
     VALUES (@kind, @amount, @render_id, @batch_id, @row_index, @note, @api_key_id, @created_at)
     RETURNING id, kind, amount, render_id, batch_id, row_index, note, created_at`,
  );
  const totals = db.prepare<[], CreditTotals>(
    'SELECT granted, debited, held FROM account WHERE id = 1',
  );
  const addGrant = db.prepare<[number]>('UPDATE account SET granted = granted + ? WHERE id = 1');
  // The WHERE clause is the balance check: zero rows changed means the credits were not there.
  const addDebit = db.prepare<[number, number]>(
    'UPDATE account SET debited = debited + ? WHERE id = 1 AND granted - debited - held >= ?',
  );
  const addHold = db.prepare<[number, number]>(
    'UPDATE account SET held = held + ? WHERE id = 1 AND granted - debited - held >= ?',
  );
  const releaseHeld = db.prepare<[number, number]>(
    'UPDATE account SET held = held - ? WHERE id = 1 AND held >= ?',
  );
  const settleHeld = db.prepare(
    'UPDATE account SET held = held - 1, debited = debited + 1 WHERE id = 1 AND held >= 1',
  );
  // A batch's hold is a running total kept with every hold and release (one row per batch).
  const heldForBatch = db
    .prepare<[string], number>('SELECT held FROM batch_holds WHERE batch_id = ?')
    .pluck();
  const addBatchHold = db.prepare<{ batchId: string; amount: number }>(
    `INSERT INTO batch_holds (batch_id, held) VALUES (@batchId, @amount)
     ON CONFLICT (batch_id) DO UPDATE SET held = held + @amount`,
  );
  const takeBatchHold = db.prepare<[number, string, number]>(
    'UPDATE batch_holds SET held = held - ? WHERE batch_id = ? AND held >= ?',
  );
  const batchHoldsFromEntries = db.prepare<[], { batch_id: string; held: number }>(
    `SELECT batch_id,
       SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount ELSE 0 END) AS held
     FROM ledger WHERE batch_id IS NOT NULL AND kind IN ('hold', 'release') GROUP BY batch_id`,
  );
  const batchHoldRows = db.prepare<[], { batch_id: string; held: number }>(
    'SELECT batch_id, held FROM batch_holds',
  );
  const rowDebited = db
    .prepare<[string, number], number>(
      "SELECT 1 FROM ledger WHERE kind = 'debit' AND batch_id = ? AND row_index = ?",
    )
    .pluck();
  const page = db.prepare<[number, string | null, string | null, number], LedgerEntryRow>(
    `SELECT id, kind, amount, render_id, batch_id, row_index, note, created_at FROM ledger
     WHERE id < ? AND (? IS NULL OR kind = ?) ORDER BY id DESC LIMIT ?`,
  );
  // Holds and releases carry no key: they belong to whoever created their batch.
  const pageOfKey = db.prepare<
    [number, string | null, string | null, string, string, number],
    LedgerEntryRow
  >(
    `SELECT id, kind, amount, render_id, batch_id, row_index, note, created_at FROM ledger
     WHERE id < ? AND (? IS NULL OR kind = ?)
       AND (api_key_id = ? OR batch_id IN (SELECT id FROM batches WHERE api_key_id = ?))
     ORDER BY id DESC LIMIT ?`,
  );
  const groupedPage = db.prepare<
    { cursor: number; kind: string | null; key: string | null; limit: number },
    LedgerLineRow
  >(groupedLedgerSql({ cursor: '@cursor', kind: '@kind', key: '@key', limit: '@limit' }));
  const sums = db.prepare<[], CreditTotals>(
    `SELECT
       COALESCE(SUM(CASE WHEN kind = 'grant' THEN amount END), 0) AS granted,
       COALESCE(SUM(CASE WHEN kind = 'debit' THEN amount END), 0) AS debited,
       COALESCE(SUM(CASE kind WHEN 'hold' THEN amount WHEN 'release' THEN -amount END), 0) AS held
     FROM ledger`,
  );

  const append = (entry: NewEntry): LedgerEntryRow =>
    insertEntry.get({
      render_id: null,
      batch_id: null,
      row_index: null,
      note: null,
      api_key_id: null,
      ...entry,
      created_at: new Date().toISOString(),
    }) as LedgerEntryRow;

  const readTotals = (): CreditTotals => totals.get() as CreditTotals;

  const grant = db.transaction(
    (amount: number, note: string | null, apiKeyId: string | null): LedgerEntryRow => {
      checkAmount(amount);
      addGrant.run(amount);
      return append({ kind: 'grant', amount, note, api_key_id: apiKeyId });
    },
  );

  const debitRender = db.transaction(
    (renderId: string, amount: number, apiKeyId: string | null): number => {
      checkAmount(amount);
      if (addDebit.run(amount, amount).changes !== 1) {
        throw Errors.insufficientCredits(amount, balanceOf(readTotals()));
      }
      try {
        append({ kind: 'debit', amount, render_id: renderId, api_key_id: apiKeyId });
      } catch (error) {
        if (isUniqueViolation(error)) throw alreadyCharged(renderId);
        throw error;
      }
      return balanceOf(readTotals());
    },
  );

  const hold = db.transaction((batchId: string, amount: number, note: string | null): number => {
    checkAmount(amount);
    if (addHold.run(amount, amount).changes !== 1) {
      throw Errors.insufficientCredits(amount, balanceOf(readTotals()));
    }
    addBatchHold.run({ batchId, amount });
    append({ kind: 'hold', amount, batch_id: batchId, note });
    return balanceOf(readTotals());
  });

  const settle = db.transaction(
    (batchId: string, rowIndex: number, renderId: string, apiKeyId: string | null): boolean => {
      if (!Number.isInteger(rowIndex) || rowIndex < 0) {
        throw new RangeError(`A row index must be a non-negative integer, not ${rowIndex}.`);
      }
      if (rowDebited.get(batchId, rowIndex) !== undefined) return false;
      if (takeBatchHold.run(1, batchId, 1).changes !== 1 || settleHeld.run().changes !== 1) {
        throw new AppError('conflict', `Batch "${batchId}" holds no credit for row ${rowIndex}.`);
      }
      const row = { batch_id: batchId, row_index: rowIndex, render_id: renderId };
      append({ kind: 'release', amount: 1, ...row, note: 'settled' });
      append({ kind: 'debit', amount: 1, ...row, api_key_id: apiKeyId });
      return true;
    },
  );

  const release = db.transaction(
    (batchId: string, amount: number | undefined, note: string | null): number => {
      const toRelease = releaseAmount(batchId, heldForBatch.get(batchId) ?? 0, amount);
      if (toRelease === 0) return 0;
      if (
        takeBatchHold.run(toRelease, batchId, toRelease).changes !== 1 ||
        releaseHeld.run(toRelease, toRelease).changes !== 1
      ) {
        throw heldTotalBelowBatch();
      }
      append({ kind: 'release', amount: toRelease, batch_id: batchId, note });
      return toRelease;
    },
  );

  const verify = db.transaction((): InvariantReport => {
    const fromEntries = sums.get() as CreditTotals;
    const running = readTotals();
    const problems = totalsProblems(fromEntries, running);
    const fromBatchEntries = batchHoldsFromEntries.all();
    for (const { batch_id: batchId, held } of fromBatchEntries)
      if (held < 0) problems.push(`batch ${batchId} released more than it held`);
    const kept = new Map(batchHoldRows.all().map((row) => [row.batch_id, row.held]));
    for (const { batch_id: batchId, held } of fromBatchEntries) {
      if ((kept.get(batchId) ?? 0) !== held) {
        problems.push(
          `batch ${batchId}: entries say it holds ${held}, its running hold says ${kept.get(batchId) ?? 0}`,
        );
      }
    }
    return { ok: problems.length === 0, problems, fromEntries, running };
  });

  return {
    account() {
      const t = readTotals();
      return { balance: balanceOf(t), heldCredits: t.held, granted: t.granted, debited: t.debited };
    },
    grant: (amount, options = {}) =>
      toLedgerEntry(grant.immediate(amount, options.note ?? null, options.apiKeyId ?? null)),
    debitRender: ({ renderId, amount = 1, apiKeyId = null }) => ({
      balance: debitRender.immediate(renderId, amount, apiKeyId),
    }),
    hold: ({ batchId, amount, note = null }) => ({
      balance: hold.immediate(batchId, amount, note),
    }),
    settleHeldRow: ({ batchId, rowIndex, renderId, apiKeyId = null }) =>
      settle.immediate(batchId, rowIndex, renderId, apiKeyId),
    release: ({ batchId, amount, note = null }) => release.immediate(batchId, amount, note),
    heldFor: (batchId) => heldForBatch.get(batchId) ?? 0,
    list(options = {}) {
      const { limit, kind, cursor } = ledgerQuery(options);
      const key = options.apiKeyId;
      if (options.group === 'batch') {
        const lines = groupedPage.all({ cursor, kind, key: key ?? null, limit: limit + 1 });
        return ledgerPage(lines, limit, toLedgerLine);
      }
      const rows =
        key === undefined
          ? page.all(cursor, kind, kind, limit + 1)
          : pageOfKey.all(cursor, kind, kind, key, key, limit + 1);
      return ledgerPage(rows, limit, toLedgerEntry);
    },
    // A read transaction, so the sums and the running totals come from one snapshot.
    verifyInvariant: () => verify.deferred(),
  };
}
