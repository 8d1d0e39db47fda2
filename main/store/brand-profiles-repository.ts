import { EMPTY_BRAND_PROFILE, type BrandProfile } from '../../shared/brand-profile.js';
import { AppError, Errors } from '../../shared/errors.js';
import { newId } from '../data/ids.js';
import { jsonText } from '../data/rows/json-column.js';
import { toBrandRecord, type BrandProfileRow } from '../data/rows/brand-profile-rows.js';
import { checkName, DEFAULT_BRAND_NAME, parseProfile } from '../data/rules/brand-profile-rules.js';
import type { BrandProfileRecord, BrandProfilesRepository } from '../data/types/brand-profiles.js';
import type { Database } from './open-database.js';

type BrandRow = BrandProfileRow & { is_default: number; data: string };

const toRecord = (row: BrandRow): BrandProfileRecord => toBrandRecord(row, jsonText);

export function createBrandProfilesRepository(db: Database): BrandProfilesRepository {
  const selectDefault = db.prepare<[], BrandRow>(
    'SELECT * FROM brand_profiles WHERE is_default = 1',
  );
  const selectById = db.prepare<[string], BrandRow>('SELECT * FROM brand_profiles WHERE id = ?');
  const selectAll = db.prepare<[], BrandRow>(
    'SELECT * FROM brand_profiles ORDER BY is_default DESC, name COLLATE NOCASE, id',
  );
  const insert = db.prepare(
    `INSERT INTO brand_profiles (id, name, is_default, data, created_at, updated_at)
     VALUES (@id, @name, @is_default, @data, @created_at, @updated_at)`,
  );
  const updateData = db.prepare<[string, string, string, string]>(
    'UPDATE brand_profiles SET data = ?, name = ?, updated_at = ? WHERE id = ?',
  );
  const clearDefault = db.prepare('UPDATE brand_profiles SET is_default = 0 WHERE is_default = 1');
  const markDefault = db.prepare<[string, string]>(
    'UPDATE brand_profiles SET is_default = 1, updated_at = ? WHERE id = ?',
  );
  const deleteNamed = db.prepare<[string]>(
    'DELETE FROM brand_profiles WHERE id = ? AND is_default = 0',
  );

  const insertProfile = (name: string, profile: BrandProfile, isDefault: boolean): BrandRow => {
    const at = new Date().toISOString();
    const row: BrandRow = {
      id: newId('brand'),
      name,
      is_default: isDefault ? 1 : 0,
      data: JSON.stringify(profile),
      created_at: at,
      updated_at: at,
    };
    insert.run(row);
    return row;
  };

  const ensureDefault = db.transaction(
    (): BrandRow =>
      selectDefault.get() ?? insertProfile(DEFAULT_BRAND_NAME, EMPTY_BRAND_PROFILE, true),
  );

  const update = db.transaction((id: string, profile: BrandProfile, name?: string): BrandRow => {
    const row = selectById.get(id);
    if (!row) throw Errors.notFound('brand profile', id);
    updateData.run(JSON.stringify(profile), name ?? row.name, new Date().toISOString(), id);
    return selectById.get(id) as BrandRow;
  });

  const putDefault = db.transaction((profile: BrandProfile): BrandRow => {
    const row = ensureDefault();
    return update(row.id, profile);
  });

  const remove = db.transaction((id: string): boolean => {
    const row = selectById.get(id);
    if (!row) return false;
    if (row.is_default === 1) {
      throw new AppError(
        'conflict',
        'The default brand cannot be removed; make another brand the default first.',
      );
    }
    return deleteNamed.run(id).changes === 1;
  });

  const setDefault = db.transaction((id: string): BrandRow => {
    if (!selectById.get(id)) throw Errors.notFound('brand profile', id);
    // Clear first: the partial unique index allows one default at any moment, even mid-transaction.
    clearDefault.run();
    markDefault.run(new Date().toISOString(), id);
    return selectById.get(id) as BrandRow;
  });

  return {
    // Read without a write lock (renders call this often); only the first call writes.
    getDefault: () => toRecord(selectDefault.get() ?? ensureDefault.immediate()),
    putDefault: (profile) => toRecord(putDefault.immediate(parseProfile(profile))),
    list() {
      // A fresh store lists its default brand too, as getDefault() would answer it.
      if (!selectDefault.get()) ensureDefault.immediate();
      return selectAll.all().map(toRecord);
    },
    get(id) {
      const row = selectById.get(id);
      return row ? toRecord(row) : null;
    },
    create: (name, profile) =>
      toRecord(insertProfile(checkName(name), parseProfile(profile), false)),
    update: (id, profile, name) =>
      toRecord(
        update.immediate(
          id,
          parseProfile(profile),
          name === undefined ? undefined : checkName(name),
        ),
      ),
    remove: (id) => remove.immediate(id),
    setDefault: (id) => toRecord(setDefault.immediate(id)),
  };
}
