import { AppError } from '../../../shared/errors.js';
import type { CreditTotals } from '../types/ledger.js';

/** The credit ledger's rules, the same in both stores; the balance checks themselves are SQL. */

export function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new RangeError(`A credit amount must be a positive integer, not ${amount}.`);
  }
}

/** Spendable now: granted − debited − held. */
export function balanceOf(totals: CreditTotals): number {
  return totals.granted - totals.debited - totals.held;
}

/**
 * How much a release gives back of the `held` credits of a batch: `amount`, or all it holds when
 * no amount is given. Refuses (409) to release more than the batch holds.
 */
export function releaseAmount(batchId: string, held: number, amount: number | undefined): number {
  const toRelease = amount ?? held;
  if (amount !== undefined) checkAmount(amount);
  if (toRelease > held) {
    throw new AppError(
      'conflict',
      `Batch "${batchId}" holds ${held} credit${held === 1 ? '' : 's'}; cannot release ${toRelease}.`,
    );
  }
  return toRelease;
}

/** A render's debit written twice (the ledger's unique index on debits refused it). */
export function alreadyCharged(renderId: string): AppError {
  return new AppError('conflict', `Render "${renderId}" has already been charged.`);
}

/** The account's running held total is smaller than a batch's: the ledger needs a look. */
export function heldTotalBelowBatch(): Error {
  return new Error('The running held total is below a batch hold; run verifyInvariant().');
}

/** What differs between the totals the entries add up to and the running totals. */
export function totalsProblems(fromEntries: CreditTotals, running: CreditTotals): string[] {
  const problems: string[] = [];
  for (const field of ['granted', 'debited', 'held'] as const) {
    if (fromEntries[field] !== running[field]) {
      problems.push(
        `${field}: entries say ${fromEntries[field]}, running total says ${running[field]}`,
      );
    }
  }
  if (balanceOf(running) < 0) problems.push(`balance is negative (${balanceOf(running)})`);
  return problems;
}
