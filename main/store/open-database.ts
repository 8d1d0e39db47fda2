import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';

export type Database = BetterSqlite3.Database;

export interface OpenDatabaseOptions {
  /** Stop at this schema version (tests migrate to N−1, seed, then to N). Default: the latest. */
  migrateTo?: number;
}

/**
 * Opens (creating if needed) the SQLite file and brings its schema up to date.
 * The pragmas are connection settings, so they are applied on every open, not once.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file, { timeout: 5000 });
  try {
    db.pragma('journal_mode = WAL');
    // better-sqlite3's SQLite reopens WAL databases at NORMAL, which may lose the last commits on
    // a power cut; the credit ledger must not, so FULL is set on every open.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, MIGRATIONS, { to: options.migrateTo });
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * True for SQLITE_BUSY / SQLITE_LOCKED after the busy timeout: the caller should answer
 * 503 + Retry-After rather than 500, since nothing was written.
 */
export function isDatabaseBusy(error: unknown): boolean {
  if (!(error instanceof BetterSqlite3.SqliteError)) return false;
  return error.code.startsWith('SQLITE_BUSY') || error.code.startsWith('SQLITE_LOCKED');
}

/** True when a statement broke a UNIQUE or PRIMARY KEY constraint. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof BetterSqlite3.SqliteError &&
    (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}
