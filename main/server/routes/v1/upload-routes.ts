import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { Errors } from '../../../../shared/errors.js';
import {
  CellEditBody,
  Upload,
  UploadParams,
  UploadQuery,
  UploadRows,
  UploadRowsQuery,
  UploadSheetQuery,
} from '../../../../shared/upload-schemas.js';
import { MAX_UPLOAD_BYTES } from '../../../ingest/upload-service.js';
import { assertVisible } from '../../ownership.js';
import { created, problem, RouteRegistry } from '../../route-registry.js';
import { uploadBody } from '../../upload-body.js';
import type { ServerDeps } from '../../server-deps.js';

/**
 * POST /v1/uploads takes the file as the raw body (any Content-Type; the kind is decided by the
 * bytes) or as multipart field `file`. The body streams to disk under a byte cap, never buffered.
 */
export function registerUploadRoutes(
  app: FastifyInstance,
  parent: RouteRegistry,
  deps: ServerDeps,
): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: MAX_UPLOAD_BYTES,
        files: 1,
        fields: 10,
        parts: 12,
        fieldNameSize: 100,
        fieldSize: 1024,
        headerPairs: 50,
      },
    });
    // Every other content type streams through untouched.
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const registry = new RouteRegistry(scope, parent.routes);

    registry.add(
      {
        method: 'POST',
        url: '/v1/uploads',
        summary:
          'Upload a CSV/XLSX spreadsheet, an image, or a .zip of images (raw body or multipart field "file")',
        tags: ['uploads'],
        query: UploadQuery,
        bodyLimit: MAX_UPLOAD_BYTES,
        responses: {
          201: {
            description: 'The upload with its rows, fields and sheets',
            schema: Upload,
          },
          400: problem('bad-request: a malformed multipart body'),
          413: problem('payload-too-large'),
          415: problem('unsupported-media-type'),
          422: problem('invalid-spreadsheet, no-rows-found, archive-limits-exceeded, …'),
        },
      },
      async ({ query, request, reply }) => {
        const body = await uploadBody(request, MAX_UPLOAD_BYTES);
        const filename =
          body.filename ??
          query.filename ??
          headerFilename(request.headers['x-filename']) ??
          'upload';
        const sheet = sheetOf(query.sheet);
        const upload = await deps.uploads
          .receive(body.stream, {
            filename,
            contentType: body.contentType,
            apiKeyId: request.principal?.id ?? null,
            ...(sheet !== undefined ? { sheet } : {}),
          })
          .catch((error: unknown) => {
            throw body.failure() ?? error;
          });
        return created(reply, `/v1/uploads/${upload.id}`, upload);
      },
    );

    registry.add(
      {
        method: 'GET',
        url: '/v1/uploads/:id',
        summary: 'An upload with its rows, fields and sheets',
        tags: ['uploads'],
        params: UploadParams,
        query: UploadSheetQuery,
        responses: {
          200: { description: 'The upload', schema: Upload },
          404: problem('Unknown or expired upload'),
        },
      },
      async ({ params, query, request }) => {
        await assertVisible(deps.data, request.principal, 'upload', params.id);
        const sheet = sheetOf(query.sheet);
        if (sheet !== undefined) return deps.uploads.describeSheet(params.id, sheet);
        const upload = await deps.uploads.get(params.id);
        if (!upload) throw Errors.notFound('upload', params.id);
        return upload;
      },
    );

    registry.add(
      {
        method: 'GET',
        url: '/v1/uploads/:id/rows',
        summary: "A page of a spreadsheet upload's rows, as a batch reads them",
        tags: ['uploads'],
        params: UploadParams,
        query: UploadRowsQuery,
        responses: {
          200: { description: 'The rows from `offset`, at most `limit`', schema: UploadRows },
          404: problem('Unknown or expired upload'),
          422: problem('The upload is no spreadsheet'),
        },
      },
      async ({ params, query, request }) => {
        await assertVisible(deps.data, request.principal, 'upload', params.id);
        const sheet = sheetOf(query.sheet);
        const source = await deps.uploads.rowsFor(params.id, sheet);
        const rows: UploadRows['rows'] = [];
        // Leaving the loop closes the file: only the rows up to the page are read.
        for await (const row of source.rows) {
          if (row.rowIndex < query.offset) continue;
          rows.push({
            rowIndex: row.rowIndex,
            line: row.line ?? row.rowIndex + 2,
            cells: { ...row.cells } as UploadRows['rows'][number]['cells'],
          });
          if (rows.length >= query.limit) break;
        }
        return { rows };
      },
    );
  });

  // A JSON body: registered beside the upload scope, whose parser passes bodies through raw.
  parent.add(
    {
      method: 'PUT',
      url: '/v1/uploads/:id/cells',
      summary:
        "Change one cell in this upload's copy of the data (the file is untouched); pre-flight and batches read the row with it",
      tags: ['uploads'],
      params: UploadParams,
      body: CellEditBody,
      responses: {
        200: { description: 'The upload, its preview and edits updated', schema: Upload },
        404: problem('Unknown or expired upload'),
        422: problem('validation-failed: no such column or row, or no spreadsheet'),
      },
    },
    async ({ params, body, request }) => {
      await assertVisible(deps.data, request.principal, 'upload', params.id);
      return deps.uploads.editCell(params.id, body);
    },
  );
}

/** `?sheet=`: a sheet's position when it is all digits, else its name. */
function sheetOf(sheet: string | undefined): string | number | undefined {
  if (sheet === undefined) return undefined;
  return /^\d+$/.test(sheet) ? Number(sheet) : sheet;
}

function headerFilename(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
