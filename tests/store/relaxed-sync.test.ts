import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../main/store/open-database.js';
import { withRelaxedSync } from '../../main/store/relaxed-sync.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();
const FULL = 2;
const NORMAL = 1;

describe('withRelaxedSync', () => {
  it('commits its write at synchronous=NORMAL and puts FULL back, even when the write throws', () => {
    const db = openDatabase(path.join(tempDir(), 'render-desk.db'));
    db.exec('CREATE TABLE t (n INTEGER)');
    const seen = withRelaxedSync(db, () => {
      db.prepare('INSERT INTO t (n) VALUES (1)').run();
      return db.pragma('synchronous', { simple: true });
    });
    expect(seen).toBe(NORMAL);
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
    expect(() =>
      withRelaxedSync(db, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(1);
    db.close();
  });

  it("leaves a caller's transaction alone: its commit decides", () => {
    const db = openDatabase(path.join(tempDir(), 'render-desk.db'));
    const inside = db.transaction(() =>
      withRelaxedSync(db, () => db.pragma('synchronous', { simple: true })),
    );
    expect(inside()).toBe(FULL);
    db.close();
  });
});
