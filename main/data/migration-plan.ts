/**
 * What both migration runners check before and after they read the database's version: the
 * SQLite store (migrate) and PostgreSQL (migratePostgres) apply their own steps their own way,
 * but number them, pick a target and refuse a database the same way.
 */

/** One schema step, as both runners number them. Released steps are never edited. */
export interface MigrationStep {
  version: number;
  name: string;
}

export interface MigrateOptions {
  /** Target version; default the last migration's. */
  to?: number | undefined;
}

export interface MigrateResult {
  from: number;
  to: number;
  applied: number[];
}

/** The list checked (versions 1, 2, 3 … in order) and the version to migrate to. */
export interface MigrationPlan {
  latest: number;
  target: number;
}

export function planMigrations(
  migrations: readonly MigrationStep[],
  options: MigrateOptions,
): MigrationPlan {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(
        `Migration "${migration.name}" has version ${migration.version}; expected ${index + 1}.`,
      );
    }
  });
  const latest = migrations.length;
  const target = options.to ?? latest;
  if (!Number.isInteger(target) || target < 0 || target > latest) {
    throw new Error(
      `Cannot migrate to schema version ${target}: versions run from 0 to ${latest}.`,
    );
  }
  return { latest, target };
}

/**
 * Refuses a database at version `from` that this list cannot migrate: one written by a newer
 * version (`updateHint` says what to update), or one already past the target.
 */
export function checkStartingVersion(from: number, plan: MigrationPlan, updateHint: string): void {
  if (from > plan.latest) {
    throw new Error(
      `The database is at schema version ${from}, newer than this app knows (${plan.latest}). ` +
        updateHint,
    );
  }
  if (from > plan.target) {
    throw new Error(
      `The database is at schema version ${from}; migrations never go back to ${plan.target}.`,
    );
  }
}

/** The steps to apply, in order: after `from`, up to the target. */
export function pendingMigrations<M extends MigrationStep>(
  migrations: readonly M[],
  from: number,
  plan: MigrationPlan,
): M[] {
  return migrations.filter((m) => m.version > from && m.version <= plan.target);
}
