import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../main/store/migrate.js';
import { createLedgerRepository } from '../../main/store/ledger-repository.js';
import { openDatabase } from '../../main/store/open-database.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

describe('migration 12: running batch holds', () => {
  it('carries every batch hold over from the ledger, and the ledger keeps settling from there', () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const before = openDatabase(file, { migrateTo: 11 });
    // The ledger as version 11 wrote it (its repository summed these entries per batch).
    const entry = before.prepare(
      `INSERT INTO ledger (kind, amount, render_id, batch_id, row_index, note, created_at)
       VALUES (?, ?, ?, ?, ?, NULL, 't')`,
    );
    entry.run('grant', 100, null, null, null);
    // bat_a: held 10, settled 3, released 2 on failures → holds 5.
    entry.run('hold', 10, null, 'bat_a', null);
    for (let row = 0; row < 3; row++) {
      entry.run('release', 1, `rnd_a${row}`, 'bat_a', row);
      entry.run('debit', 1, `rnd_a${row}`, 'bat_a', row);
    }
    entry.run('release', 2, null, 'bat_a', null);
    // bat_b finished: everything released.
    entry.run('hold', 4, null, 'bat_b', null);
    entry.run('release', 4, null, 'bat_b', null);
    before.prepare('UPDATE account SET granted = 100, debited = 3, held = 5 WHERE id = 1').run();
    before.close();

    const db = openDatabase(file, { migrateTo: 12 });
    expect(schemaVersion(db)).toBe(12);
    expect(db.prepare('SELECT batch_id, held FROM batch_holds ORDER BY batch_id').all()).toEqual([
      { batch_id: 'bat_a', held: 5 },
    ]);
    const ledger = createLedgerRepository(db);
    expect(ledger.heldFor('bat_a')).toBe(5);
    expect(ledger.heldFor('bat_b')).toBe(0);
    expect(ledger.settleHeldRow({ batchId: 'bat_a', rowIndex: 3, renderId: 'rnd_a3' })).toBe(true);
    expect(ledger.heldFor('bat_a')).toBe(4);
    expect(() => ledger.release({ batchId: 'bat_a', amount: 5 })).toThrow(/holds 4 credits/);
    expect(ledger.release({ batchId: 'bat_a' })).toBe(4);
    expect(() =>
      ledger.settleHeldRow({ batchId: 'bat_a', rowIndex: 9, renderId: 'rnd_a9' }),
    ).toThrow(/holds no credit/);
    const report = ledger.verifyInvariant();
    expect(report.problems).toEqual([]);
    expect(ledger.account()).toMatchObject({ heldCredits: 0, debited: 4, balance: 96 });
    db.close();
  });

  it('reports a running batch hold that disagrees with the entries', () => {
    const db = openDatabase(path.join(tempDir(), 'render-desk.db'));
    const ledger = createLedgerRepository(db);
    ledger.grant(10);
    ledger.hold({ batchId: 'bat_c', amount: 3 });
    db.prepare("UPDATE batch_holds SET held = 7 WHERE batch_id = 'bat_c'").run();
    expect(ledger.verifyInvariant().problems).toEqual([
      'batch bat_c: entries say it holds 3, its running hold says 7',
    ]);
    db.close();
  });
});
