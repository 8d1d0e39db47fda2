import { describe, expect, it } from 'vitest';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import { AppError } from '../../shared/errors.js';
import { useTempDirs } from './temp-dir.js';

const { tempStore } = useTempDirs();

describe('brand profiles repository', () => {
  it('creates an empty default profile on first read, and only once', () => {
    const { brandProfiles } = tempStore();
    const first = brandProfiles.getDefault();
    expect(first).toMatchObject({ name: 'Default', isDefault: true, profile: EMPTY_BRAND_PROFILE });
    expect(first.id).toMatch(/^brand_/);
    expect(brandProfiles.getDefault().id).toBe(first.id);
    expect(brandProfiles.list()).toHaveLength(1);
  });

  it('replaces the default profile with validated data, filling defaults', () => {
    const { brandProfiles } = tempStore();
    const saved = brandProfiles.putDefault({ name: 'Phở Hà Nội', colours: { primary: '#C8102E' } });
    expect(saved.profile.name).toBe('Phở Hà Nội');
    expect(saved.profile.colours.primary).toBe('#C8102E');
    expect(saved.profile.fonts).toEqual({ heading: null, body: null });
    expect(brandProfiles.getDefault().profile).toEqual(saved.profile);
  });

  it('rejects invalid profiles with located problems and keeps the stored one', () => {
    const { brandProfiles } = tempStore();
    brandProfiles.putDefault({ name: 'Acme' });
    try {
      brandProfiles.putDefault({ name: 'Acme', colours: { primary: 'red' }, extra: 1 });
      throw new Error('expected a validation error');
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const appError = error as AppError;
      expect(appError.code).toBe('validation-failed');
      const paths = appError.problems?.map((p) => p.path) ?? [];
      expect(paths).toContain('colours.primary');
    }
    expect(brandProfiles.getDefault().profile.name).toBe('Acme');
  });

  it('keeps named profiles beside the default and switches the default', () => {
    const { brandProfiles } = tempStore();
    const original = brandProfiles.getDefault();
    const summer = brandProfiles.create('  Summer sale ', { tagline: 'Hot deals' });
    expect(summer).toMatchObject({ name: 'Summer sale', isDefault: false });
    expect(brandProfiles.get(summer.id)?.profile.tagline).toBe('Hot deals');

    const updated = brandProfiles.update(summer.id, { tagline: 'Hotter deals' }, 'Summer');
    expect(updated).toMatchObject({ name: 'Summer', profile: { tagline: 'Hotter deals' } });

    brandProfiles.setDefault(summer.id);
    expect(brandProfiles.getDefault().id).toBe(summer.id);
    expect(brandProfiles.get(original.id)?.isDefault).toBe(false);
    expect(brandProfiles.list().map((p) => p.id)).toEqual([summer.id, original.id]);
  });

  it('removes named profiles but not the default, and reports missing ids', () => {
    const { brandProfiles } = tempStore();
    const fallback = brandProfiles.getDefault();
    const other = brandProfiles.create('Other', {});
    expect(() => brandProfiles.remove(fallback.id)).toThrow(/cannot be removed/);
    expect(brandProfiles.remove(other.id)).toBe(true);
    expect(brandProfiles.remove(other.id)).toBe(false);
    expect(brandProfiles.get(other.id)).toBeNull();
    expect(() => brandProfiles.update('brand_missing', {})).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );
    expect(() => brandProfiles.setDefault('brand_missing')).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );
    expect(() => brandProfiles.create('', {})).toThrow(AppError);
  });

  it('validates stored data on read instead of trusting the row', () => {
    const store = tempStore();
    const { id } = store.brandProfiles.getDefault();
    store.db
      .prepare('UPDATE brand_profiles SET data = ? WHERE id = ?')
      .run('{"colours":{"primary":"not a colour"}}', id);
    expect(() => store.brandProfiles.getDefault()).toThrow(/is invalid: colours.primary/);
  });
});
