import type { LedgerRepository } from '../store/ledger-repository.js';
import { Errors } from '../../shared/errors.js';

/**
 * Credits promised to single renders that are still drawing. The process is the only writer, so
 * an in-memory count is exact: twenty parallel renders against one credit give one success and
 * nineteen 402s without drawing nineteen images for nothing. The ledger's own conditional debit
 * remains the last word.
 */
export class CreditReservations {
  private pending = 0;

  constructor(private readonly ledger: LedgerRepository) {}

  /** Reserves `amount` or throws 402; call the returned function exactly once. */
  reserve(amount = 1): () => void {
    const { balance } = this.ledger.account();
    if (balance - this.pending < amount) {
      throw Errors.insufficientCredits(amount, Math.max(0, balance - this.pending));
    }
    this.pending += amount;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.pending -= amount;
    };
  }

  get reserved(): number {
    return this.pending;
  }
}
