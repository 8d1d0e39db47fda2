import type { CreateBatchRequest } from '../../shared/batch-schemas.js';
import { Errors } from '../../shared/errors.js';
import { parseOutputKey } from '../batch/output-address.js';
import { unknownUpload } from '../ingest/upload-service.js';
import type { CoreData } from '../data/core-data.js';
import type { Principal } from './plugins/auth.js';

/**
 * Non-admin keys see and change only what they created: batches, uploads and stored outputs.
 * Another key's thing answers exactly as a missing one does (404, or the 422 a batch gives for
 * an unknown upload), so its ids and existence never leak.
 */

/** The key whose things a principal is limited to, or null for admin keys and the UI. */
export function ownerFilter(principal: Principal | null): string | null {
  if (!principal) return '';
  return principal.scope === 'admin' ? null : principal.id;
}

export function mayAccess(principal: Principal | null, ownerId: string | null): boolean {
  const only = ownerFilter(principal);
  return only === null || ownerId === only;
}

/** The record when this principal may see it; otherwise the 404 a missing one gets. */
export function visibleOr404<T extends { apiKeyId: string | null }>(
  principal: Principal | null,
  record: T | null | undefined,
  kind: string,
  id: string,
): T {
  if (!record || !mayAccess(principal, record.apiKeyId)) throw Errors.notFound(kind, id);
  return record;
}

/** How each kind of owned thing is looked up by id. */
const OWNED = {
  batch: (data: CoreData, id: string) => data.batches.get(id),
  upload: (data: CoreData, id: string) => data.uploads.get(id),
};

/** Throws 404 for a batch or upload that does not exist or that this principal may not see. */
export async function assertVisible(
  data: CoreData,
  principal: Principal | null,
  kind: keyof typeof OWNED,
  id: string,
): Promise<void> {
  visibleOr404(principal, await OWNED[kind](data, id), kind, id);
}

/**
 * A batch or pre-flight that names another key's upload gets the answer an unknown id gets
 * (main/batch/batch-service.ts for batches, main/ingest/upload-service.ts for pre-flight).
 */
export async function assertBatchUploadsVisible(
  data: CoreData,
  principal: Principal | null,
  request: CreateBatchRequest,
  mode: 'batch' | 'preflight',
): Promise<void> {
  const foreign = async (id: string) => {
    const upload = await data.uploads.get(id);
    return upload !== null && !mayAccess(principal, upload.apiKeyId);
  };
  const sourceRef = 'sourceRef' in request.source ? request.source.sourceRef : undefined;
  if (sourceRef !== undefined && (await foreign(sourceRef))) {
    if (mode === 'preflight') throw unknownUpload(sourceRef);
    throw Errors.validation([
      {
        path: 'source.sourceRef',
        message: `no upload "${sourceRef}" (uploads expire after 24 hours unless a batch uses them)`,
      },
    ]);
  }
  if (request.imagesRef !== undefined && (await foreign(request.imagesRef))) {
    throw Errors.validation([
      { path: 'imagesRef', message: 'name an uploaded .zip of images (POST /v1/uploads)' },
    ]);
  }
}

/**
 * Throws 404 unless the output exists for this principal: a batch row's output and a sheet
 * part belong to their batch's key, an idempotent single render's to the key that rendered it.
 */
export async function assertOutputVisible(
  data: CoreData,
  principal: Principal | null,
  outputKey: string,
): Promise<void> {
  const owner = await outputOwner(data, outputKey);
  if (owner === undefined || !mayAccess(principal, owner)) {
    throw Errors.notFound('output', outputKey);
  }
}

/** The key that made an output, null when unrecorded, undefined when there is no such output. */
async function outputOwner(data: CoreData, outputKey: string): Promise<string | null | undefined> {
  const parsed = parseOutputKey(outputKey);
  // A sheet part belongs to its batch's key, as the batch's rows do.
  if (parsed?.kind === 'batch-row' || parsed?.kind === 'sheet-part')
    return (await data.batches.get(parsed.batchId))?.apiKeyId;
  if (parsed?.kind === 'single-render') return (await data.renders.get(parsed.renderId))?.apiKeyId;
  return undefined;
}
