import type { SingleRenderCommit } from '../data-commands.js';
import { newRenderRecord } from '../rows/render-rows.js';
import type { CompleteInput } from '../types/idempotency.js';
import type { RenderRecord } from '../types/renders.js';

/**
 * What a single render's commit writes besides its debit, in both stores: the render's record
 * and, for a request with an Idempotency-Key, the replay record that completes its claim.
 */

export function singleRenderRecord(commit: SingleRenderCommit): RenderRecord {
  return newRenderRecord({
    id: commit.renderId,
    templateId: commit.templateId,
    ratio: commit.ratio,
    format: commit.format,
    apiKeyId: commit.apiKeyId,
    bytes: commit.bytes,
    createdAt: (commit.idempotency?.now ?? new Date()).toISOString(),
  });
}

/** The claim to complete with the debit; null for a request without an Idempotency-Key. */
export function idempotencyCompletion(commit: SingleRenderCommit): CompleteInput | null {
  if (!commit.idempotency) return null;
  return {
    apiKeyId: commit.apiKeyId,
    key: commit.idempotency.key,
    renderId: commit.renderId,
    contentType: commit.idempotency.contentType,
    outputPath: commit.idempotency.outputRef,
    now: commit.idempotency.now,
  };
}
