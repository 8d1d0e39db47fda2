import { sqlMigration } from '../migrate.js';

/**
 * A batch's circuit-breaker memory, shared by every worker drawing it (SQLite version 17): its
 * last row outcomes in commit order ('1' succeeded, '0' failed) and its run of failures.
 */
export const batchBreakers = sqlMigration(
  11,
  'batch-breakers',
  `
      CREATE TABLE batch_breakers (
        batch_id text COLLATE "C" PRIMARY KEY REFERENCES batches (id) ON DELETE CASCADE,
        recent text NOT NULL,
        consecutive integer NOT NULL
      )
    `,
);
