import type { Migration } from '../migrate.js';

/**
 * A batch's circuit-breaker memory (batch/circuit-breaker.ts): its last row outcomes in the order
 * they were committed ('1' succeeded, '0' failed, newest last) and how many failed in a row. Kept
 * with the batch, so a batch that resumes, and every process drawing it, see the same memory.
 */
export const batchBreakers: Migration = {
  version: 17,
  name: 'batch-breakers',
  up(db) {
    db.exec(`
      CREATE TABLE batch_breakers (
        batch_id TEXT PRIMARY KEY REFERENCES batches (id) ON DELETE CASCADE,
        recent TEXT NOT NULL,
        consecutive INTEGER NOT NULL
      );
    `);
  },
};
