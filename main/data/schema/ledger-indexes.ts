/**
 * The ledger's indexes, the same in SQLite and PostgreSQL (SQLite's store and the cluster's
 * initial migrations both create them): a render is debited at most once and so is a batch row,
 * whatever retries happen, and a batch's entries and each kind's are found without a scan.
 *
 * Part of released migrations: never edit it. The text is laid out as it stands in those
 * migrations (SQLite keeps a CREATE statement's text as written).
 */
export const LEDGER_INDEXES = `CREATE UNIQUE INDEX ledger_one_debit_per_render
        ON ledger (render_id) WHERE kind = 'debit' AND render_id IS NOT NULL;
      CREATE UNIQUE INDEX ledger_one_debit_per_batch_row
        ON ledger (batch_id, row_index)
        WHERE kind = 'debit' AND batch_id IS NOT NULL AND row_index IS NOT NULL;
      CREATE INDEX ledger_by_batch ON ledger (batch_id) WHERE batch_id IS NOT NULL;
      CREATE INDEX ledger_by_kind ON ledger (kind, id);`;
