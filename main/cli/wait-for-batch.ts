import { CreateBatchRequest } from '../../shared/batch-schemas.js';
import { Errors } from '../../shared/errors.js';
import { zodProblems } from '../../shared/zod-problems.js';
import { isTerminal } from '../batch/batch-service.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import { CLI_PRINCIPAL, type LocalCore } from './local-core.js';
import { ProgressBar } from './progress-bar.js';
import { UsageError } from './usage-error.js';

/** Ctrl-C during a batch: its pending rows are cancelled (and their credits released). */
export class Interrupted extends Error {
  readonly code = 'interrupted';

  constructor() {
    super('Stopped by Ctrl-C: the rows not yet rendered were cancelled and cost nothing.');
  }
}

/**
 * How often the batch's status is read (a few ms of SQLite) when no progress event says it ended.
 */
const POLL_MS = 50;

/**
 * Creates the batch with the app's BatchService (credits held per row, the runner started) and
 * waits for its end, drawing progress on stderr. The batch is the app's own: it appears in the
 * desktop window's batch list like any other.
 */
export async function runBatchToEnd(
  core: LocalCore,
  request: unknown,
  label: string,
): Promise<{ batch: BatchRecord; seconds: number }> {
  const parsed = CreateBatchRequest.safeParse(request);
  if (!parsed.success)
    throw new UsageError(
      `batch: ${zodProblems(parsed.error)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`,
    );
  const started = performance.now();
  const created = await core.batches.create(parsed.data, CLI_PRINCIPAL);
  if (created.rejectedReason === 'insufficient-credits') {
    const { balance } = await core.data.ledger.account();
    throw Errors.insufficientCredits(created.total, balance);
  }
  const bar = new ProgressBar(process.stderr, label);
  let ended = false;
  let wake: (() => void) | undefined;
  const unsubscribe = core.events.subscribe(created.id, (progress) => {
    bar.update({
      done: progress.batch.succeeded + progress.batch.failed,
      total: progress.batch.total,
      failed: progress.batch.failed,
      rowsPerSecond: progress.rowsPerSecond,
    });
    // The runner publishes the batch once more when it ends: read it now, not at the next poll.
    if (isTerminal(progress.batch)) {
      ended = true;
      wake?.();
    }
  });
  let interrupted = false;
  const onInterrupt = () => {
    // A second Ctrl-C does not wait for the rows in flight.
    if (interrupted) process.exit(130);
    interrupted = true;
    void core.batches.cancel(created.id);
  };
  process.on('SIGINT', onInterrupt);
  try {
    for (;;) {
      const batch = await core.data.batches.get(created.id);
      if (!batch) throw Errors.notFound('batch', created.id);
      if (isTerminal(batch)) {
        if (interrupted) throw new Interrupted();
        return { batch, seconds: (performance.now() - started) / 1000 };
      }
      if (ended) {
        // Read again at once, and only once: the event came between the read and the wait.
        ended = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    unsubscribe();
    bar.finish();
  }
}
