import type { ObjectStore } from '../objects/object-store.js';
import { CHUNK_LOCK_MS, type ChunkQueue } from './chunk-queue.js';
import type { ClusterScheduler } from './cluster-scheduler.js';
import type { Coordination } from './coordination.js';
import { batchObjectPrefix } from '../batch/output-address.js';

/** Who holds leadership: a PostgreSQL advisory lock on a dedicated connection. */
export interface LeaderLock {
  /** True while this node holds the lock (tries to take it when it does not). */
  hold(): Promise<boolean>;
  release(): Promise<void>;
}

export interface LeaderDeps {
  lock: LeaderLock;
  coordination: Coordination;
  scheduler: ClusterScheduler;
  queue: ChunkQueue;
  objects: ObjectStore;
  /** Resumes reading the source of a batch whose reader died. */
  resumeIngest: (batchId: string) => Promise<void>;
  log: (message: string, detail?: unknown) => void;
  intervalMs?: number;
  /** Outputs of deleted batches are removed this long after the delete. */
  gcGraceMs?: number;
  /**
   * Purges workspace templates deleted longer than the grace ago that no batch names (their
   * files, versions and copies); returns the ids purged.
   */
  purgeTemplates?: (graceMs: number) => Promise<string[]>;
}

/**
 * Longer than a chunk's lock, so a worker paused mid-chunk has lost its chunk by then
 * (RENDER_DESK_GC_GRACE_MS may set it, never below twice the lock).
 */
export const GC_GRACE_MS = Math.max(
  2 * CHUNK_LOCK_MS,
  Number(process.env.RENDER_DESK_GC_GRACE_MS) || 3 * CHUNK_LOCK_MS,
);

/**
 * The one node that repairs what crashes leave behind: chunks marked queued whose job is gone
 * (Redis restarted empty, a crash between PostgreSQL and Redis), windows to top up, batches to
 * finish, sources whose reader died, outputs of deleted batches, and deleted workspace
 * templates no batch names any more. Every step is idempotent,
 * so a second leader after a failover, or a step repeated, changes nothing.
 */
export class Leader {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  leading = false;

  constructor(private readonly deps: LeaderDeps) {}

  start(): void {
    const interval = this.deps.intervalMs ?? 2000;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((error: unknown) => this.deps.log('leader pass failed; retrying', error))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, interval);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.deps.lock.release().catch(() => undefined);
  }

  /** One pass; public so tests can drive the leader step by step. */
  async tick(): Promise<void> {
    const { coordination, scheduler, queue } = this.deps;
    const leading = await this.deps.lock.hold();
    if (leading !== this.leading) {
      this.leading = leading;
      this.deps.log(
        leading ? 'this node is now the cluster leader' : 'this node is no longer the leader',
      );
    }
    if (!leading) return;

    // Chunks whose dispatch is older than a lock and whose job is no longer in Redis.
    for (const chunk of await coordination.staleDispatches(CHUNK_LOCK_MS)) {
      if (await queue.isLive(chunk.batchId, chunk.n, chunk.dispatch)) continue;
      const again = await coordination.redispatch(chunk);
      if (again) {
        this.deps.log(`re-queued chunk ${chunk.batchId}-c${chunk.n} (dispatch ${again.dispatch})`);
        await scheduler.add(again);
      }
    }
    for (const batchId of await coordination.batchesWithWaitingChunks())
      await scheduler.dispatch(batchId);
    for (const batchId of await coordination.batchesToFinish())
      await scheduler.finishIfDone(batchId);
    for (const batchId of await coordination.orphanedIngests()) {
      this.deps.log(`resuming the source of batch ${batchId}: its reader stopped`);
      void this.deps
        .resumeIngest(batchId)
        .catch((error: unknown) =>
          this.deps.log(`batch ${batchId}: resuming its source failed`, error),
        );
    }
    for (const { batchId, final } of await coordination.sweepsDue(
      this.deps.gcGraceMs ?? GC_GRACE_MS,
    )) {
      const removed = await this.deps.objects.deletePrefix(batchObjectPrefix(batchId));
      await coordination.swept(batchId, final);
      if (removed > 0) this.deps.log(`removed ${removed} outputs of deleted batch ${batchId}`);
    }
    for (const id of (await this.deps.purgeTemplates?.(this.deps.gcGraceMs ?? GC_GRACE_MS)) ?? [])
      this.deps.log(`purged deleted workspace template ${id}: no batch names it`);
  }
}
