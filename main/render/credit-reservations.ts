import { Errors } from '../../shared/errors.js';

/**
 * Credits promised to single renders that are still drawing on this node. Twenty parallel
 * renders against one credit give one success and nineteen 402s without drawing nineteen images
 * for nothing. The ledger's own conditional debit remains the last word (in a cluster, other API
 * nodes reserve on their own, and the debit settles who got the last credit).
 */
export class CreditReservations {
  private pending = 0;

  constructor(private readonly balance: () => Promise<number>) {}

  /** Reserves `amount` or throws 402; call the returned function exactly once. */
  async reserve(amount = 1): Promise<() => void> {
    const balance = await this.balance();
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
