import { describe, expect, it } from 'vitest';
import { EMPTY_BRAND_PROFILE } from '../../shared/brand-profile.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)(
  'settings, keys, brands, subscription and uploads on %s',
  (_name, open) => {
    it('stores settings, and getOrCreate keeps the first value', async () => {
      const data = await open();
      expect(await data.settings.get('cluster.queue')).toBeNull();
      await data.settings.set('cluster.queue', 'redis://127.0.0.1:6379');
      await data.settings.set('cluster.queue', 'redis://127.0.0.1:6380');
      expect(await data.settings.get('cluster.queue')).toBe('redis://127.0.0.1:6380');
      expect(await data.settings.getOrCreate('bundle.secret', () => 'first')).toBe('first');
      expect(await data.settings.getOrCreate('bundle.secret', () => 'second')).toBe('first');
      expect(await data.settings.remove('cluster.queue')).toBe(true);
      expect(await data.settings.remove('cluster.queue')).toBe(false);
    });

    it('authenticates active keys only, lists them oldest first, and counts the active ones', async () => {
      const data = await open();
      const admin = await data.apiKeys.create({ name: 'Admin', scope: 'admin' });
      const script = await data.apiKeys.create({ name: 'Website build', scope: 'render' });
      expect(admin.secret).toMatch(/^rdk_[A-Za-z0-9_-]{43}$/);
      expect(admin.record).toEqual({
        id: expect.stringMatching(/^key_/),
        name: 'Admin',
        prefix: admin.secret.slice(0, 12),
        scope: 'admin',
        admin: true,
        createdAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(await data.apiKeys.authenticate(script.secret)).toEqual(script.record);
      expect(await data.apiKeys.authenticate(`${script.secret}x`)).toBeNull();
      expect(await data.apiKeys.authenticate(42)).toBeNull();
      // Oldest first; keys made in the same millisecond in id order (binary, as SQLite compares).
      const byAge = [admin.record, script.record].sort((x, y) =>
        x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1,
      );
      expect(await data.apiKeys.list()).toEqual(byAge);
      expect(await data.apiKeys.count()).toBe(2);

      const now = new Date('2026-05-01T08:00:00.000Z');
      await data.apiKeys.touch(script.record.id, now);
      expect((await data.apiKeys.get(script.record.id))?.lastUsedAt).toBe(now.toISOString());
      expect(await data.apiKeys.revoke(script.record.id)).toBe(true);
      expect(await data.apiKeys.revoke(script.record.id)).toBe(false);
      expect(await data.apiKeys.authenticate(script.secret)).toBeNull();
      expect(await data.apiKeys.count()).toBe(1);
      expect(await data.apiKeys.get('key_missing')).toBeNull();
    });

    it('refuses a guessable or unusable key secret with the same validation error', async () => {
      const data = await open();
      await expect(
        data.apiKeys.ensure('short', { name: 'env', scope: 'admin' }),
      ).rejects.toMatchObject({
        code: 'validation-failed',
        message: 'The API key is not usable: it needs at least 16 characters.',
      });
      await expect(
        data.apiKeys.ensure('has a space in it, sadly', { name: 'env', scope: 'admin' }),
      ).rejects.toMatchObject({
        message: 'The API key is not usable: it needs visible ASCII characters only, no spaces.',
      });
      const first = await data.apiKeys.ensure('ci-secret-0123456789', {
        name: 'env',
        scope: 'admin',
      });
      expect(
        await data.apiKeys.ensure('ci-secret-0123456789', { name: 'other', scope: 'admin' }),
      ).toEqual(first);
    });

    it('keeps one default brand, lists it first, and refuses to remove it', async () => {
      const data = await open();
      const fallback = await data.brandProfiles.getDefault();
      expect(fallback).toMatchObject({
        name: 'Default',
        isDefault: true,
        profile: EMPTY_BRAND_PROFILE,
      });
      const zeta = await data.brandProfiles.create('zeta shop', {
        ...EMPTY_BRAND_PROFILE,
        name: 'Zeta',
      });
      const alpha = await data.brandProfiles.create('  Alpha Shop ', EMPTY_BRAND_PROFILE);
      expect(alpha.name).toBe('Alpha Shop');
      expect((await data.brandProfiles.list()).map((b) => b.name)).toEqual([
        'Default',
        'Alpha Shop',
        'zeta shop',
      ]);

      const updated = await data.brandProfiles.update(
        zeta.id,
        { ...zeta.profile, tagline: 'Tết sale' },
        'Zeta',
      );
      expect(updated).toMatchObject({ name: 'Zeta', profile: { tagline: 'Tết sale' } });
      expect(await data.brandProfiles.setDefault(zeta.id)).toMatchObject({ isDefault: true });
      expect((await data.brandProfiles.getDefault()).id).toBe(zeta.id);
      expect((await data.brandProfiles.get(fallback.id))?.isDefault).toBe(false);
      await expect(data.brandProfiles.remove(zeta.id)).rejects.toMatchObject({
        code: 'conflict',
        message: 'The default brand cannot be removed; make another brand the default first.',
      });
      expect(await data.brandProfiles.remove(fallback.id)).toBe(true);
      expect(await data.brandProfiles.remove(fallback.id)).toBe(false);
      await expect(
        data.brandProfiles.update('brand_missing', EMPTY_BRAND_PROFILE),
      ).rejects.toMatchObject({
        code: 'not-found',
        message: 'No brand profile with id "brand_missing".',
      });
      await expect(data.brandProfiles.create('', EMPTY_BRAND_PROFILE)).rejects.toMatchObject({
        code: 'validation-failed',
      });
      await expect(data.brandProfiles.putDefault({ colours: 'red' })).rejects.toMatchObject({
        code: 'validation-failed',
      });
      const put = await data.brandProfiles.putDefault({
        ...EMPTY_BRAND_PROFILE,
        website: 'https://shop.vn',
      });
      expect(put).toMatchObject({ id: zeta.id, profile: { website: 'https://shop.vn' } });
    });

    it('reads a subscription past its end date as lapsed, and validates what is stored', async () => {
      const data = await open();
      expect(await data.subscription.get()).toEqual({ status: 'active', expiresAt: null });
      const state = await data.subscription.set({
        status: 'active',
        expiresAt: '2099-06-01T00:00:00+07:00',
      });
      expect(state).toEqual({ status: 'active', expiresAt: '2099-05-31T17:00:00.000Z' });
      expect(await data.subscription.get(new Date('2099-05-31T16:59:59.000Z'))).toMatchObject({
        status: 'active',
      });
      expect(await data.subscription.get(new Date('2099-05-31T17:00:00.000Z'))).toMatchObject({
        status: 'lapsed',
      });
      await expect(
        data.subscription.set({ status: 'active', expiresAt: 'soon' }),
      ).rejects.toMatchObject({ code: 'validation-failed' });
      expect(await data.subscription.set({ status: 'lapsed' })).toEqual({
        status: 'lapsed',
        expiresAt: null,
      });
    });

    it('keeps upload metadata as stored, and purges only unused expired uploads', async () => {
      const data = await open();
      const upload = async (expiresAt: string) => {
        const id = await data.uploads.newId();
        return data.uploads.insert({
          id,
          kind: 'xlsx',
          filename: 'Bảng giá.xlsx',
          path: `uploads/${id}.xlsx`,
          bytes: 10_240,
          contentType: null,
          info: { sheets: [{ name: 'Sheet1', rows: 3 }], fields: ['sku', 'Giá'], rows: 3 },
          apiKeyId: null,
          createdAt: '2026-05-01T08:00:00.000Z',
          expiresAt,
        });
      };
      const used = await upload('2026-05-02T08:00:00.000Z');
      const unused = await upload('2026-05-02T08:00:00.000Z');
      expect(await data.uploads.get(unused.id)).toEqual(unused);
      expect(Object.keys((await data.uploads.get(unused.id))!.info)).toEqual([
        'sheets',
        'fields',
        'rows',
      ]);
      await data.uploads.markUsed(used.id);
      expect(await data.uploads.purgeExpired(new Date('2026-05-02T07:59:59.000Z'))).toEqual([]);
      expect(await data.uploads.purgeExpired(new Date('2026-05-02T08:00:00.000Z'))).toEqual([
        unused.path,
      ]);
      expect(await data.uploads.get(unused.id)).toBeNull();
      expect(await data.uploads.get(used.id)).toMatchObject({ expiresAt: null });

      // Cells edited in the app are kept with the upload's info.
      const edits = [{ sheet: 'Sheet1', rowIndex: 2, field: 'Giá', value: '450.000' }];
      await data.uploads.setInfo(used.id, { ...used.info, edits });
      expect((await data.uploads.get(used.id))!.info).toEqual({ ...used.info, edits });
    });
  },
);
