import type pg from 'pg';
import type { AsyncPort } from '../async-port.js';
import type { SettingsRepository } from '../types/settings.js';
import type { Queryable } from './transaction.js';

export type PostgresSettings = AsyncPort<SettingsRepository>;

export async function readSetting(db: Queryable, key: string): Promise<string | null> {
  const result = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [
    key,
  ]);
  return result.rows[0]?.value ?? null;
}

export async function writeSetting(db: Queryable, key: string, value: string): Promise<void> {
  await db.query(
    `INSERT INTO settings (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [key, value],
  );
}

/** Settings shared by every node (cluster settings included). */
export function postgresSettings(pool: pg.Pool): PostgresSettings {
  return {
    get: (key) => readSetting(pool, key),
    set: (key, value) => writeSetting(pool, key, value),
    async getOrCreate(key, create) {
      const existing = await readSetting(pool, key);
      if (existing !== null) return existing;
      await pool.query(
        'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
        [key, create()],
      );
      // Re-read: when another node stored a value first, its value wins and must be returned.
      return (await readSetting(pool, key)) as string;
    },
    async remove(key) {
      const result = await pool.query('DELETE FROM settings WHERE key = $1', [key]);
      return result.rowCount === 1;
    },
  };
}
