import fs from 'node:fs';
import type { Database } from './open-database.js';
import { withRelaxedSync } from './relaxed-sync.js';

/**
 * Group commit with the fsync off the API thread. A write commits at synchronous = NORMAL (atomic,
 * crash-safe for the process, but not yet on disk), then the WAL file is synced on libuv's thread
 * pool, and only then does the caller hear it is done: as durable as a FULL commit when it
 * resolves, without blocking every request behind the disk. Callers that arrive while a sync runs
 * share the next one, so a burst of commits costs two fsyncs at most.
 */
export class WalSync {
  private handle: Promise<fs.promises.FileHandle> | null = null;
  private inFlight: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(private readonly db: Database) {}

  /** Runs `write` in an immediate transaction and resolves once its commit is on disk. */
  async commit<T>(write: () => T): Promise<T> {
    const result = withRelaxedSync(this.db, () => this.db.transaction(write).immediate());
    if (!this.db.memory) await this.sync();
    return result;
  }

  /** Resolves once everything committed before the call is on disk. */
  sync(): Promise<void> {
    // A sync already running may have started before the caller's commit: wait for the next.
    if (this.next) return this.next;
    const after = this.inFlight ?? Promise.resolve();
    const next = after
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        const run = this.flush();
        this.inFlight = run;
        return run.finally(() => {
          if (this.inFlight === run) this.inFlight = null;
        });
      });
    this.next = next;
    return next;
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.next, this.inFlight]);
    const handle = this.handle;
    this.handle = null;
    if (handle) await (await handle.catch(() => null))?.close();
  }

  private async flush(): Promise<void> {
    try {
      this.handle ??= fs.promises.open(`${this.db.name}-wal`, 'r+');
      await (await this.handle).datasync();
    } catch {
      // No WAL file to sync (it was checkpointed away): make the database itself durable. A
      // handle that opened but could not sync is closed, not left to the garbage collector.
      const failed = this.handle;
      this.handle = null;
      await (await failed?.catch(() => null))?.close().catch(() => undefined);
      this.db.pragma('wal_checkpoint(FULL)');
    }
  }
}
