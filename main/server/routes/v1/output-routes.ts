import sharp from 'sharp';
import {
  OutputParams,
  OutputQuery,
  TemplateFieldsQuery,
  TemplateFieldsResult,
} from '../../../../shared/batch-schemas.js';
import { Errors } from '../../../../shared/errors.js';
import type { BatchOutputs } from '../../../batch/batch-outputs.js';
import { OUTPUT_MEDIA_TYPES, parseOutputKey } from '../../../batch/output-address.js';
import { templateFields, templateFieldsCsv } from '../../../batch/template-fields.js';
import { assertOutputVisible } from '../../ownership.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

export function registerOutputRoutes(
  registry: RouteRegistry,
  deps: ServerDeps & { outputs: BatchOutputs },
): void {
  registry.add(
    {
      method: 'GET',
      url: '/v1/outputs/:outputKey',
      summary:
        'A stored output (batch row, sheet part or idempotent single render; a non-admin key sees only its own)',
      tags: ['batches'],
      params: OutputParams,
      query: OutputQuery,
      access: { uiLink: true },
      responses: {
        200: {
          description: 'The image, PDF or zip of numbered pages',
          mediaType: OUTPUT_MEDIA_TYPES,
        },
        404: problem('Unknown output'),
      },
    },
    async ({ params, query, request, reply }) => {
      await assertOutputVisible(deps.data, request.principal, params.outputKey);
      const found = parseOutputKey(params.outputKey);
      if (!found) throw Errors.notFound('output', params.outputKey);
      // Opened before answering: an output removed since the check is a 404, not a broken stream.
      const stream = await deps.objects.getStream(found.objectKey);
      if (!stream) throw Errors.notFound('output', params.outputKey);
      if (query.width !== undefined && !found.contentType.startsWith('image/')) {
        stream.destroy();
        throw Errors.validation([
          {
            path: 'width',
            message: 'a PDF or zip output has no image thumbnail; fetch it without width',
          },
        ]);
      }
      if (query.width !== undefined) {
        // Results tables show thousands of these: small JPEGs instead of full-size images.
        const thumbnail = await stream
          .pipe(sharp().resize({ width: query.width }).jpeg({ quality: 80 }))
          .toBuffer();
        return reply
          .type('image/jpeg')
          .header('Cache-Control', 'private, max-age=3600')
          .send(thumbnail);
      }
      return reply
        .type(found.contentType)
        .header('Cache-Control', 'private, max-age=3600')
        .send(stream);
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/render-batches/template-fields',
      summary:
        'The columns a spreadsheet for a template needs, with a sample row (?format=csv for a file)',
      tags: ['batches'],
      query: TemplateFieldsQuery,
      access: { uiLink: true },
      responses: {
        200: { description: 'Template fields', schema: TemplateFieldsResult },
        404: problem('Unknown template'),
      },
    },
    async ({ query, reply }) => {
      const entry = deps.renderer.entry(query.templateId);
      const result = templateFields(entry.template);
      if (query.format === 'csv') {
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${entry.template.id}.csv"`)
          .send(templateFieldsCsv(result));
      }
      return result;
    },
  );
}
