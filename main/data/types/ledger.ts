export const LEDGER_KINDS = ['grant', 'debit', 'hold', 'release'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  amount: number;
  renderId: string | null;
  batchId: string | null;
  rowIndex: number | null;
  note: string | null;
  createdAt: string;
  /** A grouped batch line (`group: 'batch'`): how many entries it sums. */
  entryCount?: number;
  /** A grouped batch line: what the batch still holds. */
  heldCredits?: number;
}

export interface AccountTotals {
  /** Spendable now: granted − debited − held. Never negative. */
  balance: number;
  heldCredits: number;
  granted: number;
  debited: number;
}

export interface LedgerPage {
  entries: LedgerEntry[];
  /** The next page's cursor (an entry id, as a string), or null on the last page. */
  nextCursor: string | null;
}

export interface LedgerListOptions {
  cursor?: number | string | null;
  limit?: number;
  kind?: string;
  apiKeyId?: string;
  group?: 'batch';
}

/** The running totals of the account (and what the ledger's entries add up to). */
export interface CreditTotals {
  granted: number;
  debited: number;
  held: number;
}

export interface InvariantReport {
  ok: boolean;
  problems: string[];
  /** Totals recomputed from the ledger rows. */
  fromEntries: CreditTotals;
  /** The running totals kept in `account`. */
  running: CreditTotals;
}

/**
 * The credit ledger as services read and adjust it. Charges (a render's debit, a batch's hold
 * and its rows' settlements) commit with what they pay for, so they are DataCommands instead.
 */
export interface CreditLedger {
  account(): AccountTotals;
  grant(amount: number, options?: { note?: string | null; apiKeyId?: string | null }): LedgerEntry;
  /** Releases `amount` held credits of the batch (default: all it holds); returns the amount. */
  release(input: { batchId: string; amount?: number; note?: string | null }): number;
  heldFor(batchId: string): number;
  /**
   * Newest first; `cursor` is a previous page's nextCursor. With `apiKeyId`, only that key's
   * renders and the entries of its batches; with `group: 'batch'`, one line per batch.
   */
  list(options?: LedgerListOptions): LedgerPage;
  /** Recomputes the totals from the entries and compares them with the running totals. */
  verifyInvariant(): InvariantReport;
}
