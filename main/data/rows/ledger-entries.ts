import type { LedgerEntry, LedgerKind } from '../types/ledger.js';

/** A ledger row as both stores read it back. */
export interface LedgerEntryRow {
  id: number;
  kind: LedgerKind;
  amount: number;
  render_id: string | null;
  batch_id: string | null;
  row_index: number | null;
  note: string | null;
  created_at: string;
}

export function toLedgerEntry(row: LedgerEntryRow): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    renderId: row.render_id,
    batchId: row.batch_id,
    rowIndex: row.row_index,
    note: row.note,
    createdAt: row.created_at,
  };
}
