import { RenderPreviewRequest, RenderRequest } from '../../../../shared/api-schemas.js';
import { brandProfileFor } from '../../../brand/named-brand.js';
import { describeBrandFill, describeBrandGaps } from '../../../render/render-service.js';
import { readIdempotencyKey, requestFingerprint } from '../../idempotency-key.js';
import { requireUiSession, sendPreview } from '../../ui-preview.js';
import { OUTPUT_MEDIA_TYPES } from '../../../batch/output-address.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

/** Data URIs of photos make bodies large; 32 MiB matches the batch body limit (DESIGN §4). */
export const RENDER_BODY_LIMIT = 32 * 1024 * 1024;

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

export function registerRenderRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { data, renderer } = deps;

  registry.add(
    {
      method: 'POST',
      url: '/v1/render/preview',
      summary: 'A free, scaled-down preview for the desktop UI (UI sessions only)',
      tags: ['ui'],
      body: RenderPreviewRequest,
      bodyLimit: RENDER_BODY_LIMIT,
      responses: {
        200: { description: 'A JPEG preview', mediaType: 'image/jpeg' },
        403: problem('Only the desktop UI may preview'),
      },
    },
    async ({ body, request, reply }) => {
      requireUiSession(request);
      // A preview is one JPEG: the first page unless another is asked for, never transparent.
      const job = await renderer.prepareWithImageUrls(
        {
          ...body,
          format: 'jpeg',
          quality: 82,
          outputWidth: body.width,
          page: body.page ?? 1,
          background: undefined,
          scale: undefined,
        },
        { brand: await brandProfileFor(data.brandProfiles, body.brand) },
      );
      return sendPreview(
        reply,
        await renderer.run({ ...job, reportBoxes: true }, { lane: 'interactive' }),
      );
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
            'The image or PDF bytes (png, jpeg, webp, avif or pdf, as `format` asks). Headers: x-render-id, x-credits-remaining; x-brand-fill (each omitted brand-bound variable and where its value came from: brand, default or empty); x-render-warnings (brand roles left empty); x-missing-glyphs (characters no font draws).',
          mediaType: OUTPUT_MEDIA_TYPES,
        },
        400: problem('malformed-json, json-too-deep'),
        402: problem('insufficient-credits'),
        404: problem('Unknown template'),
        409: problem('idempotency-key-in-use'),
        422: problem(
          'validation-failed (a text value over 10,000 characters included), image-invalid, idempotency-key-reused, render-timeout',
        ),
        507: problem('disk-full (with an Idempotency-Key)'),
      },
    },
    async ({ body, request, reply }) => {
      const idempotencyKey = readIdempotencyKey(request);
      if (idempotencyKey !== undefined) reply.header('Idempotency-Key', idempotencyKey);
      const result = await deps.singleRenders.render({
        request: body,
        apiKeyId: request.principal?.id ?? 'anonymous',
        ...(idempotencyKey !== undefined
          ? {
              idempotency: {
                key: idempotencyKey,
                fingerprint: requestFingerprint(request.body),
              },
            }
          : {}),
      });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      else {
        if (result.missingGlyphs.length > 0)
          reply.header('x-missing-glyphs', describeGlyphs(result.missingGlyphs));
        const gaps = describeBrandGaps(result.brandFill);
        if (gaps) reply.header('x-render-warnings', gaps);
        const filled = describeBrandFill(result.brandFill);
        if (filled) reply.header('x-brand-fill', filled);
      }
      return reply
        .header('x-render-id', result.renderId)
        .header('x-credits-remaining', String(result.balance))
        .type(result.contentType)
        .send(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength));
    },
  );
}
