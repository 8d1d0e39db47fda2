import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { useTempDirs } from './temp-dir.js';

const { tempStore } = useTempDirs();

describe('API keys repository', () => {
  it('creates a key whose secret is shown once and stored only as its SHA-256', () => {
    const store = tempStore();
    const { record, secret } = store.apiKeys.create({ name: 'CI', scope: 'render' });
    expect(secret).toMatch(/^rdk_[A-Za-z0-9_-]{43}$/);
    expect(record).toEqual({
      id: expect.stringMatching(/^key_/),
      name: 'CI',
      prefix: secret.slice(0, 12),
      scope: 'render',
      admin: false,
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(record)).not.toContain(secret);
    const row = store.db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(row.hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(Object.values(row)).not.toContain(secret);
  });

  it('authenticates an active key by its secret', () => {
    const { apiKeys } = tempStore();
    const { record, secret } = apiKeys.create({ name: 'admin', scope: 'admin' });
    expect(apiKeys.authenticate(secret)).toEqual(record);
  });

  it('answers null alike for unknown, revoked, empty and non-string secrets', () => {
    const { apiKeys } = tempStore();
    const { record, secret } = apiKeys.create({ name: 'old', scope: 'render' });
    expect(apiKeys.revoke(record.id)).toBe(true);
    expect(apiKeys.authenticate(secret)).toBeNull();
    expect(apiKeys.authenticate(`rdk_${'x'.repeat(43)}`)).toBeNull();
    expect(apiKeys.authenticate(secret.slice(0, -1))).toBeNull();
    expect(apiKeys.authenticate('')).toBeNull();
    expect(apiKeys.authenticate('x'.repeat(10_000))).toBeNull();
    expect(apiKeys.authenticate(undefined)).toBeNull();
    expect(apiKeys.authenticate(42)).toBeNull();
  });

  it('revokes once, and reports unknown ids as not revoked', () => {
    const { apiKeys } = tempStore();
    const { record } = apiKeys.create({ name: 'a', scope: 'render' });
    expect(apiKeys.revoke(record.id)).toBe(true);
    expect(apiKeys.revoke(record.id)).toBe(false);
    expect(apiKeys.revoke('key_missing')).toBe(false);
    expect(apiKeys.get(record.id)?.revokedAt).toEqual(expect.any(String));
  });

  it('lists every key, counts only active ones, and gets by id', () => {
    const { apiKeys } = tempStore();
    const a = apiKeys.create({ name: 'a', scope: 'admin' }).record;
    const b = apiKeys.create({ name: 'b', scope: 'render' }).record;
    apiKeys.revoke(b.id);
    expect(
      apiKeys
        .list()
        .map((k) => k.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(apiKeys.count()).toBe(1);
    expect(apiKeys.get(a.id)).toEqual(a);
    expect(apiKeys.get('key_nope')).toBeNull();
  });

  it('ensures an environment key idempotently, reinstating it if it was revoked', () => {
    const { apiKeys } = tempStore();
    const secret = 'ci-secret-0123456789';
    const first = apiKeys.ensure(secret, { name: 'RENDER_DESK_API_KEY', scope: 'admin' });
    expect(first).toMatchObject({
      name: 'RENDER_DESK_API_KEY',
      scope: 'admin',
      admin: true,
      prefix: 'ci-secret-01',
    });
    expect(apiKeys.ensure(secret, { name: 'RENDER_DESK_API_KEY', scope: 'admin' })).toEqual(first);
    expect(apiKeys.count()).toBe(1);

    apiKeys.revoke(first.id);
    expect(apiKeys.authenticate(secret)).toBeNull();
    const again = apiKeys.ensure(secret, { name: 'RENDER_DESK_API_KEY', scope: 'admin' });
    expect(again).toMatchObject({ id: first.id, revokedAt: null, scope: 'admin' });
    expect(apiKeys.authenticate(secret)?.id).toBe(first.id);
    expect(apiKeys.list()).toHaveLength(1);
  });

  it('refuses environment keys that are short or not one visible-ASCII word', () => {
    const { apiKeys } = tempStore();
    for (const bad of [
      'short',
      'has a space in it!!',
      'tab\tseparated-secret',
      'ünïcödé-secret-value',
    ]) {
      expect(() => apiKeys.ensure(bad, { name: 'env', scope: 'admin' })).toThrow(AppError);
    }
    expect(apiKeys.list()).toEqual([]);
  });

  it('records use at most once a minute', () => {
    const { apiKeys } = tempStore();
    const { record } = apiKeys.create({ name: 'a', scope: 'render' });
    const t0 = new Date('2026-01-01T00:00:00.000Z');
    apiKeys.touch(record.id, t0);
    expect(apiKeys.get(record.id)?.lastUsedAt).toBe(t0.toISOString());
    apiKeys.touch(record.id, new Date(t0.getTime() + 30_000));
    expect(apiKeys.get(record.id)?.lastUsedAt).toBe(t0.toISOString());
    const t2 = new Date(t0.getTime() + 61_000);
    apiKeys.touch(record.id, t2);
    expect(apiKeys.get(record.id)?.lastUsedAt).toBe(t2.toISOString());
    apiKeys.touch('key_missing');
  });
});
