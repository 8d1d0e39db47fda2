import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../main/store/create-store.js';
import { compiledCoreUrl } from '../helpers/compiled-core.js';
import { useTempDirs } from './temp-dir.js';

const run = promisify(execFile);
const fixture = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'fixtures',
  'debit-loop.mjs',
);
const { tempDir } = useTempDirs();

describe('ledger under concurrent writers', () => {
  it('charges exactly the balance when four processes debit one database at once', async () => {
    const dataDir = tempDir();
    const setup = createStore(dataDir);
    setup.ledger.grant(60);
    setup.close();

    const workers = ['a', 'b', 'c', 'd'].map((id) =>
      run(process.execPath, [fixture, compiledCoreUrl(), dataDir, id, '30']),
    );
    const results = (await Promise.all(workers)).map(
      ({ stdout }) => JSON.parse(stdout) as { charged: number; refused: number },
    );
    const charged = results.reduce((sum, r) => sum + r.charged, 0);
    const refused = results.reduce((sum, r) => sum + r.refused, 0);
    expect({ charged, refused }).toEqual({ charged: 60, refused: 60 });

    const store = createStore(dataDir);
    try {
      expect(store.ledger.account()).toEqual({
        balance: 0,
        heldCredits: 0,
        granted: 60,
        debited: 60,
      });
      expect(store.ledger.verifyInvariant().ok).toBe(true);
    } finally {
      store.close();
    }
  });
});
