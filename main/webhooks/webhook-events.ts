import type { BatchRecord } from '../data/types/batch-record.js';
import type { CoreData } from '../data/core-data.js';
import type { DataCommands } from '../data/data-commands.js';
import { ERROR_CATALOGUE, type ErrorCode } from '../../shared/errors.js';
import type { WebhookEvent } from '../../shared/webhook-schemas.js';

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CATALOGUE, code);

const TERMINAL = new Set(['succeeded', 'partial', 'failed', 'degraded', 'cancelled']);

export interface WebhookQueue {
  /** Queues the event for the webhooks that take it; answers how many deliveries it queued. */
  enqueue(event: WebhookEvent, eventKey: string, payload: unknown): Promise<number>;
  /** Tells the dispatcher something is due now. */
  kick(): void;
}

/** What a `batch.finished` delivery carries. */
export function batchFinishedPayload(batch: BatchRecord, now = new Date()): unknown {
  return {
    type: 'batch.finished',
    createdAt: now.toISOString(),
    data: {
      batch: {
        id: batch.id,
        status: batch.status,
        templateId: batch.templateId,
        target: batch.target,
        format: batch.format,
        total: batch.total,
        succeeded: batch.succeeded,
        failed: batch.failed,
        rejectedReason: batch.rejectedReason,
        stoppedReason: batch.stoppedReason,
        createdAt: batch.createdAt,
        finishedAt: batch.finishedAt,
        links: {
          self: `/v1/render-batches/${batch.id}`,
          renders: `/v1/render-batches/${batch.id}/renders`,
          bundle: `/v1/render-batches/${batch.id}/bundle`,
        },
      },
    },
  };
}

/**
 * What a `batch.row_failed` delivery carries: the error's code and the fields at fault in words,
 * never the row's values (a path, a number that was not one), which stay in the batch's rows
 * for whoever holds a key. A webhook URL may be anywhere.
 */
export function rowFailedPayload(
  batchId: string,
  failure: { rowIndex: number; errorCode: string; fields: string[] },
  now = new Date(),
): unknown {
  const fields = failure.fields.slice(0, MAX_FIELDS_NAMED).join(', ');
  const more = failure.fields.length - MAX_FIELDS_NAMED;
  const where = fields ? `${fields}${more > 0 ? ` and ${more} more` : ''}: ` : '';
  return {
    type: 'batch.row_failed',
    createdAt: now.toISOString(),
    data: {
      batchId,
      rowIndex: failure.rowIndex,
      errorCode: failure.errorCode,
      fields: failure.fields,
      error: `${where}${ROW_ERROR_WORDS[failure.errorCode] ?? errorTitle(failure.errorCode)}. The batch's rows (GET /v1/render-batches/${batchId}/renders) give the detail.`,
    },
  };
}

const MAX_FIELDS_NAMED = 10;

/** Words for the common row errors; others use the catalogue's title. */
const ROW_ERROR_WORDS: Record<string, string> = {
  'validation-failed': 'the value does not fit the field',
  'image-invalid': 'the image could not be read or used',
  'barcode-invalid': 'a barcode value could not be encoded',
  'vietqr-invalid': 'a VietQR payment field was not valid',
  'code-unreadable': 'a code did not scan as its value',
  'render-failed': 'the row could not be drawn',
};

function errorTitle(code: string): string {
  return isErrorCode(code) ? ERROR_CATALOGUE[code].title : 'the row failed';
}

/**
 * The data with its batch commands watched: a batch that reaches a terminal state (created
 * rejected, finished, cancelled) and each failed row become queued webhook deliveries, in the
 * process that changed them: the app or a command (embedded), or whichever cluster node did
 * (workers finish batches, the leader finalises lost ones, API nodes cancel). The event key
 * names the event, not who saw it, so two nodes that see one batch end queue one delivery.
 */
export function withWebhookEvents(data: CoreData, queue: WebhookQueue): CoreData {
  const commands = data.commands;
  const finished = async (batch: BatchRecord | null) => {
    if (!batch || !TERMINAL.has(batch.status)) return;
    // One event per time a batch ends: a replay that ends again is a new event.
    const key = `batch.finished:${batch.id}:${batch.finishedAt ?? batch.status}`;
    if ((await queue.enqueue('batch.finished', key, batchFinishedPayload(batch))) > 0) queue.kick();
  };
  const watched: DataCommands = Object.assign(Object.create(commands) as DataCommands, {
    createBatch: async (...args: Parameters<DataCommands['createBatch']>) => {
      const batch = await commands.createBatch(...args);
      await finished(batch);
      return batch;
    },
    finishBatch: async (...args: Parameters<DataCommands['finishBatch']>) => {
      const batch = await commands.finishBatch(...args);
      await finished(batch);
      return batch;
    },
    cancelBatch: async (...args: Parameters<DataCommands['cancelBatch']>) => {
      const batch = await commands.cancelBatch(...args);
      await finished(batch);
      return batch;
    },
    commitRows: async (...args: Parameters<DataCommands['commitRows']>) => {
      const committed = await commands.commitRows(...args);
      const [context, outcomes] = args;
      let queued = 0;
      const now = Date.now();
      for (const outcome of outcomes) {
        if (outcome.ok) continue;
        queued += await queue.enqueue(
          'batch.row_failed',
          `batch.row_failed:${context.batchId}:${outcome.rowIndex}:${now}`,
          rowFailedPayload(context.batchId, outcome, new Date(now)),
        );
      }
      if (queued > 0) queue.kick();
      return committed;
    },
  });
  return Object.assign(Object.create(data) as CoreData, { commands: watched });
}
