import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderLock } from '../../main/cluster/leader.js';
import { tryWithAdvisoryLock, withAdvisoryLock } from '../../main/data/postgres/advisory-lock.js';
import { LeaderLease } from '../../main/data/postgres/leader-lease.js';
import {
  closePostgres,
  openPostgres,
  postgresClientConfig,
} from '../../main/data/postgres/open-postgres.js';
import { startPostgres, useServiceScope } from '../helpers/cluster-services.js';
import type { PostgresService } from '../helpers/cluster-services.js';

// A server of its own: these tests terminate sessions and restart PostgreSQL.
const scope = useServiceScope();
let server: PostgresService;
const leases: LeaderLease[] = [];
const pools: pg.Pool[] = [];

beforeAll(async () => {
  server = await startPostgres(scope);
}, 120_000);

afterEach(async () => {
  await Promise.all(leases.splice(0).map((lease) => lease.release()));
  await Promise.all(pools.splice(0).map((pool) => closePostgres(pool)));
});

const KEY = 0x5244_7e57;

function lease(options: ConstructorParameters<typeof LeaderLease>[1] = {}): {
  lease: LeaderLease;
  lost: Error[];
  logged: string[];
} {
  const lost: Error[] = [];
  const logged: string[] = [];
  const created = new LeaderLease(postgresClientConfig(server.url), {
    key: KEY,
    log: (message) => logged.push(message),
    ...options,
  });
  created.onLost((reason) => lost.push(reason));
  leases.push(created);
  return { lease: created, lost, logged };
}

function pool(log?: (message: string) => void): pg.Pool {
  const created = openPostgres(server.url, { max: 3, ...(log ? { log } : {}) });
  pools.push(created);
  return created;
}

async function adminQuery(sql: string): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    return await admin.query(sql);
  } finally {
    await admin.end();
  }
}

describe('cluster leadership on PostgreSQL', () => {
  it('lets one node lead at a time, and hands leadership on when the leader releases it', async () => {
    const a = lease();
    const b = lease();
    expect(await a.lease.acquire()).toBe(true);
    // It is the lock the cluster's Leader takes.
    const lock: LeaderLock = a.lease;
    expect(await lock.hold()).toBe(true);
    expect(await b.lease.hold()).toBe(false);
    expect([a.lease.isLeader, b.lease.isLeader]).toEqual([true, false]);
    await a.lease.release();
    expect(a.lease.isLeader).toBe(false);
    expect(await b.lease.acquire()).toBe(true);
    expect(a.lost).toEqual([]);
  });

  it('reports leadership lost when the leader session is terminated, and another node takes over', async () => {
    const a = lease();
    const b = lease();
    expect(await a.lease.acquire()).toBe(true);
    await adminQuery(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
       WHERE locktype = 'advisory' AND objid = ${KEY} AND granted`,
    );
    await expect.poll(() => a.lost.length, { timeout: 10_000 }).toBe(1);
    expect(a.lease.isLeader).toBe(false);
    expect(a.logged).toContain(
      'Cluster leadership lost: the leader connection to PostgreSQL failed.',
    );
    expect(await b.lease.acquire()).toBe(true);
    expect(await a.lease.acquire()).toBe(false);
  });

  it('gives up leadership when its session stops answering, so a node that can reach the server may lead', async () => {
    const a = lease({ heartbeatMs: 100, heartbeatTimeoutMs: 1_000 });
    expect(await a.lease.acquire()).toBe(true);
    // Each PostgreSQL session is a process of its own: freezing the leader's is a connection that
    // hangs without closing (a half-open network path, a stuck server process).
    const holder = await adminQuery(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = ${KEY} AND granted`,
    );
    const pid = Number(holder.rows[0]?.pid);
    process.kill(pid, 'SIGSTOP');
    try {
      await expect.poll(() => a.lease.isLeader, { timeout: 10_000, interval: 100 }).toBe(false);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(a.lost[0]?.message).toBe('The leader connection stopped answering.');
    const b = lease();
    // The server frees the lock once it sees the abandoned session gone.
    await expect.poll(() => b.lease.acquire(), { timeout: 20_000, interval: 200 }).toBe(true);
  });

  it('survives a PostgreSQL restart: the leader learns it lost, the pool logs and reconnects', async () => {
    const a = lease();
    const logged: string[] = [];
    const shared = pool((message) => logged.push(message));
    await Promise.all([shared.query('SELECT 1'), shared.query('SELECT 1')]);
    expect(await a.lease.acquire()).toBe(true);

    await server.restart();
    await expect.poll(() => a.lost.length, { timeout: 10_000 }).toBe(1);
    await expect.poll(() => logged.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(logged[0]).toBe('PostgreSQL: a connection failed; it will be replaced.');
    const answer = await shared.query<{ n: number }>('SELECT 41 + 1 AS n');
    expect(answer.rows[0]?.n).toBe(42);
    expect(await a.lease.acquire()).toBe(true);
  });

  it('survives a PostgreSQL restart while a connection is checked out: its work fails, the process stays up', async () => {
    const logged: { message: string; detail: unknown }[] = [];
    const shared = openPostgres(server.url, {
      max: 3,
      log: (message, detail) => logged.push({ message, detail }),
    });
    pools.push(shared);
    // A transaction between two statements, as a worker's commit or a held lock is.
    const client = await shared.connect();
    await client.query('BEGIN');

    // Without a listener on the checked-out connection its 'error' would end this process.
    await server.restart();
    await expect
      .poll(() => logged.map((line) => line.message), { timeout: 10_000 })
      .toContain('PostgreSQL: a connection failed; it will be replaced.');
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();
    const answer = await shared.query<{ n: number }>('SELECT 41 + 1 AS n');
    expect(answer.rows[0]?.n).toBe(42);
    expect(shared.totalCount).toBe(1);
  });
});

describe('advisory locks around work', () => {
  it('runs holders of one key one after the other, and lets a try give up at once', async () => {
    const db = pool();
    const events: string[] = [];
    const work = (name: string) =>
      withAdvisoryLock(db, KEY + 1, async () => {
        events.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, 150));
        events.push(`${name} out`);
        return name;
      });
    const first = work('a');
    await expect.poll(() => events.length).toBe(1);
    const tried = await tryWithAdvisoryLock(db, KEY + 1, () => Promise.resolve('never'));
    expect(tried).toEqual({ acquired: false });
    expect(await Promise.all([first, work('b')])).toEqual(['a', 'b']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(await tryWithAdvisoryLock(db, KEY + 1, () => Promise.resolve('free'))).toEqual({
      acquired: true,
      value: 'free',
    });
  });

  it('frees the lock when the work throws', async () => {
    const db = pool();
    await expect(
      withAdvisoryLock(db, KEY + 2, () => Promise.reject(new Error('the work failed'))),
    ).rejects.toThrow('the work failed');
    const held = await adminQuery(
      `SELECT COUNT(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = ${KEY + 2}`,
    );
    expect(held.rows[0]).toEqual({ n: 0 });
  });
});
