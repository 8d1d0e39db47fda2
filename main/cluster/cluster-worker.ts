import path from 'node:path';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Catalog } from '../catalog/load-catalog.js';
import type { BatchRowContext } from '../batch/render-batch-row.js';
import { batchRowContext } from '../batch/render-batch-row.js';
import { createImageReferenceResolver } from '../engine/image-reference.js';
import type { CoreData } from '../data/core-data.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { RenderService } from '../render/render-service.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import { uploadObjectKey } from '../ingest/upload-service.js';
import { ChunkProcessor } from './chunk-processor.js';
import { startChunkWorker, type ChunkJob } from './chunk-queue.js';
import type { ClusterScheduler } from './cluster-scheduler.js';
import type { Coordination } from './coordination.js';
import { ObjectCache } from '../objects/object-cache.js';
import { batchImagesKey } from '../batch/output-address.js';
import { createImagesFolderResolver } from '../batch/images-folder.js';
import { unpackImageZip } from '../ingest/image-zip.js';

export interface ClusterWorkerDeps {
  data: CoreData;
  coordination: Coordination;
  scheduler: ClusterScheduler;
  objects: ObjectStore;
  renderer: RenderService;
  catalog: Catalog;
  redis: Redis;
  threads: number;
  /** This node's copy of the shared workspace: workspace templates' assets, uploaded fonts. */
  workspace: { catchUp(): Promise<void>; assetsDir(templateId: string): string };
  /** Node-local folder for cached inputs (image uploads). */
  cacheDir: string;
  log: (message: string, detail?: unknown) => void;
}

/** Contexts of the batches this node rendered lately (template, brand, bindings parsed once). */
const CONTEXTS_KEPT = 32;

/**
 * The worker role: takes chunk jobs from the queue and renders them with this node's threads.
 * Two chunks run at once per node so the threads stay busy while one chunk commits its rows.
 */
export function startClusterWorker(deps: ClusterWorkerDeps): {
  worker: Worker<ChunkJob>;
  close(): Promise<void>;
} {
  const uploads = new ObjectCache(deps.objects, path.join(deps.cacheDir, 'uploads'));
  const resolveImage = createImageReferenceResolver({
    uploadPath: (id) => uploads.local(uploadKey(id)),
    allowRemote: false,
  });
  const contexts = new Map<string, Promise<BatchRowContext>>();
  /**
   * A batch with an images zip (`imagesRef`): this node's copy of it, from the object store,
   * unpacked once per batch context; relative paths in cells resolve in it as on an embedded
   * core (the folder the API node unpacked it into is on that node only).
   */
  const imagesOf = async (batchId: string) => {
    const zip = await uploads.ensure(batchImagesKey(batchId));
    if (!zip) throw new Error(`the images zip of ${batchId} is missing from the object store`);
    const dir = await unpackImageZip(zip, path.join(deps.cacheDir, 'images', batchId));
    return createImagesFolderResolver({ dir, managed: true }, resolveImage);
  };

  const rowContext = async (batch: BatchRecord): Promise<BatchRowContext> => {
    // A workspace template may have gained assets since this node last rendered the batch (the
    // user added a missing photo, then replayed): catch up before every chunk, not only the
    // first; one small query when nothing changed.
    if (!deps.catalog.get(batch.templateId)) await deps.workspace.catchUp();
    let context = contexts.get(batch.id);
    if (!context) {
      context = (async () => {
        const fields =
          batch.sourceType === 'json-array'
            ? await deps.data.batches.recordFields(batch.id)
            : fieldsOf(await deps.data.uploads.get(batch.sourceRef ?? ''));
        // Built-in templates ship with every node; their assets are read from this install.
        // A workspace template's assets (and any font it uses) come from the shared workspace,
        // which had them before the batch was created.
        const assetsDir =
          deps.catalog.get(batch.templateId)?.assetsDir ??
          deps.workspace.assetsDir(batch.templateId);
        return batchRowContext(batch, {
          assetsDir,
          fields,
          resolveImage: batch.imagesDir ? await imagesOf(batch.id) : resolveImage,
        });
      })();
      contexts.set(batch.id, context);
      context.catch(() => contexts.delete(batch.id));
      while (contexts.size > CONTEXTS_KEPT) contexts.delete(contexts.keys().next().value as string);
    }
    return context;
  };

  const processor = new ChunkProcessor({
    data: deps.data,
    coordination: deps.coordination,
    renderer: deps.renderer,
    objects: deps.objects,
    rowContext,
    afterChunk: (batchId, allDone) => deps.scheduler.afterChunk(batchId, allDone),
    rowsInFlight: deps.threads * 2,
    log: deps.log,
  });

  const worker = startChunkWorker(deps.redis, {
    concurrency: 2,
    process: async (job, signal) => {
      await prefetchUploads(deps.data, uploads, job);
      await processor.process(job, signal);
    },
  });
  worker.on('failed', (job, error) =>
    deps.log(`chunk ${job?.id ?? '?'} failed; it will be retried`, error),
  );
  return {
    worker,
    async close() {
      await worker.close();
    },
  };
}

/** An image upload's key (image uploads are the ones image values name). */
export function uploadKey(id: string): string {
  return uploadObjectKey(id, 'image');
}

function fieldsOf(upload: { info: Record<string, unknown> } | null): string[] {
  const fields = upload?.info.fields;
  return Array.isArray(fields) ? fields.map(String) : [];
}

/** Image uploads named by the chunk's rows are fetched before drawing (resolvers are synchronous). */
async function prefetchUploads(data: CoreData, cache: ObjectCache, job: ChunkJob): Promise<void> {
  const rows = await data.batches.pendingInRange(job.batchId, job.from, job.to);
  const ids = new Set<string>();
  for (const row of rows)
    for (const value of Object.values(row.record))
      if (typeof value === 'string' && /^upl_[A-Za-z0-9_-]{1,64}$/.test(value.trim()))
        ids.add(value.trim());
  await Promise.all([...ids].map((id) => cache.ensure(uploadKey(id))));
}
