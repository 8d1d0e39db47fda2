import {
  CreatePreviewLinkRequest,
  PreviewLink,
  PreviewLinkQuery,
  PreviewSecretRotated,
} from '../../../../shared/preview-link-schemas.js';
import { PREVIEW_IMAGE_PATH, type PreviewLinks } from '../../../preview-links/preview-links.js';
import { requestBaseUrl } from '../../request-base-url.js';
import { problem, type RouteRegistry } from '../../route-registry.js';

export interface PreviewLinkRouteDeps {
  previewLinks: PreviewLinks;
  /** Replaces the signing secret: every link made before stops working (403 url-invalid). */
  rotatePreviewSecret: () => Promise<void>;
}

export function registerPreviewLinkRoutes(
  registry: RouteRegistry,
  deps: PreviewLinkRouteDeps,
): void {
  registry.add(
    {
      method: 'POST',
      url: '/v1/preview-links',
      summary:
        'Make a signed, expiring GET link that renders a template with these values (for <img src>); each distinct image is charged once, to this key, when first fetched',
      tags: ['render'],
      body: CreatePreviewLinkRequest,
      access: { requiresSubscription: true },
      responses: {
        201: { description: 'The link', schema: PreviewLink },
        404: problem('Unknown template'),
        422: problem('validation-failed, image-invalid (the values would not render)'),
      },
    },
    async ({ body, request, reply }) => {
      const link = await deps.previewLinks.create(
        body,
        request.principal?.id ?? 'anonymous',
        requestBaseUrl(request),
      );
      return reply.code(201).send(link);
    },
  );

  registry.add(
    {
      method: 'GET',
      url: PREVIEW_IMAGE_PATH,
      summary:
        'The image of a preview link (no Authorization header: the signature is the authority). Values ride as v.<name> parameters. Same link, same bytes: ETag, and Cache-Control until the expiry',
      tags: ['render'],
      query: PreviewLinkQuery,
      access: { auth: false },
      responses: {
        200: {
          description:
            'The image, with ETag and Cache-Control (public, max-age until the expiry); 304 Not Modified when If-None-Match names the ETag',
          mediaType: ['image/png', 'image/jpeg', 'image/webp', 'image/avif'],
        },
        402: problem('insufficient-credits (the first fetch renders)'),
        403: problem(
          'url-invalid (altered, carrying a parameter it was not signed with or one twice, or signed with a rotated secret, or its key revoked), url-expired',
        ),
      },
    },
    async ({ request, reply }) => {
      // The raw query string, not the parsed object: a repeated parameter must stay visible.
      const search = request.url.slice(request.url.indexOf('?') + 1 || request.url.length);
      const served = await deps.previewLinks.serve(
        new URLSearchParams(search),
        request.headers['if-none-match'],
      );
      reply
        .header('ETag', served.etag)
        .header('Cache-Control', `public, max-age=${served.maxAgeSeconds}`)
        // Embedding in another local origin's page (a dev server, a CMS) is what it is for.
        .header('Cross-Origin-Resource-Policy', 'cross-origin');
      if (served.status === 304) return reply.code(304).send();
      return reply.type(served.contentType).send(served.bytes);
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/preview-links/rotate-secret',
      summary: 'Revoke every preview link made so far by replacing their signing secret',
      tags: ['render'],
      access: { scope: 'admin' },
      responses: { 200: { description: 'Rotated', schema: PreviewSecretRotated } },
    },
    async () => {
      await deps.rotatePreviewSecret();
      return { rotatedAt: new Date().toISOString() };
    },
  );
}
