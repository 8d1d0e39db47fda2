import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/open-database.js';
import { WalSync } from '../../main/store/wal-sync.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();
const FULL = 2;

describe('WalSync', () => {
  it('commits atomically, answers with the write’s result and leaves the connection at FULL', async () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (n INTEGER)');
    const walSync = new WalSync(db);
    const inserted = await walSync.commit(() => db.prepare('INSERT INTO t (n) VALUES (7)').run());
    expect(inserted.changes).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
    await expect(
      walSync.commit(() => {
        db.prepare('INSERT INTO t (n) VALUES (8)').run();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(db.prepare('SELECT n FROM t').pluck().all()).toEqual([7]);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await walSync.close();
    db.close();
  });

  it('lets callers that arrive while a sync runs share the next one', async () => {
    const db = openDatabase(path.join(tempDir(), 'render-desk.db'));
    const walSync = new WalSync(db);
    const first = walSync.sync();
    const second = walSync.sync();
    expect(second).toBe(first);
    await first;
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        walSync.commit(() => db.prepare('SELECT ?').pluck().get(i)),
      ),
    );
    expect(burst).toEqual(Array.from({ length: 40 }, (_, i) => i));
    await walSync.close();
    db.close();
  });

  it('keeps committed writes when the database is reopened', async () => {
    const file = path.join(tempDir(), 'render-desk.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE t (n INTEGER)');
    const walSync = new WalSync(db);
    for (let i = 0; i < 5; i++)
      await walSync.commit(() => db.prepare('INSERT INTO t (n) VALUES (?)').run(i));
    await walSync.close();
    db.close();
    const reopened = openDatabase(file);
    expect(reopened.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(5);
    reopened.close();
  });
});
