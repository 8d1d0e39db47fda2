import { describe, expect, it } from 'vitest';
import type { SingleRenderCommit } from '../../main/data/data-commands.js';
import { expectBalanced, useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

function singleRender(
  renderId: string,
  extra: Partial<SingleRenderCommit> = {},
): SingleRenderCommit {
  return {
    renderId,
    apiKeyId: 'key_contract',
    templateId: 'tmpl_product_promo',
    ratio: 'square',
    format: 'png',
    bytes: 48_213,
    ...extra,
  };
}

describe.each(implementations.all)('account and ledger on %s', (_name, open) => {
  it('grants credits and pages the ledger newest first, with string cursors', async () => {
    const data = await open();
    for (const amount of [5, 7, 11]) await data.ledger.grant(amount, { note: `grant ${amount}` });
    expect(await data.ledger.account()).toEqual({
      balance: 23,
      heldCredits: 0,
      granted: 23,
      debited: 0,
    });

    const first = await data.ledger.list({ limit: 2 });
    expect(first.entries.map((e) => [e.kind, e.amount, e.note])).toEqual([
      ['grant', 11, 'grant 11'],
      ['grant', 7, 'grant 7'],
    ]);
    expect(first.entries[0]).toEqual({
      id: expect.any(Number),
      kind: 'grant',
      amount: 11,
      renderId: null,
      batchId: null,
      rowIndex: null,
      note: 'grant 11',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(first.nextCursor).toBe(String(first.entries[1]?.id));
    const second = await data.ledger.list({ limit: 2, cursor: first.nextCursor });
    expect(second.entries.map((e) => e.amount)).toEqual([5]);
    expect(second.nextCursor).toBeNull();
    expect((await data.ledger.list({ kind: 'debit' })).entries).toEqual([]);
    await expectBalanced(data);
  });

  it('refuses a cursor, a limit or a kind it never handed out, with a validation error', async () => {
    const data = await open();
    await expect(data.ledger.list({ cursor: 'abc' })).rejects.toMatchObject({
      code: 'validation-failed',
      message: '1 problem: cursor: is not a cursor this API returned',
    });
    await expect(data.ledger.list({ limit: 0 })).rejects.toMatchObject({
      code: 'validation-failed',
      message: '1 problem: limit: must be a positive integer',
    });
    await expect(data.ledger.list({ kind: 'refund' })).rejects.toMatchObject({
      code: 'validation-failed',
    });
    await expect(data.ledger.grant(0)).rejects.toThrow(
      'A credit amount must be a positive integer, not 0.',
    );
  });

  it('charges a single render once, records it, and answers the balance after the debit', async () => {
    const data = await open();
    await data.ledger.grant(3);
    expect(await data.commands.commitSingleRender(singleRender('rnd_single0001'))).toEqual({
      balance: 2,
    });
    expect(await data.renders.get('rnd_single0001')).toEqual({
      id: 'rnd_single0001',
      templateId: 'tmpl_product_promo',
      ratio: 'square',
      format: 'png',
      apiKeyId: 'key_contract',
      batchId: null,
      rowIndex: null,
      outputKey: null,
      bytes: 48_213,
      createdAt: expect.any(String),
    });
    await expect(
      data.commands.commitSingleRender(singleRender('rnd_single0001')),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(await data.ledger.account()).toMatchObject({ balance: 2, debited: 1 });
    await expectBalanced(data);
  });

  it('refuses a render at zero balance with insufficient-credits and writes nothing', async () => {
    const data = await open();
    await data.ledger.grant(1);
    await data.commands.commitSingleRender(singleRender('rnd_single0002'));
    const before = await data.ledger.list();
    await expect(
      data.commands.commitSingleRender(singleRender('rnd_single0003')),
    ).rejects.toMatchObject({
      code: 'insufficient-credits',
      message: 'This needs 1 credit but the balance is 0. Add credits and retry.',
    });
    expect(await data.ledger.list()).toEqual(before);
    expect(await data.renders.get('rnd_single0003')).toBeNull();
    await expectBalanced(data);
  });

  it('grants the opening balance once, ever, even after it is spent', async () => {
    const data = await open();
    expect(await data.commands.initialiseAccount(4)).toEqual({ granted: 4 });
    expect(await data.commands.initialiseAccount(4)).toEqual({ granted: 0 });
    await data.commands.commitSingleRender(singleRender('rnd_single0004'));
    expect(await data.commands.initialiseAccount(9)).toEqual({ granted: 0 });
    expect(await data.ledger.account()).toMatchObject({ balance: 3, granted: 4 });
    expect((await data.ledger.list()).entries.at(-1)?.note).toBe('Opening balance');
    await expectBalanced(data);
  });

  it('does not grant an opening balance to an account that already has entries', async () => {
    const data = await open();
    await data.ledger.grant(2);
    expect(await data.commands.initialiseAccount(100)).toEqual({ granted: 0 });
    expect(await data.ledger.account()).toMatchObject({ balance: 2 });
    await expectBalanced(data);
  });
});

describe.each(implementations.all)('idempotency keys on %s', (_name, open) => {
  const claim = { apiKeyId: 'key_contract', key: 'launch-1', requestHash: 'hash-a' };

  it('claims a key once: in progress while rendering, replayed once completed, a mismatch for another body', async () => {
    const data = await open();
    await data.ledger.grant(5);
    const now = new Date();
    expect(await data.idempotency.claim({ ...claim, now })).toEqual({
      state: 'claimed',
      staleOutputPath: null,
    });
    expect(await data.idempotency.claim({ ...claim, now })).toEqual({ state: 'in-progress' });
    expect(await data.idempotency.claim({ ...claim, requestHash: 'hash-b', now })).toEqual({
      state: 'mismatch',
    });
    // Scoped per API key: the same key string under another key is unrelated.
    expect(await data.idempotency.claim({ ...claim, apiKeyId: 'key_other', now })).toMatchObject({
      state: 'claimed',
    });

    const idempotency = {
      key: claim.key,
      contentType: 'image/png',
      outputRef: 'idem/launch-1.png',
      now,
    };
    await data.commands.commitSingleRender(singleRender('rnd_idem0001', { idempotency }));
    const replay = await data.idempotency.claim({ ...claim, now });
    expect(replay).toEqual({
      state: 'completed',
      record: {
        apiKeyId: 'key_contract',
        key: 'launch-1',
        requestHash: 'hash-a',
        renderId: 'rnd_idem0001',
        contentType: 'image/png',
        outputPath: 'idem/launch-1.png',
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 24 * 3600_000).toISOString(),
      },
    });
    expect(await data.idempotency.claim({ ...claim, requestHash: 'hash-b', now })).toEqual({
      state: 'mismatch',
    });
    expect(await data.ledger.account()).toMatchObject({ debited: 1 });
    await expectBalanced(data);
  });

  it('charges nothing when the claim is gone by the time the render commits', async () => {
    const data = await open();
    await data.ledger.grant(5);
    await data.idempotency.claim(claim);
    expect(await data.idempotency.abandon(claim)).toBe(true);
    const idempotency = {
      key: claim.key,
      contentType: 'image/png',
      outputRef: 'x.png',
      now: new Date(),
    };
    await expect(
      data.commands.commitSingleRender(singleRender('rnd_idem0002', { idempotency })),
    ).rejects.toMatchObject({
      code: 'conflict',
      message:
        'The Idempotency-Key "launch-1" is no longer claimed by this request; nothing was recorded.',
    });
    expect(await data.renders.get('rnd_idem0002')).toBeNull();
    expect(await data.ledger.account()).toMatchObject({ balance: 5, debited: 0 });
    await expectBalanced(data);
  });

  it('abandons only claims in progress, and clears them all at startup', async () => {
    const data = await open();
    await data.ledger.grant(5);
    await data.idempotency.claim(claim);
    const idempotency = {
      key: claim.key,
      contentType: 'image/png',
      outputRef: 'a.png',
      now: new Date(),
    };
    await data.commands.commitSingleRender(singleRender('rnd_idem0003', { idempotency }));
    expect(await data.idempotency.abandon(claim)).toBe(false);
    await data.idempotency.claim({ ...claim, key: 'launch-2' });
    await data.idempotency.claim({ ...claim, key: 'launch-3' });
    expect(await data.idempotency.clearInProgress()).toBe(2);
    expect(await data.idempotency.claim({ ...claim, key: 'launch-2' })).toMatchObject({
      state: 'claimed',
    });
    expect(await data.idempotency.claim(claim)).toMatchObject({ state: 'completed' });
    await expectBalanced(data);
  });

  it('purges expired keys with their outputs, and claims an expired key afresh', async () => {
    const data = await open();
    await data.ledger.grant(5);
    const then = new Date('2026-03-01T10:00:00.000Z');
    await data.idempotency.claim({ ...claim, now: then });
    const idempotency = {
      key: claim.key,
      contentType: 'image/png',
      outputRef: 'old.png',
      now: then,
    };
    await data.commands.commitSingleRender(singleRender('rnd_idem0004', { idempotency }));
    await data.idempotency.claim({ ...claim, key: 'launch-2', now: then });
    await data.idempotency.claim({ ...claim, key: 'launch-3', now: then });
    await data.commands.commitSingleRender(
      singleRender('rnd_idem0005', {
        idempotency: { ...idempotency, key: 'launch-3', outputRef: 'third.png' },
      }),
    );

    const dayLater = new Date(then.getTime() + 24 * 3600_000);
    expect(await data.idempotency.claim({ ...claim, now: dayLater })).toEqual({
      state: 'claimed',
      staleOutputPath: 'old.png',
    });
    expect(await data.idempotency.purgeExpired(new Date(then.getTime() + 3600_000))).toEqual([]);
    // launch-2 (in progress, never completed) expired too; only launch-3 had an output.
    expect(await data.idempotency.purgeExpired(dayLater)).toEqual(['third.png']);
    expect(await data.idempotency.purgeExpired(dayLater)).toEqual([]);
    expect(
      await data.idempotency.claim({ ...claim, key: 'launch-2', now: dayLater }),
    ).toMatchObject({ state: 'claimed' });
    await expectBalanced(data);
  });
});
