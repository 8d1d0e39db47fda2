import pg from 'pg';
import { ADVISORY_KEYS } from './advisory-keys.js';

export interface LeaderLeaseOptions {
  /** The advisory lock that makes a node the leader. */
  key?: number;
  /** How often the lease checks that its connection (and so its lock) is still alive (ms). */
  heartbeatMs?: number;
  /** A heartbeat unanswered for this long counts as a lost connection (ms). */
  heartbeatTimeoutMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

/**
 * Cluster leadership as a session advisory lock held on a connection of its own. PostgreSQL frees
 * the lock the moment that session ends (the node died, the network broke, PostgreSQL
 * restarted), so another node's `acquire()` then succeeds. This node learns of it through the
 * connection's error/end events or a failed heartbeat, stops calling itself leader, and tells its
 * `onLost` listeners, which must stop leader-only work; `acquire()` may be called again later.
 */
export class LeaderLease {
  private client: pg.Client | null = null;
  private leader = false;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The heartbeat query in flight, if any: a connection runs one query at a time. */
  private beating: Promise<void> | null = null;
  private acquiring: Promise<boolean> | null = null;
  private readonly listeners = new Set<(reason: Error) => void>();
  private readonly key: number;
  private readonly heartbeatMs: number;
  private readonly heartbeatTimeoutMs: number;
  private readonly log: (message: string, detail?: unknown) => void;

  constructor(
    private readonly config: pg.ClientConfig,
    options: LeaderLeaseOptions = {},
  ) {
    this.key = options.key ?? ADVISORY_KEYS.leader;
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 10_000;
    this.log = options.log ?? ((message, detail) => console.error(message, detail));
  }

  get isLeader(): boolean {
    return this.leader;
  }

  /** Calls `listener` each time leadership is lost; returns a function that unsubscribes. */
  onLost(listener: (reason: Error) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tries once to become (or stay) the leader; true when this node leads. Never waits for the lock. */
  acquire(): Promise<boolean> {
    this.acquiring ??= this.tryAcquire().finally(() => {
      this.acquiring = null;
    });
    return this.acquiring;
  }

  /** The same as acquire(), under the name the cluster's Leader asks its lock for. */
  hold(): Promise<boolean> {
    return this.acquire();
  }

  /** Gives up leadership (if held) and closes the lease's connection. */
  async release(): Promise<void> {
    this.stopHeartbeat();
    await this.beating;
    const client = this.client;
    this.client = null;
    this.leader = false;
    if (!client) return;
    try {
      await client.query('SELECT pg_advisory_unlock($1)', [this.key]);
    } catch {
      // The connection is already gone, and with it the lock.
    }
    await client.end().catch(() => undefined);
  }

  private async tryAcquire(): Promise<boolean> {
    if (this.leader && this.client) return true;
    let client: pg.Client;
    try {
      client = this.client ?? (await this.connect());
    } catch (error) {
      this.log('Cluster leadership: PostgreSQL is unreachable; not leading for now.', {
        message: asError(error).message,
      });
      return false;
    }
    try {
      const result = await client.query<{ acquired: boolean }>(
        'SELECT pg_try_advisory_lock($1) AS acquired',
        [this.key],
      );
      this.leader = result.rows[0]?.acquired === true;
    } catch (error) {
      this.drop(client, asError(error));
      return false;
    }
    if (this.leader) this.startHeartbeat(client);
    return this.leader;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.config);
    // Without a listener an 'error' event (PostgreSQL shutting down) would crash the process.
    client.on('error', (error) => this.drop(client, error));
    client.on('end', () => this.drop(client, new Error('The leader connection closed.')));
    try {
      await client.connect();
    } catch (error) {
      client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  private startHeartbeat(client: pg.Client): void {
    this.stopHeartbeat();
    this.heartbeat = setInterval(() => {
      // A beat still waiting for its answer is the one that will time out; do not queue more.
      this.beating ??= this.beat(client).finally(() => {
        this.beating = null;
      });
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  private async beat(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('The leader connection stopped answering.')),
        this.heartbeatTimeoutMs,
      );
    });
    try {
      await Promise.race([client.query('SELECT 1'), timeout]);
    } catch (error) {
      this.drop(client, asError(error));
    } finally {
      clearTimeout(timer);
    }
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** The connection is unusable: forget it, and if it carried the lock, report leadership lost. */
  private drop(client: pg.Client, reason: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.stopHeartbeat();
    client.end().catch(() => undefined);
    if (!this.leader) return;
    this.leader = false;
    this.log('Cluster leadership lost: the leader connection to PostgreSQL failed.', {
      message: reason.message,
    });
    for (const listener of this.listeners) listener(reason);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
