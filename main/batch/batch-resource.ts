import type { Batch } from '../../shared/batch-schemas.js';
import type { Ratio } from '../../shared/template-format.js';
import type { BatchRecord } from '../store/batches-repository.js';
import type { RowCounts } from './batch-queue.js';

/** The batch as the API shows it (spec §2.5 plus progress fields). */
export function toBatchResource(batch: BatchRecord, counts: RowCounts, outputDir?: string): Batch {
  return {
    id: batch.id,
    status: batch.status,
    templateId: batch.templateId,
    target: batch.target as Ratio,
    format: batch.format,
    total: batch.total,
    succeeded: batch.succeeded,
    failed: batch.failed,
    pending: Math.max(0, batch.total - batch.succeeded - batch.failed - counts.cancelled),
    ...(batch.rejectedReason ? { rejectedReason: batch.rejectedReason } : {}),
    ...(batch.stoppedReason ? { stoppedReason: batch.stoppedReason } : {}),
    createdAt: batch.createdAt,
    startedAt: batch.startedAt,
    finishedAt: batch.finishedAt,
    ...(outputDir ? { outputDir } : {}),
  };
}
