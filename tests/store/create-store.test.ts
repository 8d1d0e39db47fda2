import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore, initialiseAccount } from '../../main/store/create-store.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

describe('createStore', () => {
  it('keeps its database at <dataDir>/render-desk.db, creating the folder', () => {
    const dataDir = path.join(tempDir(), 'fresh', 'data');
    const store = createStore(dataDir);
    expect(store.file).toBe(path.join(dataDir, 'render-desk.db'));
    expect(fs.existsSync(store.file)).toBe(true);
    store.close();
    store.close();
  });

  it('keeps committed data across close and reopen', () => {
    const dataDir = tempDir();
    const first = createStore(dataDir);
    first.ledger.grant(9);
    const { secret } = first.apiKeys.create({ name: 'k', scope: 'render' });
    first.close();
    const second = createStore(dataDir);
    expect(second.ledger.account().balance).toBe(9);
    expect(second.apiKeys.authenticate(secret)?.name).toBe('k');
    second.close();
  });
});

describe('initialiseAccount', () => {
  it('grants the opening balance to a new data directory once, defaulting to 100', () => {
    const dataDir = tempDir();
    const store = createStore(dataDir);
    expect(initialiseAccount(store)).toEqual({ granted: 100 });
    expect(initialiseAccount(store)).toEqual({ granted: 0 });
    store.close();
    const reopened = createStore(dataDir);
    expect(initialiseAccount(reopened, { openingCredits: 500 })).toEqual({ granted: 0 });
    expect(reopened.ledger.list().entries).toEqual([
      expect.objectContaining({ kind: 'grant', amount: 100, note: 'Opening balance' }),
    ]);
    reopened.close();
  });

  it('does not grant again after the balance is spent to zero', () => {
    const store = createStore(tempDir());
    initialiseAccount(store, { openingCredits: 1 });
    store.ledger.debitRender({ renderId: 'rnd_1' });
    expect(initialiseAccount(store, { openingCredits: 1 })).toEqual({ granted: 0 });
    expect(store.ledger.account().balance).toBe(0);
    store.close();
  });

  it('grants nothing to a directory that already has ledger entries', () => {
    const store = createStore(tempDir());
    store.ledger.grant(3);
    expect(initialiseAccount(store, { openingCredits: 50 })).toEqual({ granted: 0 });
    expect(store.ledger.account().balance).toBe(3);
    store.close();
  });

  it('accepts an opening balance of zero and rejects nonsense', () => {
    const store = createStore(tempDir());
    expect(() => initialiseAccount(store, { openingCredits: -5 })).toThrow(RangeError);
    expect(() => initialiseAccount(store, { openingCredits: 2.5 })).toThrow(RangeError);
    expect(initialiseAccount(store, { openingCredits: 0 })).toEqual({ granted: 0 });
    expect(initialiseAccount(store, { openingCredits: 100 })).toEqual({ granted: 0 });
    expect(store.ledger.account().balance).toBe(0);
    store.close();
  });
});
