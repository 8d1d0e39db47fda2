import type { Database } from './open-database.js';

/**
 * Runs a write that needs no power-cut durability (a row lease: after a restart every lease is
 * released anyway) without waiting for its fsync. In WAL mode a commit at synchronous = NORMAL
 * is still atomic and crash-safe for the process; only the sync to disk is left to the next
 * FULL commit (the next row outcome or debit), which syncs the WAL up to and including it.
 */
export function withRelaxedSync<T>(db: Database, write: () => T): T {
  // Inside a caller's transaction the caller's commit decides; the setting cannot change there.
  if (db.inTransaction) return write();
  db.pragma('synchronous = NORMAL');
  try {
    return write();
  } finally {
    db.pragma('synchronous = FULL');
  }
}
