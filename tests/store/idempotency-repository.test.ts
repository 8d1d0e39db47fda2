import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { createStore } from '../../main/store/create-store.js';
import { IDEMPOTENCY_RETENTION_MS } from '../../main/data/rules/idempotency-rules.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir, tempStore } = useTempDirs();

const T0 = new Date('2026-03-01T10:00:00.000Z');
const later = (ms: number): Date => new Date(T0.getTime() + ms);
const request = { apiKeyId: 'key_a', key: 'order-42', requestHash: 'hash-1', now: T0 };
const result = {
  apiKeyId: 'key_a',
  key: 'order-42',
  renderId: 'rnd_1',
  contentType: 'image/png',
  outputPath: '/outputs/renders/rnd_1.png',
  now: T0,
};

describe('idempotency repository', () => {
  it('keeps completed renders replayable for 24 hours', () => {
    expect(IDEMPOTENCY_RETENTION_MS).toBe(86_400_000);
  });

  it('lets the first claim run and tells a concurrent second claim it is in progress', () => {
    const { idempotency } = tempStore();
    expect(idempotency.claim(request)).toEqual({ state: 'claimed', staleOutputPath: null });
    expect(idempotency.claim(request)).toEqual({ state: 'in-progress' });
    expect(idempotency.claim({ ...request, now: later(1000) })).toEqual({ state: 'in-progress' });
  });

  it('gives the key to exactly one of two connections claiming it', () => {
    const dir = tempDir();
    const first = createStore(dir);
    const second = createStore(dir);
    try {
      const states = [first, second, first, second].map((s) => s.idempotency.claim(request).state);
      expect(states).toEqual(['claimed', 'in-progress', 'in-progress', 'in-progress']);
    } finally {
      first.close();
      second.close();
    }
  });

  it('replays a completed claim with the same request hash', () => {
    const { idempotency } = tempStore();
    idempotency.claim(request);
    idempotency.complete(result);
    expect(idempotency.claim({ ...request, now: later(60_000) })).toEqual({
      state: 'completed',
      record: {
        apiKeyId: 'key_a',
        key: 'order-42',
        requestHash: 'hash-1',
        renderId: 'rnd_1',
        contentType: 'image/png',
        outputPath: '/outputs/renders/rnd_1.png',
        createdAt: T0.toISOString(),
        expiresAt: later(IDEMPOTENCY_RETENTION_MS).toISOString(),
      },
    });
  });

  it('reports a mismatch for the same key with a different request, in progress or completed', () => {
    const { idempotency } = tempStore();
    idempotency.claim(request);
    expect(idempotency.claim({ ...request, requestHash: 'hash-2' })).toEqual({ state: 'mismatch' });
    idempotency.complete(result);
    expect(idempotency.claim({ ...request, requestHash: 'hash-2' })).toEqual({ state: 'mismatch' });
  });

  it('scopes keys to the API key, so another key with the same string is unrelated', () => {
    const { idempotency } = tempStore();
    idempotency.claim(request);
    idempotency.complete(result);
    expect(idempotency.claim({ ...request, apiKeyId: 'key_b', requestHash: 'other' })).toEqual({
      state: 'claimed',
      staleOutputPath: null,
    });
  });

  it('treats an expired completed record as absent and hands back its file to delete', () => {
    const { idempotency } = tempStore();
    idempotency.claim(request);
    idempotency.complete({ ...result, ttlMs: 1000 });
    expect(idempotency.claim({ ...request, now: later(999) }).state).toBe('completed');
    expect(idempotency.claim({ ...request, requestHash: 'hash-2', now: later(1000) })).toEqual({
      state: 'claimed',
      staleOutputPath: '/outputs/renders/rnd_1.png',
    });
    expect(idempotency.claim({ ...request, requestHash: 'hash-2', now: later(1001) })).toEqual({
      state: 'in-progress',
    });
  });

  it('lets a retry run after the failed first attempt abandons its claim', () => {
    const { idempotency } = tempStore();
    idempotency.claim(request);
    expect(idempotency.abandon({ apiKeyId: 'key_a', key: 'order-42' })).toBe(true);
    expect(idempotency.claim(request).state).toBe('claimed');
  });

  it('never abandons a completed record', () => {
    const { idempotency } = tempStore();
    idempotency.claim(request);
    idempotency.complete(result);
    expect(idempotency.abandon({ apiKeyId: 'key_a', key: 'order-42' })).toBe(false);
    expect(idempotency.claim(request).state).toBe('completed');
  });

  it('clears the claims of a crashed process at startup and keeps completed records', () => {
    const { idempotency } = tempStore();
    idempotency.claim(request);
    idempotency.complete(result);
    idempotency.claim({ ...request, key: 'k2' });
    idempotency.claim({ ...request, key: 'k3' });
    expect(idempotency.clearInProgress()).toBe(2);
    expect(idempotency.claim({ ...request, key: 'k2' }).state).toBe('claimed');
    expect(idempotency.claim(request).state).toBe('completed');
  });

  it('refuses to complete a claim that no longer exists', () => {
    const { idempotency } = tempStore();
    expect(() => idempotency.complete(result)).toThrow(AppError);
    idempotency.claim(request);
    idempotency.abandon(request);
    expect(() => idempotency.complete(result)).toThrow(/no longer claimed/);
  });

  it('purges expired rows and returns the output files of completed ones', () => {
    const { idempotency } = tempStore();
    idempotency.claim({ ...request, key: 'old' });
    idempotency.complete({ ...result, key: 'old', outputPath: '/o/old.png', ttlMs: 1000 });
    idempotency.claim({ ...request, key: 'fresh' });
    idempotency.complete({ ...result, key: 'fresh', outputPath: '/o/fresh.png' });
    idempotency.claim({ ...request, key: 'running' });
    expect(idempotency.purgeExpired(later(5000))).toEqual(['/o/old.png']);
    expect(idempotency.purgeExpired(later(5000))).toEqual([]);
    expect(idempotency.claim({ ...request, key: 'fresh', now: later(5000) }).state).toBe(
      'completed',
    );
    // A claim leaked for a whole retention period is purged too.
    expect(idempotency.purgeExpired(later(IDEMPOTENCY_RETENTION_MS + 1))).toEqual(['/o/fresh.png']);
    expect(
      idempotency.claim({ ...request, key: 'running', now: later(IDEMPOTENCY_RETENTION_MS + 2) })
        .state,
    ).toBe('claimed');
  });

  it('rolls back the completion together with a debit that fails in the same transaction', () => {
    const store = tempStore();
    store.ledger.grant(1);
    store.ledger.debitRender({ renderId: 'rnd_0' });
    store.idempotency.claim(request);
    const commit = store.db.transaction(() => {
      store.idempotency.complete(result);
      store.ledger.debitRender({ renderId: 'rnd_1' });
    });
    expect(() => commit()).toThrow(expect.objectContaining({ code: 'insufficient-credits' }));
    expect(store.idempotency.claim(request)).toEqual({ state: 'in-progress' });
    expect(store.ledger.list({ kind: 'debit' }).entries.map((e) => e.renderId)).toEqual(['rnd_0']);
    expect(store.ledger.verifyInvariant().ok).toBe(true);
  });

  it('commits the debit, the render row and the completion together when all succeed', () => {
    const store = tempStore();
    store.ledger.grant(1);
    store.idempotency.claim(request);
    store.db.transaction(() => {
      store.ledger.debitRender({ renderId: 'rnd_1', apiKeyId: 'key_a' });
      store.renders.insert({
        id: 'rnd_1',
        templateId: 't',
        ratio: 'square',
        format: 'png',
        bytes: 9,
      });
      store.idempotency.complete(result);
    })();
    expect(store.idempotency.claim(request).state).toBe('completed');
    expect(store.ledger.account().balance).toBe(0);
    expect(store.renders.get('rnd_1')).not.toBeNull();
  });
});
