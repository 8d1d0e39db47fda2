import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { useTempDirs } from './temp-dir.js';

const { tempStore } = useTempDirs();

function insufficient(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('insufficient-credits');
    return error as AppError;
  }
  throw new Error('expected insufficient-credits');
}

describe('ledger repository', () => {
  it('starts empty and grants credits as append-only entries', () => {
    const { ledger } = tempStore();
    expect(ledger.account()).toEqual({ balance: 0, heldCredits: 0, granted: 0, debited: 0 });
    const entry = ledger.grant(25, { note: 'Welcome', apiKeyId: 'key_admin' });
    expect(entry).toMatchObject({
      kind: 'grant',
      amount: 25,
      note: 'Welcome',
      renderId: null,
      batchId: null,
      rowIndex: null,
    });
    expect(typeof entry.id).toBe('number');
    expect(new Date(entry.createdAt).toISOString()).toBe(entry.createdAt);
    expect(ledger.account()).toEqual({ balance: 25, heldCredits: 0, granted: 25, debited: 0 });
  });

  it('refuses amounts that are not positive whole numbers', () => {
    const { ledger } = tempStore();
    for (const amount of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => ledger.grant(amount)).toThrow(RangeError);
    }
    expect(ledger.list().entries).toEqual([]);
  });

  it('debits a render once and reports the remaining balance', () => {
    const { ledger } = tempStore();
    ledger.grant(3);
    expect(ledger.debitRender({ renderId: 'rnd_1', apiKeyId: 'key_a' })).toEqual({ balance: 2 });
    expect(() => ledger.debitRender({ renderId: 'rnd_1' })).toThrow(/already been charged/);
    expect(ledger.account()).toMatchObject({ balance: 2, debited: 1 });
    expect(ledger.verifyInvariant().ok).toBe(true);
  });

  it('throws insufficient-credits with the needed amount and balance, charging nothing', () => {
    const { ledger } = tempStore();
    ledger.grant(2);
    const error = insufficient(() => ledger.debitRender({ renderId: 'rnd_big', amount: 3 }));
    expect(error.status).toBe(402);
    expect(error.extensions).toEqual({ needed: 3, balance: 2 });
    expect(ledger.account().balance).toBe(2);
    expect(ledger.list({ kind: 'debit' }).entries).toEqual([]);
  });

  it('never lets the balance go negative when many debits race in a loop', () => {
    const { ledger } = tempStore();
    ledger.grant(7);
    let charged = 0;
    let refused = 0;
    for (let i = 0; i < 40; i++) {
      try {
        ledger.debitRender({ renderId: `rnd_${i}` });
        charged++;
      } catch (error) {
        expect((error as AppError).code).toBe('insufficient-credits');
        refused++;
      }
      expect(ledger.account().balance).toBeGreaterThanOrEqual(0);
    }
    expect({ charged, refused }).toEqual({ charged: 7, refused: 33 });
    expect(ledger.account()).toEqual({ balance: 0, heldCredits: 0, granted: 7, debited: 7 });
    expect(ledger.verifyInvariant().ok).toBe(true);
  });

  it('holds credits for a batch, or nothing at all when the balance is short', () => {
    const { ledger } = tempStore();
    ledger.grant(10);
    expect(ledger.hold({ batchId: 'bat_1', amount: 6 })).toEqual({ balance: 4 });
    insufficient(() => ledger.hold({ batchId: 'bat_2', amount: 5 }));
    expect(ledger.heldFor('bat_2')).toBe(0);
    expect(ledger.account()).toEqual({ balance: 4, heldCredits: 6, granted: 10, debited: 0 });
    // Held credits are not spendable by single renders either.
    insufficient(() => ledger.debitRender({ renderId: 'rnd_x', amount: 5 }));
  });

  it('turns a held credit into the row debit once, however often the row is settled', () => {
    const { ledger } = tempStore();
    ledger.grant(5);
    ledger.hold({ batchId: 'bat_1', amount: 3 });
    expect(ledger.settleHeldRow({ batchId: 'bat_1', rowIndex: 0, renderId: 'rnd_r0' })).toBe(true);
    expect(ledger.settleHeldRow({ batchId: 'bat_1', rowIndex: 0, renderId: 'rnd_r0b' })).toBe(
      false,
    );
    expect(ledger.heldFor('bat_1')).toBe(2);
    expect(ledger.account()).toEqual({ balance: 2, heldCredits: 2, granted: 5, debited: 1 });
    const rowEntries = ledger.list().entries.filter((e) => e.rowIndex === 0);
    expect(rowEntries.map((e) => [e.kind, e.amount, e.renderId])).toEqual([
      ['debit', 1, 'rnd_r0'],
      ['release', 1, 'rnd_r0'],
    ]);
    expect(ledger.verifyInvariant().ok).toBe(true);
  });

  it('refuses to settle a row of a batch that holds nothing', () => {
    const { ledger } = tempStore();
    ledger.grant(5);
    expect(() =>
      ledger.settleHeldRow({ batchId: 'bat_none', rowIndex: 0, renderId: 'rnd_1' }),
    ).toThrow(/holds no credit/);
    expect(ledger.account()).toMatchObject({ balance: 5, debited: 0 });
  });

  it('releases part or all of a batch hold, and never more than it holds', () => {
    const { ledger } = tempStore();
    ledger.grant(10);
    ledger.hold({ batchId: 'bat_1', amount: 4 });
    ledger.hold({ batchId: 'bat_2', amount: 3 });
    expect(ledger.release({ batchId: 'bat_1', amount: 1 })).toBe(1);
    expect(() => ledger.release({ batchId: 'bat_1', amount: 4 })).toThrow(/holds 3 credits/);
    expect(ledger.release({ batchId: 'bat_1' })).toBe(3);
    expect(ledger.release({ batchId: 'bat_1' })).toBe(0);
    expect(ledger.heldFor('bat_1')).toBe(0);
    expect(ledger.heldFor('bat_2')).toBe(3);
    expect(ledger.account()).toEqual({ balance: 7, heldCredits: 3, granted: 10, debited: 0 });
  });

  it('keeps the invariant after a mix of grants, holds, settles, releases and debits', () => {
    const { ledger } = tempStore();
    ledger.grant(50);
    for (let batch = 0; batch < 5; batch++) {
      const batchId = `bat_${batch}`;
      ledger.hold({ batchId, amount: 6 });
      for (let row = 0; row < 6; row++) {
        if ((row + batch) % 3 === 0) continue; // a failed row: its credit is released at the end
        ledger.settleHeldRow({ batchId, rowIndex: row, renderId: `rnd_${batch}_${row}` });
        ledger.settleHeldRow({ batchId, rowIndex: row, renderId: `rnd_${batch}_${row}` });
      }
      if (batch % 2 === 0) ledger.debitRender({ renderId: `rnd_single_${batch}` });
      ledger.release({ batchId });
      if (batch === 2) ledger.grant(4);
    }
    const report = ledger.verifyInvariant();
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    const settled = ledger.list({ kind: 'debit', limit: 500 }).entries;
    const account = ledger.account();
    expect(account.debited).toBe(settled.length);
    expect(account.heldCredits).toBe(0);
    expect(account.balance).toBe(54 - settled.length);
  });

  it('detects running totals that disagree with the entries', () => {
    const store = tempStore();
    store.ledger.grant(5);
    store.db.prepare('UPDATE account SET granted = 6 WHERE id = 1').run();
    const report = store.ledger.verifyInvariant();
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(['granted: entries say 5, running total says 6']);
  });

  it('pages through the ledger newest first with a string cursor', () => {
    const { ledger } = tempStore();
    for (let i = 1; i <= 7; i++) ledger.grant(i);
    ledger.hold({ batchId: 'bat_1', amount: 2 });
    const first = ledger.list({ limit: 3 });
    expect(first.entries.map((e) => e.kind)).toEqual(['hold', 'grant', 'grant']);
    expect(first.entries.map((e) => e.amount)).toEqual([2, 7, 6]);
    expect(first.nextCursor).toBe(String(first.entries[2]?.id));

    const second = ledger.list({ limit: 3, cursor: Number(first.nextCursor) });
    expect(second.entries.map((e) => e.amount)).toEqual([5, 4, 3]);
    const third = ledger.list({ limit: 3, cursor: second.nextCursor });
    expect(third.entries.map((e) => e.amount)).toEqual([2, 1]);
    expect(third.nextCursor).toBeNull();

    const grants = ledger.list({ kind: 'grant', limit: 2 });
    expect(grants.entries.every((e) => e.kind === 'grant')).toBe(true);
    expect(ledger.list().entries).toHaveLength(8);
    expect(ledger.list({ limit: 10_000 }).entries).toHaveLength(8);
  });

  it('caps a page at 500 and rejects bad kinds, limits and cursors', () => {
    const store = tempStore();
    store.ledger.grant(1000);
    const insert = store.db.transaction(() => {
      for (let i = 0; i < 520; i++) store.ledger.debitRender({ renderId: `rnd_${i}` });
    });
    insert();
    const page = store.ledger.list({ limit: 600 });
    expect(page.entries).toHaveLength(500);
    expect(page.nextCursor).not.toBeNull();
    expect(() => store.ledger.list({ kind: 'refund' })).toThrow(AppError);
    expect(() => store.ledger.list({ limit: 0 })).toThrow(AppError);
    expect(() => store.ledger.list({ cursor: 'abc' })).toThrow(AppError);
    expect(() => store.ledger.list({ cursor: Number.NaN })).toThrow(AppError);
  });

  it('rolls a debit back with the rest of an outer transaction', () => {
    const store = tempStore();
    store.ledger.grant(2);
    const failing = store.db.transaction(() => {
      store.ledger.debitRender({ renderId: 'rnd_1' });
      throw new Error('render row could not be written');
    });
    expect(() => failing()).toThrow('render row could not be written');
    expect(store.ledger.account()).toEqual({ balance: 2, heldCredits: 0, granted: 2, debited: 0 });
    expect(store.ledger.list({ kind: 'debit' }).entries).toEqual([]);
  });

  it('offers no way to change or remove a ledger entry', () => {
    const { ledger } = tempStore();
    const methods = Object.keys(ledger).sort();
    expect(methods).toEqual(
      [
        'account',
        'debitRender',
        'grant',
        'heldFor',
        'hold',
        'list',
        'release',
        'settleHeldRow',
        'verifyInvariant',
      ].sort(),
    );
  });
});
