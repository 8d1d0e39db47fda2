import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { CoreData } from '../../main/data/core-data.js';
import { openPostgres } from '../../main/data/postgres/open-postgres.js';
import { postgresCoreData } from '../../main/data/postgres/postgres-core-data.js';
import { sqliteCoreData } from '../../main/data/sqlite-core-data.js';
import { createStore } from '../../main/store/create-store.js';
import { sharedPostgresDatabase } from '../helpers/services/shared-services.js';

export type ImplementationName = 'sqlite' | 'postgres';

/** A fresh, empty CoreData of one implementation (closed after the test). */
export type OpenCoreData = () => Promise<CoreData>;

export interface CoreDataImplementations {
  /** For `describe.each`: each implementation's name and its opener. */
  all: [ImplementationName, OpenCoreData][];
  /** A new, migrated database on the run's PostgreSQL; its URL (for tests needing raw connections). */
  freshDatabaseUrl(): Promise<string>;
  /** A new database with no schema at all (migration tests); its URL. */
  emptyDatabaseUrl(): Promise<string>;
}

/**
 * The contract suite runs every scenario against both stores: SQLite in a temp folder (embedded
 * mode) and the run's real PostgreSQL server (cluster mode, tests/helpers/services/
 * shared-services.ts). Each test gets a database of its own, copied from a migrated template, so
 * tests share nothing.
 */
export function useCoreDataImplementations(): CoreDataImplementations {
  const opened: CoreData[] = [];
  const dirs: string[] = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((data) => data.close()));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const freshDatabaseUrl = async (): Promise<string> =>
    (await sharedPostgresDatabase({ migrated: true })).url;
  const emptyDatabaseUrl = async (): Promise<string> => (await sharedPostgresDatabase()).url;

  const openSqlite: OpenCoreData = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-core-data-'));
    dirs.push(dir);
    const data = sqliteCoreData(createStore(dir));
    opened.push(data);
    return Promise.resolve(data);
  };

  const openPostgresData: OpenCoreData = async () => {
    const data = postgresCoreData(openPostgres(await freshDatabaseUrl(), { max: 4 }));
    opened.push(data);
    return data;
  };

  return {
    all: [
      ['sqlite', openSqlite],
      ['postgres', openPostgresData],
    ],
    freshDatabaseUrl,
    emptyDatabaseUrl,
  };
}

/**
 * Every scenario ends here: the running totals agree with the ledger's entries, and the balance
 * is grants − debits − open holds.
 */
export async function expectBalanced(data: CoreData): Promise<void> {
  const report = await data.ledger.verifyInvariant();
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
  const account = await data.ledger.account();
  const { granted, debited, held } = report.fromEntries;
  expect(account).toEqual({
    balance: granted - debited - held,
    heldCredits: held,
    granted,
    debited,
  });
}
