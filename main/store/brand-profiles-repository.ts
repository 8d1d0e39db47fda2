import type { z } from 'zod';
import { BrandProfile, EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import { AppError, Errors } from '../../shared/errors.js';
import type { Problem } from '../../shared/errors.js';
import { newId } from '../data/ids.js';
import type { BrandProfileRecord, BrandProfilesRepository } from '../data/types/brand-profiles.js';
import type { Database } from './open-database.js';

const DEFAULT_NAME = 'Default';
const MAX_NAME_LENGTH = 120;

interface BrandRow {
  id: string;
  name: string;
  is_default: number;
  data: string;
  created_at: string;
  updated_at: string;
}

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
    (): BrandRow => selectDefault.get() ?? insertProfile(DEFAULT_NAME, EMPTY_BRAND_PROFILE, true),
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

function parseProfile(input: unknown): BrandProfile {
  const result = BrandProfile.safeParse(input);
  if (!result.success) throw Errors.validation(toProblems(result.error));
  return result.data;
}

function checkName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH) {
    throw Errors.validation([
      { path: 'name', message: `must be 1 to ${MAX_NAME_LENGTH} characters` },
    ]);
  }
  return trimmed;
}

function toProblems(error: z.ZodError): Problem[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
}

function toRecord(row: BrandRow): BrandProfileRecord {
  // Validated on read too: a row written by an older version or edited by hand must not reach
  // the renderer unchecked. A bad row is reported, never silently replaced by an empty profile.
  const result = BrandProfile.safeParse(JSON.parse(row.data));
  if (!result.success) {
    throw new AppError(
      'internal',
      `The stored brand profile "${row.name}" (${row.id}) is invalid: ` +
        toProblems(result.error)
          .map((p) => `${p.path}: ${p.message}`)
          .join('; '),
    );
  }
  return {
    id: row.id,
    name: row.name,
    isDefault: row.is_default === 1,
    profile: result.data,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
