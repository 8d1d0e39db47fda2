import type { FastifyRequest } from 'fastify';
import { bundleFileName } from '../../../../shared/bundle-file-name.js';
import {
  Batch,
  BatchAccepted,
  BatchList,
  BatchListQuery,
  BatchParams,
  type BatchProgressEvent,
  BundleFileParams,
  BundleLink,
  BundleQuery,
  CreateBatchRequest,
  ManifestPage,
  ManifestQuery,
  MAX_INLINE_RECORDS,
  BUNDLE_PART_ROWS,
  PreflightResult,
} from '../../../../shared/batch-schemas.js';
import { SignedQuery } from '../../../../shared/api-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import type { BatchEvents } from '../../../batch/batch-events.js';
import type { BatchService } from '../../../batch/batch-service.js';
import { isTerminal } from '../../../batch/batch-service.js';
import { preflight } from '../../../batch/preflight.js';
import { assertBatchUploadsVisible, assertVisible, ownerFilter } from '../../ownership.js';
import { requestBaseUrl } from '../../request-base-url.js';
import { logServerProblem } from '../../server-error-log.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

/** DESIGN §4: inline records up to 50,000 rows in a body of up to 32 MiB. */
export const BATCH_BODY_LIMIT = 32 * 1024 * 1024;
export const BUNDLE_URL_TTL_SECONDS = 15 * 60;

export interface BatchRouteDeps {
  batches: BatchService;
  events: BatchEvents;
}

export function registerBatchRoutes(
  registry: RouteRegistry,
  deps: ServerDeps & BatchRouteDeps,
): void {
  const { batches, data } = deps;

  /** The batch, once it is known this principal may see it (404 otherwise). */
  const visibleBatch = async (request: FastifyRequest, id: string): Promise<Batch> => {
    await assertVisible(data, request.principal, 'batch', id);
    return batches.get(id);
  };

  registry.add(
    {
      method: 'POST',
      url: '/v1/render-batches',
      summary: `Start a batch: one render per source row (inline records up to ${MAX_INLINE_RECORDS}, or an uploaded csv/xlsx)`,
      tags: ['batches'],
      body: CreateBatchRequest,
      bodyLimit: BATCH_BODY_LIMIT,
      access: { requiresSubscription: true },
      responses: {
        202: {
          description:
            'Accepted: id, status and total rows (a batch refused for want of credits is failed, with rejectedReason)',
          schema: BatchAccepted,
        },
        404: problem('Unknown template'),
        422: problem('validation-failed'),
      },
    },
    async ({ body, request, reply }) => {
      await assertBatchUploadsVisible(data, request.principal, body, 'batch');
      const batch = await batches.create(body, request.principal?.id ?? null);
      reply.code(202).header('Location', `/v1/render-batches/${batch.id}`);
      return {
        id: batch.id,
        status: batch.status,
        total: batch.total,
        ...(batch.rejectedReason ? { rejectedReason: batch.rejectedReason } : {}),
      };
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/render-batches/preflight',
      summary:
        'Check every row of a prospective batch without rendering or charging (same body as a batch)',
      tags: ['batches'],
      body: CreateBatchRequest,
      bodyLimit: BATCH_BODY_LIMIT,
      responses: {
        200: { description: 'Per-row problems and the credit cost', schema: PreflightResult },
        404: problem('Unknown template'),
        422: problem('validation-failed'),
      },
    },
    async ({ body, request }) => {
      await assertBatchUploadsVisible(data, request.principal, body, 'preflight');
      return preflight(body, deps.preflight);
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/render-batches',
      summary: 'Recent batches, newest first (a non-admin key sees only its own)',
      tags: ['batches'],
      query: BatchListQuery,
      responses: { 200: { description: 'Batches', schema: BatchList } },
    },
    async ({ query, request }) => batches.list(query.limit, ownerFilter(request.principal)),
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/render-batches/:id',
      summary: 'A batch (poll status; counters are eventually consistent)',
      tags: ['batches'],
      params: BatchParams,
      responses: {
        200: { description: 'Batch', schema: Batch },
        404: problem('Unknown batch'),
      },
    },
    async ({ params, request }) => visibleBatch(request, params.id),
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/render-batches/:id/renders',
      summary: 'The manifest: every row exactly once, in rowIndex order',
      tags: ['batches'],
      params: BatchParams,
      query: ManifestQuery,
      responses: { 200: { description: 'Manifest page', schema: ManifestPage } },
    },
    async ({ params, query, request }) => {
      await assertVisible(data, request.principal, 'batch', params.id);
      return batches.manifest(params.id, Number(query.cursor), query.limit, query.status);
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/render-batches/:id/bundle',
      summary: 'A short-lived signed link to a zip of every succeeded output',
      tags: ['batches'],
      params: BatchParams,
      query: BundleQuery,
      responses: {
        200: { description: 'Bundle link', schema: BundleLink },
        422: problem('bundle-not-ready while the batch is processing'),
      },
    },
    async ({ params, query, request }) => {
      await assertVisible(data, request.principal, 'batch', params.id);
      const batch = await batches.assertBundleReady(params.id);
      const suffix = query.manifest === 'true' ? '.with-manifest' : '';
      const link = (file: string) => {
        const signed = deps.signer.sign(`/v1/bundles/${file}`, BUNDLE_URL_TTL_SECONDS);
        return { url: requestBaseUrl(request) + signed.url, expiresAt: signed.expiresAt };
      };
      const whole = link(`${params.id}${suffix}.zip`);
      // A sheet batch's zip holds its sheet parts (a few files): it is never split.
      const sheetsOnly = batch.sheetOptions !== null && batch.sheetOptions.singleFiles !== true;
      const count = sheetsOnly ? 1 : Math.ceil(batch.succeeded / BUNDLE_PART_ROWS);
      return {
        url: whole.url,
        expiresAt: whole.expiresAt.toISOString(),
        ...(count > 1
          ? {
              parts: Array.from({ length: count }, (_, i) => ({
                part: i + 1,
                outputs: Math.min(BUNDLE_PART_ROWS, batch.succeeded - i * BUNDLE_PART_ROWS),
                url: link(`${params.id}${suffix}.part${i + 1}.zip`).url,
              })),
            }
          : {}),
      };
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/bundles/:file',
      summary: 'Download a bundle (signed link; no key needed)',
      tags: ['batches'],
      params: BundleFileParams,
      query: SignedQuery,
      access: { auth: false },
      responses: {
        200: {
          description:
            'The zip. x-bundle-missing-outputs: succeeded outputs missing from disk, left out (manifest.csv marks their rows).',
          mediaType: 'application/zip',
        },
        403: problem('url-invalid or url-expired: an altered or expired link'),
      },
    },
    async ({ params, request, reply }) => {
      deps.signer.verifyUrl(request.url);
      const match = /^(bat_[A-Za-z0-9_-]{1,64})(\.with-manifest)?(?:\.part(\d{1,6}))?\.zip$/.exec(
        params.file,
      );
      if (!match?.[1]) throw Errors.notFound('bundle', params.file);
      const batchId = match[1];
      const part = match[3] !== undefined ? Number(match[3]) : undefined;
      const { stream, missingRows } = await batches.bundle(batchId, Boolean(match[2]), {
        ...(part !== undefined ? { part } : {}),
        onError: (error) =>
          logServerProblem(`the bundle download of ${batchId} was cut short: ${error.message}`),
      });
      if (missingRows.length > 0) {
        logServerProblem(
          `the bundle of ${batchId} leaves out ${missingRows.length} output file(s) missing from the data folder (rows ${describeRows(missingRows)}).`,
        );
        reply.header('x-bundle-missing-outputs', String(missingRows.length));
      }
      // Saved under the template's and the source's names (RFC 6266), the id for old clients.
      const friendly = bundleFileName(await batches.get(batchId), part);
      return reply
        .type('application/zip')
        .header(
          'Content-Disposition',
          `attachment; filename="${match[1]}${part !== undefined ? `-part${part}` : ''}.zip"; filename*=UTF-8''${encodeURIComponent(friendly).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
        )
        .header('Cache-Control', 'private, no-store')
        .send(stream);
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/render-batches/:id/replay',
      summary: 'Re-queue failed and unprocessed rows; succeeded rows keep their identity',
      tags: ['batches'],
      params: BatchParams,
      access: { requiresSubscription: true },
      responses: {
        202: { description: 'The batch, queued again', schema: Batch },
        409: problem('batch-not-terminal or nothing-to-replay'),
      },
    },
    async ({ params, request, reply }) => {
      await assertVisible(data, request.principal, 'batch', params.id);
      reply.code(202);
      return batches.replay(params.id);
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/render-batches/:id/cancel',
      summary: 'Cancel (idempotent); rendered outputs stay retrievable',
      tags: ['batches'],
      params: BatchParams,
      responses: { 200: { description: 'The batch', schema: Batch } },
    },
    async ({ params, request }) => {
      await assertVisible(data, request.principal, 'batch', params.id);
      return batches.cancel(params.id);
    },
  );

  registry.add(
    {
      method: 'DELETE',
      url: '/v1/render-batches/:id',
      summary: 'Delete the batch, its rows and its outputs',
      tags: ['batches'],
      params: BatchParams,
      responses: {
        204: { description: 'Deleted' },
        404: problem('Unknown batch'),
      },
    },
    async ({ params, request, reply }) => {
      await assertVisible(data, request.principal, 'batch', params.id);
      await batches.remove(params.id);
      return reply.code(204).send();
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/render-batches/:id/events',
      summary: 'Live progress as server-sent events (polling the batch stays the contract)',
      tags: ['batches'],
      params: BatchParams,
      access: { uiLink: true },
      responses: {
        200: {
          description: 'text/event-stream of progress events',
          mediaType: 'text/event-stream',
        },
      },
    },
    async ({ params, reply, request }) => {
      const first = await visibleBatch(request, params.id);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      const send = (event: 'progress' | 'end', data: BatchProgressEvent | Batch) =>
        raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      send('progress', { batch: first, rowsPerSecond: 0, secondsLeft: null });
      if (isTerminal(first)) {
        send('end', first);
        raw.end();
        return;
      }
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
      const unsubscribe = deps.events.subscribe(params.id, (progress) => {
        send('progress', progress);
        if (isTerminal(progress.batch)) {
          send('end', progress.batch);
          cleanup();
          raw.end();
        }
      });
      // A batch that finished between the snapshot and the subscription.
      const poll = setInterval(() => {
        batches.get(params.id).then(
          (now) => {
            if (!isTerminal(now) || raw.writableEnded) return;
            send('end', now);
            cleanup();
            raw.end();
          },
          () => {
            cleanup();
            raw.end();
          },
        );
      }, 2000);
      function cleanup() {
        clearInterval(heartbeat);
        clearInterval(poll);
        unsubscribe();
      }
      request.raw.on('close', cleanup);
    },
  );
}

/** Row indexes for a log line: the first few, then how many more. */
function describeRows(rows: readonly number[]): string {
  const shown = rows.slice(0, 10).join(', ');
  return rows.length > 10 ? `${shown} and ${rows.length - 10} more` : shown;
}
