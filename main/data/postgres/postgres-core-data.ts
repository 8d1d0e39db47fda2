import type pg from 'pg';
import type { CoreData } from '../core-data.js';
import { postgresAccountCommands } from './account-commands.js';
import { postgresApiKeys } from './api-keys-repository.js';
import { postgresBatchCommands } from './batch-commands.js';
import { postgresBatchReads } from './batch-reads.js';
import { postgresBrandProfiles } from './brand-profiles-repository.js';
import { postgresIdempotency } from './idempotency-repository.js';
import { postgresLedger } from './ledger-repository.js';
import { closePostgres } from './open-postgres.js';
import { postgresRenders } from './renders-repository.js';
import { postgresSettings } from './settings-repository.js';
import { postgresSubscription } from './subscription-repository.js';
import { postgresUploads } from './uploads-repository.js';
import { postgresWebhooks } from './webhooks-repository.js';

/**
 * Cluster mode: the core's data on PostgreSQL, shared by every API and worker node. The pool's
 * database must be migrated first (migratePostgres with POSTGRES_MIGRATIONS). close() ends the
 * pool, so the pool belongs to the CoreData from here on.
 */
export function postgresCoreData(pool: pg.Pool): CoreData {
  return {
    kind: 'postgres',
    // One transaction (a round trip and a WAL flush) per group; many workers commit at once.
    commitGroup: { rows: 50, windowMs: 100 },
    settings: postgresSettings(pool),
    apiKeys: postgresApiKeys(pool),
    ledger: postgresLedger(pool),
    idempotency: postgresIdempotency(pool),
    renders: postgresRenders(pool),
    brandProfiles: postgresBrandProfiles(pool),
    subscription: postgresSubscription(pool),
    uploads: postgresUploads(pool),
    webhooks: postgresWebhooks(pool),
    batches: postgresBatchReads(pool),
    commands: { ...postgresBatchCommands(pool), ...postgresAccountCommands(pool) },
    close: () => closePostgres(pool),
  };
}
