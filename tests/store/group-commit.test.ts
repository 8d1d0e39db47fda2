import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GroupCommitter } from '../../main/store/group-commit.js';
import { openDatabase, type Database } from '../../main/store/open-database.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir } = useTempDirs();

function openCounted(): { db: Database; commits: () => number } {
  const db = openDatabase(path.join(tempDir(), 'group.db'));
  db.exec('CREATE TABLE items (name TEXT NOT NULL UNIQUE)');
  // Counts the transactions the committer opens.
  let commits = 0;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const run = transaction(fn);
    return (...args: unknown[]) => {
      const result = run(...args);
      commits += 1;
      return result;
    };
  }) as typeof db.transaction;
  return { db, commits: () => commits };
}

const insert = (db: Database, name: string) => () => {
  db.prepare('INSERT INTO items (name) VALUES (?)').run(name);
  return (db.prepare('SELECT COUNT(*) AS n FROM items').get() as { n: number }).n;
};

describe('group commits', () => {
  it('commits work queued in one turn of the event loop in one transaction, and answers each with its own result', async () => {
    const { db, commits } = openCounted();
    const committer = new GroupCommitter(db, 0);
    const results = await Promise.all(['a', 'b', 'c'].map((n) => committer.commit(insert(db, n))));
    expect(results).toEqual([1, 2, 3]);
    expect(commits()).toBe(1);
    db.close();
  });

  it('does not hold a lone piece of work back for a timer when the delay is zero', async () => {
    const { db } = openCounted();
    const committer = new GroupCommitter(db, 0);
    // Counted in turns of the event loop, not milliseconds (a loaded machine stretches those):
    // committed within the turn the work was queued in, before the next turn's callbacks run.
    const order: string[] = [];
    setImmediate(() => setImmediate(() => order.push('next turn')));
    await committer.commit(insert(db, 'alone')).then(() => order.push('committed'));
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    expect(order).toEqual(['committed', 'next turn']);
    db.close();
  });

  it('retries a failed group piece by piece: the others commit, the failing one rejects', async () => {
    const { db } = openCounted();
    const committer = new GroupCommitter(db, 0);
    await committer.commit(insert(db, 'taken'));
    const outcomes = await Promise.allSettled(
      ['x', 'taken', 'y'].map((n) => committer.commit(insert(db, n))),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const names = db.prepare('SELECT name FROM items ORDER BY name').pluck().all();
    expect(names).toEqual(['taken', 'x', 'y']);
    db.close();
  });

  it('flushes at once when the group is full', async () => {
    const { db, commits } = openCounted();
    const committer = new GroupCommitter(db, 60_000, 2);
    const both = Promise.all([
      committer.commit(insert(db, 'a')),
      committer.commit(insert(db, 'b')),
    ]);
    expect(await both).toEqual([1, 2]);
    expect(commits()).toBe(1);
    db.close();
  });
});
