import type pg from 'pg';
import { Errors } from '../../../shared/errors.js';
import type { LedgerEntryRow } from '../rows/ledger-entries.js';
import {
  alreadyCharged,
  balanceOf,
  checkAmount,
  heldTotalBelowBatch,
  releaseAmount,
} from '../rules/credit-rules.js';
import type { CreditTotals, LedgerKind } from '../types/ledger.js';
import { isUniqueViolation } from './postgres-errors.js';
import type { Queryable } from './transaction.js';

/**
 * The ledger's writes, each run on a client inside the caller's transaction. Every entry moves
 * the running totals in `account` (and `batch_holds` for holds and releases) in the same
 * transaction; the balance check is the WHERE clause of one UPDATE of the account row, which
 * PostgreSQL applies atomically however many nodes debit at once.
 */

export interface NewEntry {
  kind: LedgerKind;
  amount: number;
  renderId?: string | null;
  batchId?: string | null;
  rowIndex?: number | null;
  note?: string | null;
  apiKeyId?: string | null;
}

export const ENTRY_COLUMNS = 'id, kind, amount, render_id, batch_id, row_index, note, created_at';

export async function readTotals(db: Queryable): Promise<CreditTotals> {
  const result = await db.query<CreditTotals>(
    'SELECT granted, debited, held FROM account WHERE id = 1',
  );
  return result.rows[0] as CreditTotals;
}

async function balanceNow(db: Queryable): Promise<number> {
  return balanceOf(await readTotals(db));
}

export async function appendEntry(db: Queryable, entry: NewEntry): Promise<LedgerEntryRow> {
  const result = await db.query<LedgerEntryRow>(
    `INSERT INTO ledger (kind, amount, render_id, batch_id, row_index, note, api_key_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING ${ENTRY_COLUMNS}`,
    [
      entry.kind,
      entry.amount,
      entry.renderId ?? null,
      entry.batchId ?? null,
      entry.rowIndex ?? null,
      entry.note ?? null,
      entry.apiKeyId ?? null,
      new Date().toISOString(),
    ],
  );
  return result.rows[0] as LedgerEntryRow;
}

export async function grantCredits(
  client: pg.PoolClient,
  amount: number,
  note: string | null,
  apiKeyId: string | null,
): Promise<LedgerEntryRow> {
  checkAmount(amount);
  await client.query('UPDATE account SET granted = granted + $1 WHERE id = 1', [amount]);
  return appendEntry(client, { kind: 'grant', amount, note, apiKeyId });
}

/** Reserves credits for a batch; throws `insufficient-credits` and holds nothing when short. */
export async function holdCredits(
  client: pg.PoolClient,
  batchId: string,
  amount: number,
  note: string | null,
): Promise<number> {
  checkAmount(amount);
  // The batch's total first, then the account: every writer takes the two in this order.
  await client.query(
    `INSERT INTO batch_holds (batch_id, held) VALUES ($1, $2)
     ON CONFLICT (batch_id) DO UPDATE SET held = batch_holds.held + excluded.held`,
    [batchId, amount],
  );
  const held = await client.query(
    'UPDATE account SET held = held + $1 WHERE id = 1 AND granted - debited - held >= $1',
    [amount],
  );
  // Throwing rolls the batch's total back with everything else.
  if (held.rowCount !== 1) throw Errors.insufficientCredits(amount, await balanceNow(client));
  await appendEntry(client, { kind: 'hold', amount, batchId, note });
  return balanceNow(client);
}

/** Charges a single render; throws `insufficient-credits` (nothing charged) or `conflict`. */
export async function debitSingleRender(
  client: pg.PoolClient,
  renderId: string,
  amount: number,
  apiKeyId: string | null,
): Promise<number> {
  checkAmount(amount);
  const debited = await client.query(
    'UPDATE account SET debited = debited + $1 WHERE id = 1 AND granted - debited - held >= $1',
    [amount],
  );
  if (debited.rowCount !== 1) throw Errors.insufficientCredits(amount, await balanceNow(client));
  try {
    await appendEntry(client, { kind: 'debit', amount, renderId, apiKeyId });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyCharged(renderId);
    throw error;
  }
  return balanceNow(client);
}

export async function heldFor(db: Queryable, batchId: string, lock = false): Promise<number> {
  const result = await db.query<{ held: number }>(
    `SELECT held FROM batch_holds WHERE batch_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [batchId],
  );
  return result.rows[0]?.held ?? 0;
}

/** Releases `amount` held credits of the batch (default: all it holds); returns the amount. */
export async function releaseHeld(
  client: pg.PoolClient,
  batchId: string,
  amount: number | undefined,
  note: string | null,
): Promise<number> {
  const toRelease = releaseAmount(batchId, await heldFor(client, batchId, true), amount);
  if (toRelease === 0) return 0;
  await client.query('UPDATE batch_holds SET held = held - $2 WHERE batch_id = $1', [
    batchId,
    toRelease,
  ]);
  const released = await client.query(
    'UPDATE account SET held = held - $1 WHERE id = 1 AND held >= $1',
    [toRelease],
  );
  if (released.rowCount !== 1) {
    throw heldTotalBelowBatch();
  }
  await appendEntry(client, { kind: 'release', amount: toRelease, batchId, note });
  return toRelease;
}
