import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeAll, expect } from 'vitest';
import type { CoreData } from '../../main/data/core-data.js';
import { migratePostgres } from '../../main/data/postgres/migrate.js';
import { POSTGRES_MIGRATIONS } from '../../main/data/postgres/migrations/index.js';
import { closePostgres, openPostgres } from '../../main/data/postgres/open-postgres.js';
import { postgresCoreData } from '../../main/data/postgres/postgres-core-data.js';
import { sqliteCoreData } from '../../main/data/sqlite-core-data.js';
import { createStore } from '../../main/store/create-store.js';
import { startPostgres, useServiceScope } from '../helpers/cluster-services.js';
import type { PostgresService } from '../helpers/cluster-services.js';

export type ImplementationName = 'sqlite' | 'postgres';

/** A fresh, empty CoreData of one implementation (closed after the test). */
export type OpenCoreData = () => Promise<CoreData>;

export interface CoreDataImplementations {
  /** For `describe.each`: each implementation's name and its opener. */
  all: [ImplementationName, OpenCoreData][];
  /** The file's PostgreSQL server (started before the file's tests). */
  postgres(): PostgresService;
  /** A new, migrated database on that server; its URL (for tests that need raw connections). */
  freshDatabaseUrl(): Promise<string>;
}

const TEMPLATE_DATABASE = 'core_data_template';

/**
 * The contract suite runs every scenario against both stores: SQLite in a temp folder (embedded
 * mode) and a real PostgreSQL server this file starts (cluster mode). Each test gets a database
 * of its own, copied from a migrated template, so tests share nothing.
 */
export function useCoreDataImplementations(): CoreDataImplementations {
  const scope = useServiceScope();
  let server: PostgresService | undefined;
  let databases = 0;
  const opened: CoreData[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    server = await startPostgres(scope);
    await withAdmin(server, async (admin) => {
      await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE} OWNER render`);
    });
    const pool = openPostgres(databaseUrl(server.url, TEMPLATE_DATABASE), { max: 1 });
    try {
      await migratePostgres(pool, POSTGRES_MIGRATIONS);
    } finally {
      await closePostgres(pool);
    }
  }, 120_000);

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((data) => data.close()));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  const postgres = (): PostgresService => {
    if (!server) throw new Error('PostgreSQL has not started (beforeAll failed?).');
    return server;
  };

  const freshDatabaseUrl = async (): Promise<string> => {
    const service = postgres();
    databases += 1;
    const name = `core_data_${process.pid}_${databases}`;
    await withAdmin(service, async (admin) => {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE} OWNER render`);
    });
    return databaseUrl(service.url, name);
  };

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
    postgres,
    freshDatabaseUrl,
  };
}

function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withAdmin(
  server: PostgresService,
  use: (admin: pg.Client) => Promise<void>,
): Promise<void> {
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await use(admin);
  } finally {
    await admin.end();
  }
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
