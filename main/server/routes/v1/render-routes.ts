import { z } from 'zod';
import fs from 'node:fs';
import path from 'node:path';
import { ProblemDetails, RenderRequest } from '../../../../shared/api-schemas.js';
import { AppError } from '../../../../shared/errors.js';
import { brandProfileFor } from '../../../brand/named-brand.js';
import { writeFileDurably } from '../../../files/write-file-durably.js';
import type { OutputFormat } from '../../../render/render-protocol.js';
import type { BrandFill } from '../../../engine/resolve-values.js';
import { describeBrandFill, describeBrandGaps } from '../../../render/render-service.js';
import { GroupCommitter } from '../../../store/group-commit.js';
import { newRenderId } from '../../../store/renders-repository.js';
import { readIdempotencyKey, requestFingerprint } from '../../idempotency-key.js';
import { requireUiSession, sendPreview } from '../../ui-preview.js';
import type { RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

/** Data URIs of photos make bodies large; 32 MiB matches the batch body limit (DESIGN §4). */
export const RENDER_BODY_LIMIT = 32 * 1024 * 1024;

const EXTENSIONS: Record<OutputFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/**
 * Characters no bundled or uploaded font can draw (they come out blank), as code points
 * (`U+6F22 U+5B57`): header values are ASCII. A character of several code points is joined by +.
 */
export function describeGlyphs(glyphs: readonly string[]): string {
  const MAX_LISTED = 32;
  const listed = glyphs
    .slice(0, MAX_LISTED)
    .map((glyph) =>
      [...glyph]
        .map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`)
        .join('+'),
    );
  return glyphs.length > MAX_LISTED ? `${listed.join(' ')} ...` : listed.join(' ');
}

/** Previews are scaled to this width: enough for the editor, useless as a free final image. */
export const PREVIEW_WIDTH = 720;

const PreviewRequest = RenderRequest.extend({
  width: z.number().int().min(64).max(PREVIEW_WIDTH).default(PREVIEW_WIDTH),
});

export function registerRenderRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { store, renderer, reservations } = deps;
  // Renders that finish while another's debit is being synced share the next commit.
  const commits = new GroupCommitter(store.db, 0);

  registry.add(
    {
      method: 'POST',
      url: '/v1/render/preview',
      summary: 'A free, scaled-down preview for the desktop UI (UI sessions only)',
      tags: ['ui'],
      body: PreviewRequest,
      bodyLimit: RENDER_BODY_LIMIT,
      responses: {
        200: { description: 'A JPEG preview', mediaType: 'image/jpeg' },
        403: { description: 'Only the desktop UI may preview', schema: ProblemDetails },
      },
    },
    async ({ body, request, reply }) => {
      requireUiSession(request);
      const job = renderer.prepare(
        { ...body, format: 'jpeg', quality: 82, outputWidth: body.width },
        { brand: brandProfileFor(store.brandProfiles, body.brand) },
      );
      return sendPreview(reply, await renderer.run(job, { lane: 'interactive' }));
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/render',
      summary: 'Render one image (synchronous)',
      tags: ['render'],
      body: RenderRequest,
      bodyLimit: RENDER_BODY_LIMIT,
      access: { requiresSubscription: true },
      responses: {
        200: {
          description:
            'The image bytes (png, jpeg or webp). Headers: x-render-id, x-credits-remaining; x-brand-fill (each omitted brand-bound variable and where its value came from: brand, default or empty); x-render-warnings (brand roles left empty); x-missing-glyphs (characters no font draws).',
          mediaType: 'image/png',
        },
        400: { description: 'malformed-json, json-too-deep', schema: ProblemDetails },
        402: { description: 'insufficient-credits', schema: ProblemDetails },
        404: { description: 'Unknown template', schema: ProblemDetails },
        409: { description: 'idempotency-key-in-use', schema: ProblemDetails },
        422: {
          description:
            'validation-failed (a text value over 10,000 characters included), image-invalid, idempotency-key-reused, render-timeout',
          schema: ProblemDetails,
        },
        507: { description: 'disk-full (with an Idempotency-Key)', schema: ProblemDetails },
      },
    },
    async ({ body, request, reply }) => {
      const apiKeyId = request.principal?.id ?? 'anonymous';
      const idempotencyKey = readIdempotencyKey(request);
      if (idempotencyKey !== undefined) {
        reply.header('Idempotency-Key', idempotencyKey);
        const claim = store.idempotency.claim({
          apiKeyId,
          key: idempotencyKey,
          requestHash: requestFingerprint(request.body),
          now: new Date(),
        });
        if (claim.state === 'claimed' && claim.staleOutputPath) {
          fs.rmSync(claim.staleOutputPath, { force: true });
        }
        if (claim.state === 'mismatch') {
          throw new AppError(
            'idempotency-key-reused',
            'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
          );
        }
        if (claim.state === 'in-progress') {
          throw new AppError(
            'idempotency-key-in-use',
            'A request with this Idempotency-Key is still rendering. Retry in a second to get its result.',
            { headers: { 'Retry-After': '1' } },
          );
        }
        if (claim.state === 'completed') {
          const { record } = claim;
          if (record.outputPath && fs.existsSync(record.outputPath)) {
            return reply
              .header('x-render-id', record.renderId)
              .header('Idempotent-Replayed', 'true')
              .header('x-credits-remaining', String(store.ledger.account().balance))
              .type(record.contentType)
              .send(fs.readFileSync(record.outputPath));
          }
          throw new AppError('internal', 'The stored result of this Idempotency-Key is missing.');
        }
      }

      let release: (() => void) | undefined;
      let outputPath: string | undefined;
      let committed = false;
      try {
        const brandFill: BrandFill[] = [];
        const job = renderer.prepare(body, {
          brand: brandProfileFor(store.brandProfiles, body.brand),
          brandFill,
        });
        release = reservations.reserve(1);
        const result = await renderer.run(job, { lane: 'interactive' });
        const renderId = newRenderId();
        if (idempotencyKey !== undefined) {
          outputPath = path.join(
            deps.outputsDir,
            'renders',
            `${renderId}.${EXTENSIONS[body.format]}`,
          );
          await writeFileDurably(outputPath, result.bytes);
        }
        const now = new Date();
        const balance = await commits.commit(() => {
          const after = store.ledger.debitRender({ renderId, amount: 1, apiKeyId });
          store.renders.insert({
            id: renderId,
            templateId: body.templateId,
            ratio: job.ratio,
            format: body.format,
            apiKeyId,
            bytes: result.bytes.byteLength,
            createdAt: now.toISOString(),
          });
          if (idempotencyKey !== undefined && outputPath !== undefined) {
            store.idempotency.complete({
              apiKeyId,
              key: idempotencyKey,
              renderId,
              contentType: result.contentType,
              outputPath,
              now,
            });
          }
          return after.balance;
        });
        committed = true;
        const { missingGlyphs } = result.report;
        if (missingGlyphs.length > 0)
          reply.header('x-missing-glyphs', describeGlyphs(missingGlyphs));
        const gaps = describeBrandGaps(brandFill);
        if (gaps) reply.header('x-render-warnings', gaps);
        const filled = describeBrandFill(brandFill);
        if (filled) reply.header('x-brand-fill', filled);
        return reply
          .header('x-render-id', renderId)
          .header('x-credits-remaining', String(balance))
          .type(result.contentType)
          .send(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength));
      } finally {
        release?.();
        if (!committed) {
          if (idempotencyKey !== undefined)
            store.idempotency.abandon({ apiKeyId, key: idempotencyKey });
          if (outputPath !== undefined) fs.rmSync(outputPath, { force: true });
        }
      }
    },
  );
}
