import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { MigrateOptions, MigrateResult } from '../../main/data/migration-plan.js';
import { migratePostgres } from '../../main/data/postgres/migrate.js';
import { closePostgres, openPostgres } from '../../main/data/postgres/open-postgres.js';
import { migrate } from '../../main/store/migrate.js';
import { openDatabase } from '../../main/store/open-database.js';
import type { Database } from '../../main/store/open-database.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

/**
 * Both runners number their steps, pick a target and refuse a database the same way
 * (main/data/migration-plan.ts); each scenario runs on a new, empty database of each store with
 * steps that change nothing but the version.
 */
type RunSteps = (versions: number[], options?: MigrateOptions) => Promise<MigrateResult>;

const implementations = useCoreDataImplementations();
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const stepName = (version: number): string => `step-${version}`;

function sqliteRunner(): RunSteps {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-migrate-'));
  const db: Database = openDatabase(path.join(dir, 'render-desk.db'), { migrateTo: 0 });
  closers.push(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
  });
  return (versions, options) => {
    try {
      const steps = versions.map((version) => ({ version, name: stepName(version), up() {} }));
      return Promise.resolve(migrate(db, steps, options));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

async function postgresRunner(): Promise<RunSteps> {
  const pool: pg.Pool = openPostgres(await implementations.emptyDatabaseUrl(), { max: 2 });
  closers.push(() => closePostgres(pool));
  return (versions, options) => {
    const steps = versions.map((version) => ({
      version,
      name: stepName(version),
      up: () => Promise.resolve(),
    }));
    return migratePostgres(pool, steps, options);
  };
}

const runners: [string, () => Promise<RunSteps>][] = [
  ['sqlite', () => Promise.resolve(sqliteRunner())],
  ['postgres', postgresRunner],
];

describe.each(runners)('the %s migration runner', (_name, open) => {
  it('applies each step once, in order, and nothing when up to date', async () => {
    const run = await open();
    expect(await run([1, 2, 3])).toEqual({ from: 0, to: 3, applied: [1, 2, 3] });
    expect(await run([1, 2, 3])).toEqual({ from: 3, to: 3, applied: [] });
  });

  it('stops at the target and continues from there later', async () => {
    const run = await open();
    expect(await run([1, 2, 3], { to: 2 })).toEqual({ from: 0, to: 2, applied: [1, 2] });
    expect(await run([1, 2, 3])).toEqual({ from: 2, to: 3, applied: [3] });
  });

  it('refuses a list with a gap and a target beyond the list, before touching anything', async () => {
    const run = await open();
    await expect(run([2])).rejects.toThrow('Migration "step-2" has version 2; expected 1.');
    await expect(run([1, 2, 3], { to: 4 })).rejects.toThrow(
      'Cannot migrate to schema version 4: versions run from 0 to 3.',
    );
    expect(await run([1])).toEqual({ from: 0, to: 1, applied: [1] });
  });

  it('never goes back, and refuses a database newer than its list', async () => {
    const run = await open();
    await run([1, 2, 3]);
    await expect(run([1, 2, 3], { to: 1 })).rejects.toThrow(
      'The database is at schema version 3; migrations never go back to 1.',
    );
    await expect(run([1])).rejects.toThrow(
      /^The database is at schema version 3, newer than this app knows \(1\)\. Update Render Desk /,
    );
  });
});
