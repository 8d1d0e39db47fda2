import type pg from 'pg';
import { AppError } from '../../../shared/errors.js';
import type { RowOutcome, RowOutcomeContext } from '../data-commands.js';
import { BATCH_CHANNEL } from './batch-notify.js';
import { storableText } from './batch-rows.js';
import { isUniqueViolation } from './postgres-errors.js';

/**
 * Commits a group of finished rows in a handful of statements, whatever the group's size:
 *
 * 1. lock the batch row (every batch command takes it first, so they never deadlock);
 * 2. one UPDATE … FROM unnest(…) moves the rows that are still pending or running to succeeded
 *    or failed and returns them: the status guard that makes at-least-once delivery charge once
 *    (a concurrent commit of the same rows waits for the row locks, then finds them done);
 * 3. one statement writes, for exactly those rows, the ledger's release + debit pairs and the
 *    releases of failed rows, the render records, the batch's and the account's running totals,
 *    the batch counters, and the progress notification (sent by PostgreSQL at COMMIT).
 *
 * The unique index on one debit per (batch, row) backs the guard up.
 */
export async function commitRowGroup(
  client: pg.PoolClient,
  context: RowOutcomeContext,
  outcomes: RowOutcome[],
): Promise<number> {
  const { batchId } = context;
  const group = firstPerRow(outcomes);
  if (group.length === 0) return 0;

  const locked = await client.query<{ held: number | null }>(
    `SELECT h.held FROM batches b LEFT JOIN batch_holds h ON h.batch_id = b.id
     WHERE b.id = $1 FOR UPDATE OF b`,
    [batchId],
  );
  // A removed batch has no rows left to commit.
  if (locked.rows.length === 0) return 0;

  const changed = await client.query<{ row_index: number }>(
    `UPDATE batch_rows AS r
     SET status = CASE WHEN o.ok THEN 'succeeded' ELSE 'failed' END,
         render_id = CASE WHEN o.ok THEN o.render_id ELSE r.render_id END,
         output_key = CASE WHEN o.ok THEN o.output_key ELSE r.output_key END,
         error = CASE WHEN o.ok THEN NULL ELSE o.error END,
         lease_until = NULL
     FROM unnest($2::int[], $3::boolean[], $4::text[], $5::text[], $6::text[])
       AS o (row_index, ok, render_id, output_key, error)
     WHERE r.batch_id = $1 AND r.row_index = o.row_index AND r.status IN ('pending', 'running')
     RETURNING r.row_index`,
    [
      batchId,
      group.map((o) => o.rowIndex),
      group.map((o) => o.ok),
      group.map((o) => (o.ok ? o.renderId : null)),
      group.map((o) => (o.ok ? o.outputKey : null)),
      group.map((o) => (o.ok ? null : storableText(o.error))),
    ],
  );
  if (changed.rows.length === 0) return 0;

  const writes = planWrites(context, group, changed.rows, locked.rows[0]?.held ?? 0);
  const now = new Date().toISOString();
  let result: pg.QueryResult<{ account_ok: boolean; holds_ok: boolean }>;
  try {
    result = await client.query(
      `WITH entries AS (
         INSERT INTO ledger (kind, amount, render_id, batch_id, row_index, note, api_key_id, created_at)
         SELECT e.kind, 1, e.render_id, $1, e.row_index, e.note, e.api_key_id, $12::timestamptz
         FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[])
           WITH ORDINALITY AS e (kind, render_id, row_index, note, api_key_id, position)
         ORDER BY e.position
         RETURNING 1
       ),
       renders AS (
         INSERT INTO renders (id, template_id, ratio, format, api_key_id, batch_id, row_index,
           output_key, bytes, created_at)
         SELECT s.render_id, $13, $14, $15, $16, $1, s.row_index, s.output_key, s.bytes, $12::timestamptz
         FROM unnest($7::text[], $8::int[], $9::text[], $10::bigint[])
           AS s (render_id, row_index, output_key, bytes)
         RETURNING 1
       ),
       holds AS (
         UPDATE batch_holds SET held = held - $11 WHERE batch_id = $1 AND held >= $11 RETURNING 1
       ),
       account AS (
         UPDATE account SET held = held - $11, debited = debited + $17
         WHERE id = 1 AND held >= $11 RETURNING 1
       ),
       counters AS (
         UPDATE batches SET succeeded = succeeded + $17, failed = failed + $18 WHERE id = $1
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM account) AS account_ok, EXISTS (SELECT 1 FROM holds) AS holds_ok,
              (SELECT COUNT(*) FROM entries) + (SELECT COUNT(*) FROM renders)
                + (SELECT COUNT(*) FROM counters) AS written,
              pg_notify($19, $1)`,
      [
        batchId,
        writes.entries.map((e) => e.kind),
        writes.entries.map((e) => e.renderId),
        writes.entries.map((e) => e.rowIndex),
        writes.entries.map((e) => e.note),
        writes.entries.map((e) => e.apiKeyId),
        writes.successes.map((s) => s.renderId),
        writes.successes.map((s) => s.rowIndex),
        writes.successes.map((s) => s.outputKey),
        writes.successes.map((s) => s.bytes),
        writes.released,
        now,
        context.templateId,
        context.ratio,
        context.format,
        context.apiKeyId,
        writes.successes.length,
        writes.failed,
        BATCH_CHANNEL,
      ],
    );
  } catch (error) {
    if (isUniqueViolation(error, 'ledger_one_debit_per_batch_row')) {
      throw new AppError('conflict', `A row of batch "${batchId}" has already been charged.`);
    }
    throw error;
  }
  const check = result.rows[0];
  if (writes.released > 0 && !(check?.holds_ok && check.account_ok)) {
    throw new Error('The running held totals are below a batch hold; run verifyInvariant().');
  }
  return changed.rows.length;
}

type Success = Extract<RowOutcome, { ok: true }>;

interface EntryPlan {
  kind: 'release' | 'debit';
  renderId: string | null;
  rowIndex: number | null;
  note: string | null;
  apiKeyId: string | null;
}

interface WritePlan {
  entries: EntryPlan[];
  successes: Success[];
  failed: number;
  /** Held credits this group gives back: one per success (settled) and per failure while held. */
  released: number;
}

/**
 * The ledger entries of the changed rows, in the order the embedded store writes them: outcome
 * by outcome, a success turns one held credit into its debit (`release 1` + `debit 1`), a
 * failure gives back one held credit while the batch still holds any, and a success with nothing
 * left to settle is refused (the batch's holds were already given back).
 */
function planWrites(
  context: RowOutcomeContext,
  group: RowOutcome[],
  changedRows: { row_index: number }[],
  heldBefore: number,
): WritePlan {
  const { batchId, apiKeyId } = context;
  const changed = new Set(changedRows.map((row) => row.row_index));
  const plan: WritePlan = { entries: [], successes: [], failed: 0, released: 0 };
  let held = heldBefore;
  for (const outcome of group) {
    if (!changed.has(outcome.rowIndex)) continue;
    if (!outcome.ok) {
      plan.failed += 1;
      if (held > 0) {
        held -= 1;
        plan.released += 1;
        plan.entries.push({
          kind: 'release',
          renderId: null,
          rowIndex: null,
          note: null,
          apiKeyId: null,
        });
      }
      continue;
    }
    if (held < 1) {
      throw new AppError(
        'conflict',
        `Batch "${batchId}" holds no credit for row ${outcome.rowIndex}.`,
      );
    }
    held -= 1;
    plan.released += 1;
    plan.successes.push(outcome);
    const row = { renderId: outcome.renderId, rowIndex: outcome.rowIndex };
    plan.entries.push({ kind: 'release', ...row, note: 'settled', apiKeyId: null });
    plan.entries.push({ kind: 'debit', ...row, note: null, apiKeyId });
  }
  return plan;
}

/** A row listed twice in one group is committed once, as the first listing says. */
function firstPerRow(outcomes: RowOutcome[]): RowOutcome[] {
  const seen = new Set<number>();
  return outcomes.filter((outcome) => {
    if (seen.has(outcome.rowIndex)) return false;
    seen.add(outcome.rowIndex);
    return true;
  });
}
