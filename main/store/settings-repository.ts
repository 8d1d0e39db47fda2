import type { SettingsRepository } from '../data/types/settings.js';
import type { Database } from './open-database.js';

export function createSettingsRepository(db: Database): SettingsRepository {
  const select = db.prepare<[string], { value: string }>(
    'SELECT value FROM settings WHERE key = ?',
  );
  const upsert = db.prepare<[string, string]>(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const insertIfAbsent = db.prepare<[string, string]>(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
  );
  const del = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');

  const get = (key: string): string | null => select.get(key)?.value ?? null;

  const getOrCreate = db.transaction((key: string, create: () => string): string => {
    const existing = get(key);
    if (existing !== null) return existing;
    insertIfAbsent.run(key, create());
    // Re-read: under ON CONFLICT DO NOTHING another writer's value wins and must be returned.
    return get(key) as string;
  });

  return {
    get,
    set: (key, value) => {
      upsert.run(key, value);
    },
    getOrCreate: (key, create) => get(key) ?? getOrCreate.immediate(key, create),
    remove: (key) => del.run(key).changes === 1,
  };
}
