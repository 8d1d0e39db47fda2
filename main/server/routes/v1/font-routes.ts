import { AppError, Errors } from '../../../../shared/errors.js';
import {
  CustomFont,
  FontIdParams,
  FontList,
  FontUploadQuery,
} from '../../../../shared/font-schemas.js';
import { FONT_BODY_LIMIT } from '../../../fonts/custom-fonts.js';
import { fontUsers } from '../../../fonts/font-users.js';
import { rawBody } from '../../binary-scope.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

/**
 * Content types a font may be sent with. The format is told by the file's magic bytes, so the
 * declared type only has to say "a font or some bytes".
 */
function isFontContentType(type: string): boolean {
  return (
    type.startsWith('font/') ||
    type.startsWith('application/font-') ||
    type.startsWith('application/x-font-') ||
    type === 'application/vnd.ms-opentype' ||
    type === 'application/octet-stream'
  );
}

export function registerFontRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { fonts } = deps;

  registry.add(
    {
      method: 'GET',
      url: '/v1/fonts',
      summary: 'Font families: the bundled ones, then the uploaded ones with their faces',
      tags: ['fonts'],
      responses: { 200: { description: 'Families', schema: FontList } },
    },
    async () => fonts.list(),
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/fonts/:id',
      summary: 'An uploaded font',
      tags: ['fonts'],
      params: FontIdParams,
      responses: {
        200: { description: 'The font', schema: CustomFont },
        404: problem('Unknown font'),
      },
    },
    async ({ params }) => fonts.get(params.id),
  );

  registry.add(
    {
      method: 'DELETE',
      url: '/v1/fonts/:id',
      summary:
        'Delete an uploaded font unless a workspace template or brand profile uses its family',
      tags: ['fonts'],
      access: { scope: 'templates' },
      params: FontIdParams,
      responses: {
        204: { description: 'Deleted' },
        404: problem('Unknown font'),
        409: problem('font-in-use, naming the users'),
      },
    },
    async ({ params, reply }) => {
      const record = fonts.record(params.id);
      if (!record) throw Errors.notFound('font', params.id);
      const users = fontUsers(record.family, {
        templates: deps.workspace.list(),
        brands: await deps.data.brandProfiles.list(),
      });
      if (users.length > 0) {
        const named = users
          .slice(0, 5)
          .map((u) => `${u.kind === 'brand' ? 'brand profile' : 'template'} "${u.name}"`)
          .join(', ');
        throw new AppError(
          'font-in-use',
          `${record.family} is used by ${named}${users.length > 5 ? ` and ${users.length - 5} more` : ''}. Choose another font there first, then delete it.`,
          { extensions: { users } },
        );
      }
      if (!(await fonts.remove(params.id))) throw Errors.notFound('font', params.id);
      return reply.code(204).send();
    },
  );
}

/** The upload takes the font file as the raw body: registered in a binary-body scope. */
export function registerFontUploadRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  registry.add(
    {
      method: 'POST',
      url: '/v1/fonts',
      summary: 'Upload a font (TTF, OTF, WOFF or WOFF2 as the raw body; at most 20 MiB)',
      tags: ['fonts'],
      access: { scope: 'templates' },
      query: FontUploadQuery,
      bodyLimit: FONT_BODY_LIMIT,
      responses: {
        200: {
          description: 'These bytes were uploaded before: the stored font',
          schema: CustomFont,
        },
        201: { description: 'The stored font', schema: CustomFont },
        409: problem('conflict: a bundled family, or another file for an installed face'),
        413: problem('payload-too-large'),
        415: problem('Not sent as a font or raw bytes'),
        422: problem(
          'font-invalid: not a font, truncated or damaged; font-too-large: it declares or inflates to more than 32 MiB of font data',
        ),
      },
    },
    async ({ query, request, reply }) => {
      const bytes = rawBody(
        request,
        isFontContentType,
        'Send the font file as the raw body with Content-Type font/ttf, font/otf, font/woff, font/woff2 or application/octet-stream.',
      );
      const { font, created } = await deps.fonts.upload(bytes, query.name ?? null);
      reply.code(created ? 201 : 200).header('Location', `/v1/fonts/${font.id}`);
      return font;
    },
  );
}
