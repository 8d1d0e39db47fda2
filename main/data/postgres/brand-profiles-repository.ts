import type pg from 'pg';
import { EMPTY_BRAND_PROFILE, type BrandProfile } from '../../../shared/brand-profile.js';
import { AppError, Errors } from '../../../shared/errors.js';
import type { AsyncPort } from '../async-port.js';
import { toBrandRecord, type BrandProfileRow } from '../rows/brand-profile-rows.js';
import { jsonParsed } from '../rows/json-column.js';
import { checkName, DEFAULT_BRAND_NAME, parseProfile } from '../rules/brand-profile-rules.js';
import type { BrandProfileRecord, BrandProfilesRepository } from '../types/brand-profiles.js';
import { newId } from '../ids.js';
import { inTransaction } from './transaction.js';
import type { Queryable } from './transaction.js';

export type PostgresBrandProfiles = AsyncPort<BrandProfilesRepository>;

/** Serialises changes of which profile is the default (a transaction-scoped advisory lock). */
const DEFAULT_CHANGE_LOCK = 0x5244_0101;

type BrandRow = BrandProfileRow & { is_default: boolean };

const toRecord = (row: BrandRow): BrandProfileRecord => toBrandRecord(row, jsonParsed);

async function one(db: Queryable, sql: string, values: unknown[] = []): Promise<BrandRow | null> {
  const result = await db.query<BrandRow>(sql, values);
  return result.rows[0] ?? null;
}

const selectDefault = (db: Queryable): Promise<BrandRow | null> =>
  one(db, 'SELECT * FROM brand_profiles WHERE is_default');
const selectById = (db: Queryable, id: string): Promise<BrandRow | null> =>
  one(db, 'SELECT * FROM brand_profiles WHERE id = $1', [id]);

async function insertProfile(
  db: Queryable,
  name: string,
  profile: BrandProfile,
  isDefault: boolean,
): Promise<BrandRow | null> {
  const at = new Date().toISOString();
  // ON CONFLICT: when two nodes create the default at once, one insert wins and one is skipped.
  return one(
    db,
    `INSERT INTO brand_profiles (id, name, is_default, data, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (is_default) WHERE is_default DO NOTHING
     RETURNING *`,
    [newId('brand'), name, isDefault, JSON.stringify(profile), at],
  );
}

/** The default profile, created empty on first use (by whichever node gets there first). */
async function ensureDefault(db: Queryable): Promise<BrandRow> {
  const row =
    (await selectDefault(db)) ??
    (await insertProfile(db, DEFAULT_BRAND_NAME, EMPTY_BRAND_PROFILE, true)) ??
    (await selectDefault(db));
  if (!row) throw new Error('The default brand profile could not be created.');
  return row;
}

async function updateProfile(
  client: pg.PoolClient,
  id: string,
  profile: BrandProfile,
  name?: string,
): Promise<BrandRow> {
  const row = await one(
    client,
    `UPDATE brand_profiles SET data = $1, name = COALESCE($2, name), updated_at = $3
     WHERE id = $4 RETURNING *`,
    [JSON.stringify(profile), name ?? null, new Date().toISOString(), id],
  );
  if (!row) throw Errors.notFound('brand profile', id);
  return row;
}

/** Named brand profiles, at most one of them the default, shared by every node. */
export function postgresBrandProfiles(pool: pg.Pool): PostgresBrandProfiles {
  return {
    getDefault: async () => toRecord(await ensureDefault(pool)),
    async putDefault(input) {
      const profile = parseProfile(input);
      return toRecord(
        await inTransaction(pool, async (client) => {
          await client.query('SELECT pg_advisory_xact_lock($1)', [DEFAULT_CHANGE_LOCK]);
          return updateProfile(client, (await ensureDefault(client)).id, profile);
        }),
      );
    },
    async list() {
      // A fresh database lists its default brand too, as getDefault() would answer it.
      await ensureDefault(pool);
      const result = await pool.query<BrandRow>(
        'SELECT * FROM brand_profiles ORDER BY is_default DESC, lower(name), id',
      );
      return result.rows.map(toRecord);
    },
    async get(id) {
      const row = await selectById(pool, id);
      return row ? toRecord(row) : null;
    },
    async create(name, input) {
      const row = await insertProfile(pool, checkName(name), parseProfile(input), false);
      return toRecord(row as BrandRow);
    },
    async update(id, input, name) {
      const profile = parseProfile(input);
      const checked = name === undefined ? undefined : checkName(name);
      return toRecord(
        await inTransaction(pool, (client) => updateProfile(client, id, profile, checked)),
      );
    },
    remove: (id) =>
      inTransaction(pool, async (client) => {
        const row = await one(client, 'SELECT * FROM brand_profiles WHERE id = $1 FOR UPDATE', [
          id,
        ]);
        if (!row) return false;
        if (row.is_default) {
          throw new AppError(
            'conflict',
            'The default brand cannot be removed; make another brand the default first.',
          );
        }
        const deleted = await client.query(
          'DELETE FROM brand_profiles WHERE id = $1 AND NOT is_default',
          [id],
        );
        return deleted.rowCount === 1;
      }),
    async setDefault(id) {
      return toRecord(
        await inTransaction(pool, async (client) => {
          // Each statement after the lock sees the default another node set just before.
          await client.query('SELECT pg_advisory_xact_lock($1)', [DEFAULT_CHANGE_LOCK]);
          if (!(await selectById(client, id))) throw Errors.notFound('brand profile', id);
          // Clear first: the partial unique index allows one default at any moment.
          await client.query('UPDATE brand_profiles SET is_default = false WHERE is_default');
          const row = await one(
            client,
            'UPDATE brand_profiles SET is_default = true, updated_at = $1 WHERE id = $2 RETURNING *',
            [new Date().toISOString(), id],
          );
          return row as BrandRow;
        }),
      );
    },
  };
}
