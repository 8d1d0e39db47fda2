import type { Batch } from '../../shared/batch-schemas.js';
import type { Ratio } from '../../shared/template-format.js';
import type { BatchRecord } from '../store/batches-repository.js';

/**
 * The batch as the API shows it (spec §2.5 plus progress fields). Built from the batch's own
 * counters, so polling a 10,000-row batch costs one indexed read; only a cancelled batch needs
 * its cancelled rows counted.
 */
export function toBatchResource(
  batch: BatchRecord,
  cancelledRows: number,
  outputDir?: string,
): Batch {
  return {
    id: batch.id,
    status: batch.status,
    templateId: batch.templateId,
    templateVersion: batch.templateVersion,
    target: batch.target as Ratio,
    format: batch.format,
    total: batch.total,
    succeeded: batch.succeeded,
    failed: batch.failed,
    pending: Math.max(0, batch.total - batch.succeeded - batch.failed - cancelledRows),
    ...(batch.rejectedReason ? { rejectedReason: batch.rejectedReason } : {}),
    ...(batch.stoppedReason ? { stoppedReason: batch.stoppedReason } : {}),
    createdAt: batch.createdAt,
    startedAt: batch.startedAt,
    finishedAt: batch.finishedAt,
    ...(outputDir ? { outputDir } : {}),
  };
}
