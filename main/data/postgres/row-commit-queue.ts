import type pg from 'pg';
import type { RowOutcome, RowOutcomeContext } from '../data-commands.js';
import { commitRowOutcomes } from './commit-rows.js';

/** Rows one merged statement commits at most. */
const MAX_MERGED_ROWS = 500;

interface Waiting {
  outcomes: RowOutcome[];
  resolve: (changed: number) => void;
  reject: (error: unknown) => void;
}

interface BatchQueue {
  running: boolean;
  waiting: Waiting[];
}

/**
 * Group commit for one process: while a batch's commit is in flight, the groups that finish
 * meanwhile wait here and then commit together in one statement. Commits of one batch take
 * turns on its lock in PostgreSQL anyway; queueing them in the process instead means one lock
 * handoff and one WAL flush per merged statement rather than per group, which is what kept four
 * committers of one process below one committer's throughput. Each caller still learns how many
 * of its own rows changed, and a merged statement that fails is retried group by group, in
 * order, so every caller gets exactly the result (or the error) its group alone would get.
 */
export class RowCommitQueue {
  private readonly queues = new Map<string, BatchQueue>();

  constructor(private readonly pool: pg.Pool) {}

  commit(context: RowOutcomeContext, outcomes: RowOutcome[]): Promise<number> {
    const key = JSON.stringify([
      context.batchId,
      context.templateId,
      context.ratio,
      context.format,
      context.apiKeyId,
    ]);
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { running: false, waiting: [] };
      this.queues.set(key, queue);
    }
    const promise = new Promise<number>((resolve, reject) => {
      queue.waiting.push({ outcomes, resolve, reject });
    });
    if (!queue.running) void this.drain(key, queue, context);
    return promise;
  }

  private async drain(key: string, queue: BatchQueue, context: RowOutcomeContext): Promise<void> {
    queue.running = true;
    try {
      while (queue.waiting.length > 0) {
        await this.commitTogether(context, takeUpTo(queue.waiting, MAX_MERGED_ROWS));
      }
    } finally {
      queue.running = false;
      if (queue.waiting.length === 0) this.queues.delete(key);
    }
  }

  private async commitTogether(context: RowOutcomeContext, group: Waiting[]): Promise<void> {
    if (group.length === 1) {
      const [only] = group as [Waiting];
      await this.commitAlone(context, only);
      return;
    }
    // The earliest listing of a row is the one that counts, as if the groups ran in turn.
    const owner = new Map<number, Waiting>();
    for (const waiting of group) {
      for (const outcome of waiting.outcomes) {
        if (!owner.has(outcome.rowIndex)) owner.set(outcome.rowIndex, waiting);
      }
    }
    let changed: Set<number>;
    try {
      changed = await commitRowOutcomes(
        this.pool,
        context,
        group.flatMap((waiting) => waiting.outcomes),
      );
    } catch {
      for (const waiting of group) await this.commitAlone(context, waiting);
      return;
    }
    const counts = new Map<Waiting, number>(group.map((waiting) => [waiting, 0]));
    for (const rowIndex of changed) {
      const waiting = owner.get(rowIndex);
      if (waiting) counts.set(waiting, (counts.get(waiting) ?? 0) + 1);
    }
    for (const waiting of group) waiting.resolve(counts.get(waiting) ?? 0);
  }

  private async commitAlone(context: RowOutcomeContext, waiting: Waiting): Promise<void> {
    try {
      waiting.resolve((await commitRowOutcomes(this.pool, context, waiting.outcomes)).size);
    } catch (error) {
      waiting.reject(error);
    }
  }
}

/** The first waiting groups, up to `maxRows` rows (always at least one group). */
function takeUpTo(waiting: Waiting[], maxRows: number): Waiting[] {
  let rows = 0;
  let count = 0;
  while (count < waiting.length) {
    rows += waiting[count]!.outcomes.length;
    if (count > 0 && rows > maxRows) break;
    count += 1;
  }
  return waiting.splice(0, count);
}
