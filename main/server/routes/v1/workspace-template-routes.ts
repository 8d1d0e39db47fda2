import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { CatalogQuery, TemplateIdParams } from '../../../../shared/api-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import type { Ratio } from '../../../../shared/template-format.js';
import {
  AssetCreated,
  DraftPreviewRequest,
  TemplateAssetParams,
  TemplateAssetQuery,
  ForkRequest,
  TemplatePatch,
  WorkspaceTemplateDetail,
  type WorkspaceTemplateItem,
  WorkspaceTemplateList,
} from '../../../../shared/workspace-schemas.js';
import { createCatalog, templateRatios } from '../../../catalog/load-catalog.js';
import type { WorkspaceTemplateRecord } from '../../../store/workspace-templates-repository.js';
import { rawBody } from '../../binary-scope.js';
import { requestBaseUrl } from '../../request-base-url.js';
import { created, problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';
import { requireUiSession, sendPreview } from '../../ui-preview.js';
import { catalogDetail, THUMBNAIL_URL_TTL_SECONDS } from './catalog-routes.js';
import { RENDER_BODY_LIMIT } from './render-routes.js';
import { checkTemplateAsset } from '../../../workspace/template-asset.js';

/** A template with many layouts and long sample texts stays far below this. */
const TEMPLATE_BODY_LIMIT = 4 * 1024 * 1024;
/** Asset images: a large photo. */
const ASSET_BODY_LIMIT = 25 * 1024 * 1024;

const ASSET_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/** The answer of every route that returns one workspace template (fork, read, edit, import). */
export function workspaceTemplateDetail(
  deps: ServerDeps,
  base: string,
  record: WorkspaceTemplateRecord,
): WorkspaceTemplateDetail {
  const thumbnailUrl = (ratio: Ratio) =>
    base +
    deps.signer.sign(`/v1/thumbnails/${record.id}/${ratio}.png`, THUMBNAIL_URL_TTL_SECONDS).url;
  return {
    ...catalogDetail(deps.workspace.toEntry(record), thumbnailUrl),
    forkedFrom: record.forkedFrom,
    version: record.version,
    updatedAt: record.updatedAt,
    template: record.template,
  };
}

export function registerWorkspaceTemplateRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { workspace, renderer } = deps;
  const thumbnailUrl = (base: string, id: string, ratio: Ratio) =>
    base + deps.signer.sign(`/v1/thumbnails/${id}/${ratio}.png`, THUMBNAIL_URL_TTL_SECONDS).url;

  const item = (base: string, record: WorkspaceTemplateRecord): WorkspaceTemplateItem => {
    const ratios = templateRatios(record.template);
    return {
      id: record.id,
      name: record.template.name,
      category: record.template.category,
      subCategory: record.template.subCategory,
      market: record.template.market,
      thumbnail: thumbnailUrl(base, record.id, ratios[0] as Ratio),
      ratios,
      createdAt: record.template.createdAt,
      forkedFrom: record.forkedFrom,
      version: record.version,
      updatedAt: record.updatedAt,
    };
  };

  const detail = (base: string, record: WorkspaceTemplateRecord) =>
    workspaceTemplateDetail(deps, base, record);

  registry.add(
    {
      method: 'POST',
      url: '/v1/catalog/:id/fork',
      summary: 'Fork a template into an editable workspace template (wtpl_…)',
      tags: ['templates'],
      access: { scope: 'templates' },
      params: TemplateIdParams,
      body: ForkRequest,
      responses: {
        201: { description: 'The new workspace template', schema: WorkspaceTemplateDetail },
        404: problem('Unknown template'),
      },
    },
    async ({ params, body, request, reply }) => {
      const source = renderer.entry(params.id);
      const record = await workspace.fork(source, body.name);
      return created(reply, `/v1/templates/${record.id}`, detail(requestBaseUrl(request), record));
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/templates',
      summary: 'List workspace templates (same item shape and filters as the catalog)',
      tags: ['templates'],
      query: CatalogQuery,
      responses: { 200: { description: 'Items', schema: WorkspaceTemplateList } },
    },
    async ({ query, request }) => {
      const records = workspace.list();
      const byId = new Map(records.map((record) => [record.id, record]));
      const catalog = createCatalog(
        records.map((record, order) => ({ ...workspace.toEntry(record), order })),
      );
      const base = requestBaseUrl(request);
      return catalog.list(query).map((entry) => item(base, byId.get(entry.template.id)!));
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/templates/:id',
      summary: 'A workspace template with its whole document',
      tags: ['templates'],
      params: TemplateIdParams,
      responses: {
        200: { description: 'Workspace template', schema: WorkspaceTemplateDetail },
        404: problem('Unknown or deleted'),
      },
    },
    async ({ params, request }) => detail(requestBaseUrl(request), workspace.require(params.id)),
  );

  registry.add(
    {
      method: 'PATCH',
      url: '/v1/templates/:id',
      summary: 'Edit a workspace template; every save is a new version',
      tags: ['templates'],
      access: { scope: 'templates' },
      params: TemplateIdParams,
      body: TemplatePatch,
      bodyLimit: TEMPLATE_BODY_LIMIT,
      responses: {
        200: { description: 'The saved template', schema: WorkspaceTemplateDetail },
        404: problem('Unknown or deleted'),
        409: problem('version-conflict'),
        422: problem('validation-failed, with the path of each problem'),
      },
    },
    async ({ params, body, request }) => {
      const { baseVersion, ...changes } = body;
      // The raw body, not the parsed one: defaults the schema fills in are not edits.
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const edited = Object.fromEntries(
        Object.keys(changes)
          .filter((key) => key in raw)
          .map((key) => [key, raw[key]]),
      );
      const record = await workspace.update(params.id, edited, baseVersion);
      return detail(requestBaseUrl(request), record);
    },
  );

  registry.add(
    {
      method: 'DELETE',
      url: '/v1/templates/:id',
      summary: 'Delete a workspace template (running batches finish with their version)',
      tags: ['templates'],
      access: { scope: 'templates' },
      params: TemplateIdParams,
      responses: {
        204: { description: 'Deleted' },
        404: problem('Unknown or already deleted'),
      },
    },
    async ({ params, reply }) => {
      if (!(await workspace.remove(params.id)))
        throw Errors.notFound('workspace template', params.id);
      return reply.code(204).send();
    },
  );

  registry.add(
    {
      method: 'POST',
      url: '/v1/templates/:id/preview',
      summary: "The editor's preview of an unsaved draft (UI sessions only; free)",
      tags: ['ui'],
      params: TemplateIdParams,
      body: DraftPreviewRequest,
      bodyLimit: RENDER_BODY_LIMIT,
      responses: {
        200: { description: 'A JPEG preview', mediaType: 'image/jpeg' },
        403: problem('Only the desktop UI may preview'),
        422: problem('The draft is invalid'),
      },
    },
    async ({ params, body, request, reply }) => {
      requireUiSession(request);
      const saved = workspace.require(params.id);
      const draft = workspace.validate({
        ...(typeof body.template === 'object' && body.template !== null ? body.template : {}),
        id: saved.id,
      });
      const entry = workspace.toEntry({ ...saved, template: draft });
      const job = await renderer.prepareWithImageUrls(
        {
          templateId: saved.id,
          values: body.values,
          target: body.target,
          format: 'jpeg',
          quality: 82,
          outputWidth: body.width,
          // The page being edited; a page the layout lacks is a 422 naming its pages.
          page: body.page,
        },
        { entry },
      );
      return sendPreview(
        reply,
        await renderer.run({ ...job, reportBoxes: true }, { lane: 'interactive' }),
      );
    },
  );
}

/** The bytes decide the type, as for an upload; other files of the folder are not served. */
const ASSET_READ_TYPES: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** Template assets: the upload takes a raw image body, so they are registered in a binary-body scope. */
export function registerWorkspaceAssetRoutes(registry: RouteRegistry, deps: ServerDeps): void {
  const { workspace } = deps;
  registry.add(
    {
      method: 'POST',
      url: '/v1/templates/:id/assets',
      summary: 'Add an image (PNG, JPEG, WebP; raw body) to a workspace template',
      tags: ['templates'],
      access: { scope: 'templates' },
      params: TemplateIdParams,
      bodyLimit: ASSET_BODY_LIMIT,
      responses: {
        201: { description: 'The asset name', schema: AssetCreated },
        415: problem('Not a PNG, JPEG or WebP body'),
        422: problem('The image cannot be decoded'),
      },
    },
    async ({ params, request, reply }) => {
      workspace.require(params.id);
      const bytes = rawBody(
        request,
        (type) => ASSET_TYPES.has(type),
        'Send the image as the raw body with Content-Type image/png, image/jpeg or image/webp.',
      );
      // The bytes decide the format, not the Content-Type: an SVG sent as image/png is refused.
      const extension = await checkTemplateAsset(bytes, 'body');
      const asset = await workspace.addAsset(params.id, bytes, extension);
      return reply.code(201).send({ asset });
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/templates/:id/assets/:name',
      summary: "An image of a workspace template's own (fixed artwork or a sample image)",
      tags: ['templates'],
      params: TemplateAssetParams,
      query: TemplateAssetQuery,
      access: { uiLink: true },
      responses: {
        200: { description: 'The image', mediaType: ['image/png', 'image/jpeg', 'image/webp'] },
        404: problem('Unknown template or asset'),
      },
    },
    async ({ params, query, reply }) => {
      workspace.require(params.id);
      const dir = path.resolve(workspace.assetsDir(params.id));
      const file = path.resolve(dir, params.name);
      // Only files inside the template's own folder, as the engine reads them.
      const inside = file.startsWith(dir + path.sep) && fs.existsSync(file);
      const meta = inside
        ? await sharp(file)
            .metadata()
            .catch(() => null)
        : null;
      const type = meta?.format ? ASSET_READ_TYPES[meta.format] : undefined;
      if (!type) throw Errors.notFound('template asset', params.name);
      if (query.width !== undefined) {
        // Turned upright as the engine draws it, so a subject marked on it lands where drawn.
        const small = await sharp(file)
          .rotate()
          .resize({ width: query.width, withoutEnlargement: true })
          .webp({ quality: 80 })
          .toBuffer();
        return reply
          .type('image/webp')
          .header('Cache-Control', 'private, max-age=3600')
          .send(small);
      }
      return reply
        .type(type)
        .header('Cache-Control', 'private, max-age=3600')
        .send(fs.createReadStream(file));
    },
  );
}
