import fs from 'node:fs';
import path from 'node:path';
import { TemplateIdParams } from '../../../../shared/api-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import { WorkspaceTemplateDetail } from '../../../../shared/workspace-schemas.js';
import { exportPack } from '../../../packs/pack-export.js';
import { packFontsFrom } from '../../../packs/pack-fonts.js';
import { importPack } from '../../../packs/pack-import.js';
import { requestBaseUrl } from '../../request-base-url.js';
import { rawBody } from '../../binary-scope.js';
import { created, problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';
import { workspaceTemplateDetail } from './workspace-template-routes.js';

/** A pack is a template with its images and fonts: 100 MiB is many large photos. */
export const PACK_BODY_LIMIT = 100 * 1024 * 1024;

const PACK_TYPES = new Set([
  'application/zip',
  'application/octet-stream',
  'application/x-zip-compressed',
]);

/** The built-in catalog's note on where its sample images come from (templates/catalog/ASSETS.md). */
function builtInAssetsNote(deps: ServerDeps): string | null {
  const first = deps.catalog.list()[0];
  if (!first) return null;
  const file = path.join(path.dirname(first.assetsDir), 'ASSETS.md');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/**
 * Export of a workspace template as a pack. Built-in templates (`tmpl_…`) are not exported:
 * every copy of Render Desk has them; fork one first to share an edited copy.
 */
export function registerPackExportRoute(registry: RouteRegistry, deps: ServerDeps): void {
  registry.add(
    {
      method: 'GET',
      url: '/v1/templates/:id/pack',
      summary: 'Export a workspace template as a template pack (.zip)',
      tags: ['templates'],
      params: TemplateIdParams,
      access: { uiLink: true },
      responses: {
        200: { description: 'The pack', mediaType: 'application/zip' },
        404: problem('Unknown, deleted or built-in template'),
      },
    },
    async ({ params, reply }) => {
      const record = deps.workspace.get(params.id);
      if (!record) throw Errors.notFound('workspace template', params.id);
      const pack = await exportPack(record, {
        workspace: deps.workspace,
        fonts: packFontsFrom(deps.fonts),
        version: deps.system.version,
        builtInAssetsNote: builtInAssetsNote(deps),
      });
      return reply
        .header('Content-Disposition', `attachment; filename="${pack.fileName}"`)
        .header('Cache-Control', 'no-store')
        .type('application/zip')
        .send(pack.stream);
    },
  );
}

/** Import takes the zip as the raw body: registered in a binary-body scope. */
export function registerPackImportRoute(registry: RouteRegistry, deps: ServerDeps): void {
  registry.add(
    {
      method: 'POST',
      url: '/v1/templates/import',
      summary: 'Import a template pack (raw .zip body) as a new workspace template',
      tags: ['templates'],
      bodyLimit: PACK_BODY_LIMIT,
      access: { scope: 'templates' },
      responses: {
        201: { description: 'The new workspace template', schema: WorkspaceTemplateDetail },
        409: problem('A font of the pack differs from an installed one'),
        413: problem('The body is over 100 MiB'),
        415: problem('Not a zip body'),
        422: problem(
          'invalid-archive, archive-limits-exceeded, pack-invalid (with paths), pack-unsupported-version',
        ),
      },
    },
    async ({ request, reply }) => {
      const bytes = rawBody(
        request,
        (type) => PACK_TYPES.has(type),
        'Send the pack as the raw body with Content-Type application/zip.',
      );
      const record = await importPack(bytes, {
        workspace: deps.workspace,
        fonts: packFontsFrom(deps.fonts),
      });
      const detail = workspaceTemplateDetail(deps, requestBaseUrl(request), record);
      return created(reply, `/v1/templates/${record.id}`, detail);
    },
  );
}
