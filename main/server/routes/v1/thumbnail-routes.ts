import fs from 'node:fs';
import { SignedQuery, ThumbnailParams } from '../../../../shared/api-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import { Ratio } from '../../../../shared/template-format.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

export function registerThumbnailRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  registry.add(
    {
      method: 'GET',
      url: '/v1/thumbnails/:id/:file',
      summary: 'A template thumbnail (signed link from the catalog; no key needed)',
      tags: ['catalog'],
      params: ThumbnailParams,
      query: SignedQuery,
      access: { auth: false },
      responses: {
        200: { description: 'PNG thumbnail', mediaType: 'image/png' },
        403: problem('url-invalid or url-expired: an altered or expired link'),
      },
    },
    async ({ params, request, reply }) => {
      deps.signer.verifyUrl(request.url);
      const ratio = Ratio.safeParse(params.file.replace(/\.png$/, ''));
      const entry = deps.templates.get(params.id);
      if (!entry || !ratio.success || !entry.ratios.includes(ratio.data)) {
        throw Errors.notFound('thumbnail', `${params.id}/${params.file}`);
      }
      const file = await deps.thumbnails.file(entry, ratio.data);
      return reply
        .type('image/png')
        .header('Cache-Control', 'private, max-age=900')
        .send(fs.createReadStream(file));
    },
  );
}
