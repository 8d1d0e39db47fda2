import type { CreateBatchRequest } from '../../shared/batch-schemas.js';
import { Errors } from '../../shared/errors.js';
import { unknownUpload } from '../batch/upload-service.js';
import type { Store } from '../store/create-store.js';
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

/** Throws 404 for a batch that does not exist or that this principal may not see. */
export function assertBatchVisible(store: Store, principal: Principal | null, id: string): void {
  const batch = store.batches.get(id);
  if (!batch || !mayAccess(principal, batch.apiKeyId)) throw Errors.notFound('batch', id);
}

/** Throws 404 for an upload that does not exist or that this principal may not see. */
export function assertUploadVisible(store: Store, principal: Principal | null, id: string): void {
  const upload = store.uploads.get(id);
  if (!upload || !mayAccess(principal, upload.apiKeyId)) throw Errors.notFound('upload', id);
}

/**
 * A batch or pre-flight that names another key's upload gets the answer an unknown id gets
 * (main/batch/batch-service.ts for batches, main/batch/upload-service.ts for pre-flight).
 */
export function assertBatchUploadsVisible(
  store: Store,
  principal: Principal | null,
  request: CreateBatchRequest,
  mode: 'batch' | 'preflight',
): void {
  const foreign = (id: string) => {
    const upload = store.uploads.get(id);
    return upload !== null && !mayAccess(principal, upload.apiKeyId);
  };
  const sourceRef = 'sourceRef' in request.source ? request.source.sourceRef : undefined;
  if (sourceRef !== undefined && foreign(sourceRef)) {
    if (mode === 'preflight') throw unknownUpload(sourceRef);
    throw Errors.validation([
      {
        path: 'source.sourceRef',
        message: `no upload "${sourceRef}" (uploads expire after 24 hours unless a batch uses them)`,
      },
    ]);
  }
  if (request.imagesRef !== undefined && foreign(request.imagesRef)) {
    throw Errors.validation([
      { path: 'imagesRef', message: 'name an uploaded .zip of images (POST /v1/uploads)' },
    ]);
  }
}

/**
 * Throws 404 unless the output exists for this principal: a batch row's output belongs to its
 * batch's key, an idempotent single render's to the key that rendered it.
 */
export function assertOutputVisible(
  store: Store,
  principal: Principal | null,
  outputKey: string,
): void {
  const owner = outputOwner(store, outputKey);
  if (owner === undefined || !mayAccess(principal, owner)) {
    throw Errors.notFound('output', outputKey);
  }
}

/** The key that made an output, null when unrecorded, undefined when there is no such output. */
function outputOwner(store: Store, outputKey: string): string | null | undefined {
  const batchRow = /^(bat_[A-Za-z0-9_-]{1,64})\.\d{1,9}\.(png|jpg|webp)$/.exec(outputKey);
  if (batchRow) return store.batches.get(batchRow[1] as string)?.apiKeyId;
  const single = /^(rnd_[A-Za-z0-9_-]{1,64})\.(png|jpg|webp)$/.exec(outputKey);
  if (single) return store.renders.get(single[1] as string)?.apiKeyId;
  return undefined;
}
