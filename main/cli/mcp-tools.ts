import fs from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { RenderRequest } from '../../shared/api-schemas.js';
import { CreateBatchRequest } from '../../shared/batch-schemas.js';
import { AppError, Errors, isAppError } from '../../shared/errors.js';
import { scopeAllows, type KeyScope } from '../../shared/key-scopes.js';
import { zodProblems } from '../../shared/zod-problems.js';
import { SheetOptions } from '../../shared/sheet-options-schema.js';
import { preflight } from '../batch/preflight.js';
import { templateFields, templateFieldsCsv } from '../batch/template-fields.js';
import { templateTargets } from '../catalog/load-catalog.js';
import { replaceFile } from '../files/replace-file.js';
import { visibleOr404 } from '../server/ownership.js';
import { requestFingerprint } from '../server/idempotency-key.js';
import type { AllowedFolders } from './allowed-folders.js';
import { readCliSource, streamSpreadsheet } from './batch-source.js';
import type { LocalCore } from './local-core.js';
import { listTemplates, templateSummary } from './template-list.js';

/** The key the MCP server acts as: its scope limits the tools, its id owns what it creates. */
export interface McpPrincipal {
  id: string;
  scope: KeyScope;
}

export interface McpContext {
  core: LocalCore;
  principal: McpPrincipal;
  folders: AllowedFolders;
}

/** Bundles larger than this are written to a file (outFile), not returned inline. */
const INLINE_BUNDLE_BYTES = 16 * 1024 * 1024;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/avif']);

const TemplateId = z
  .string()
  .min(1)
  .max(100)
  .describe('A template id: tmpl_… (built in) or wtpl_… (workspace)');
const Records = z
  .array(z.record(z.string(), z.unknown()))
  .min(1)
  .describe('The rows, as objects keyed by field name (template_fields lists the fields)');
const SourceFile = z
  .string()
  .describe('A .csv, .xlsx or .json file inside a folder the server was started with (--allow)');
/** What pre-flight and start_batch render the rows with: the template, its layout, the format. */
const BatchTemplate = {
  templateId: TemplateId,
  target: z.string().max(40).optional(),
  format: z.string().max(10).optional(),
};
/** Reading codes back from the pixels: every row in start_batch, the first rows in pre-flight. */
const VerifyCodes = z
  .boolean()
  .optional()
  .describe(
    "Read every QR code and barcode back from the output's pixels; a row whose code does not scan as its value fails with code-unreadable (pre-flight: its first rows)",
  );
/** Where pre-flight and start_batch read the rows: inline records, or a file (and its sheet). */
const BatchRows = {
  records: Records.optional(),
  sourceFile: SourceFile.optional(),
  sheet: z.string().max(200).optional(),
};

/** Every tool of `render-desk mcp`; each checks the key's scope as the matching /v1 route does. */
export function registerRenderDeskTools(server: McpServer, context: McpContext): void {
  const { core, folders } = context;

  server.registerTool(
    'list_templates',
    {
      title: 'List templates',
      description: 'Built-in and workspace templates: id, name, category and layouts.',
      inputSchema: { q: z.string().max(120).optional(), category: z.string().max(60).optional() },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(context, 'read', () => {
        const entries = listTemplates(core, { q: args.q, category: args.category });
        return json(entries.map(({ template }) => templateSummary(template)));
      }),
  );

  server.registerTool(
    'show_template',
    {
      title: 'Show a template',
      description: "A template's layouts, locale and variables (name, type, required, default).",
      inputSchema: { templateId: TemplateId },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(context, 'read', () => {
        const entry = core.renderer.entry(args.templateId);
        const { template } = entry;
        return json({
          id: template.id,
          name: template.name,
          category: template.category,
          market: template.market,
          locale: template.locale,
          layouts: templateTargets(template),
          ...(entry.version !== undefined ? { version: entry.version } : {}),
          variables: template.variables.map((v) => ({
            name: v.name,
            type: v.type,
            required: v.required,
            ...(v.label ? { label: v.label } : {}),
            ...(v.bindsTo ? { filledByBrand: v.bindsTo } : {}),
          })),
        });
      }),
  );

  server.registerTool(
    'template_fields',
    {
      title: 'Template fields',
      description:
        'The fields a source for this template needs, an example for each, a working sample row (usable as render values) and a CSV header line.',
      inputSchema: { templateId: TemplateId },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(context, 'read', () => {
        const fields = templateFields(core.renderer.entry(args.templateId).template);
        return json({ ...fields, csv: templateFieldsCsv(fields).replace(/^\ufeff/, '') });
      }),
  );

  server.registerTool(
    'preflight',
    {
      title: 'Pre-flight',
      description:
        'Checks rows without rendering or charging: text too long for its space, characters no font draws, refused values. Give records or a sourceFile.',
      inputSchema: { ...BatchTemplate, ...BatchRows, verifyCodes: VerifyCodes },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(context, 'render', async () => {
        const source = sourceOf(folders, args.records, args.sourceFile, args.sheet);
        const request = batchRequest({
          templateId: args.templateId,
          target: args.target,
          format: args.format,
          verifyCodes: args.verifyCodes,
          ...(source.kind === 'json'
            ? { sourceType: 'json-array', source: { records: source.records } }
            : { sourceType: 'csv', source: { sourceRef: 'upl_local_file' } }),
        });
        return json(
          await preflight(
            request,
            core.preflightDeps((_id, sheet) => {
              if (source.kind !== 'spreadsheet') throw new Error('records are read inline');
              return streamSpreadsheet(source, sheet);
            }),
          ),
        );
      }),
  );

  server.registerTool(
    'render',
    {
      title: 'Render one image',
      description:
        'Renders one image and returns it; costs one credit, as POST /v1/render. Repeat a call with the same idempotencyKey to get the same image without a second charge.',
      inputSchema: {
        templateId: TemplateId,
        values: z.record(z.string(), z.unknown()).optional(),
        target: z.string().max(40).optional(),
        format: z.string().max(10).optional(),
        quality: z.number().int().min(1).max(100).optional(),
        brand: z.string().max(100).optional(),
        idempotencyKey: z.string().min(1).max(255).optional(),
        outFile: z
          .string()
          .optional()
          .describe('Also write the image here (inside an allowed folder)'),
      },
    },
    (args) =>
      answer(context, 'render', async () => {
        await core.assertSubscription();
        const { idempotencyKey, outFile, ...body } = args;
        const parsed = RenderRequest.safeParse(body);
        if (!parsed.success) throw Errors.validation(zodProblems(parsed.error));
        const target = outFile !== undefined ? folders.writable(outFile, 'outFile') : undefined;
        const result = await core.singleRenders.render({
          request: parsed.data,
          apiKeyId: context.principal.id,
          ...(idempotencyKey !== undefined
            ? { idempotency: { key: idempotencyKey, fingerprint: requestFingerprint(body) } }
            : {}),
        });
        const bytes = Buffer.from(
          result.bytes.buffer,
          result.bytes.byteOffset,
          result.bytes.byteLength,
        );
        if (target) await replaceFile(target, bytes);
        const summary = {
          renderId: result.renderId,
          contentType: result.contentType,
          bytes: bytes.byteLength,
          replayed: result.replayed,
          creditsRemaining: result.balance,
          ...(target ? { file: target } : {}),
          ...(!result.replayed && result.missingGlyphs.length > 0
            ? { missingGlyphs: result.missingGlyphs }
            : {}),
        };
        const content: CallToolResult['content'] = [
          { type: 'text', text: JSON.stringify(summary, null, 2) },
        ];
        content.push(
          IMAGE_TYPES.has(result.contentType)
            ? { type: 'image', data: bytes.toString('base64'), mimeType: result.contentType }
            : {
                type: 'resource',
                resource: {
                  uri: `render-desk://renders/${result.renderId}`,
                  mimeType: result.contentType,
                  blob: bytes.toString('base64'),
                },
              },
        );
        return { content };
      }),
  );

  server.registerTool(
    'start_batch',
    {
      title: 'Start a batch',
      description:
        'Starts rendering every row of records or a sourceFile; one credit per rendered row, held when it starts. Returns the batch id for batch_status and bundle. With `sheets` (format pdf, a print layout as target) the rows are placed N-up on printed sheets, e.g. { "preset": "a7-on-a4" }; the bundle then holds sheets-1.pdf, ….',
      inputSchema: {
        ...BatchTemplate,
        quality: z.number().int().min(1).max(100).optional(),
        brand: z.string().max(100).optional(),
        ...BatchRows,
        fileNamePattern: z.string().min(1).max(200).optional(),
        sheets: SheetOptions.optional(),
        verifyCodes: VerifyCodes,
        imagesDir: z
          .string()
          .optional()
          .describe(
            'Folder that relative image paths in cells resolve against (inside an allowed folder)',
          ),
      },
    },
    (args) =>
      answer(context, 'render', async () => {
        await core.assertSubscription();
        const source = sourceOf(folders, args.records, args.sourceFile, args.sheet);
        let sourceFields;
        if (source.kind === 'json')
          sourceFields = { sourceType: 'json-array', source: { records: source.records } };
        else {
          const upload = await core.uploads.receive(fs.createReadStream(source.file), {
            filename: path.basename(source.file),
            contentType: null,
            apiKeyId: context.principal.id,
            ...(source.sheet !== undefined ? { sheet: source.sheet } : {}),
          });
          sourceFields = {
            sourceType: upload.kind,
            source: {
              sourceRef: upload.id,
              ...(source.sheet !== undefined ? { sheet: source.sheet } : {}),
            },
          };
        }
        const request = batchRequest({
          templateId: args.templateId,
          target: args.target,
          format: args.format,
          quality: args.quality,
          brand: args.brand,
          fileNamePattern: args.fileNamePattern,
          sheets: args.sheets,
          verifyCodes: args.verifyCodes,
          ...(args.imagesDir !== undefined
            ? { imagesDir: folders.readable(args.imagesDir, 'imagesDir', 'folder') }
            : {}),
          ...sourceFields,
        });
        const batch = await core.batches.create(request, context.principal.id);
        if (batch.rejectedReason === 'insufficient-credits') {
          const { balance } = await core.data.ledger.account();
          throw Errors.insufficientCredits(batch.total, balance);
        }
        return json(batch);
      }),
  );

  server.registerTool(
    'batch_status',
    {
      title: 'Batch status',
      description:
        "A batch's status and counts (succeeded, failed, pending) and the first failed rows.",
      inputSchema: { batchId: z.string().max(100) },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      answer(context, 'read', async () => {
        await assertBatchVisible(context, args.batchId);
        const batch = await core.batches.get(args.batchId);
        const failed = await core.batches.manifest(args.batchId, 0, 20, 'failed');
        return json({
          ...batch,
          failedRows: failed.rows.map((row) => ({ rowIndex: row.rowIndex, error: row.error })),
        });
      }),
  );

  server.registerTool(
    'bundle',
    {
      title: 'Bundle of a batch',
      description:
        "A finished batch's images and manifest.csv as a zip: written to outFile (inside an allowed folder), or returned inline up to 16 MiB.",
      inputSchema: { batchId: z.string().max(100), outFile: z.string().optional() },
    },
    (args) =>
      answer(context, 'read', async () => {
        await assertBatchVisible(context, args.batchId);
        const target =
          args.outFile !== undefined ? folders.writable(args.outFile, 'outFile') : undefined;
        const { stream, missingRows } = await core.batches.bundle(args.batchId, true);
        if (target) {
          await replaceFile(target, stream);
          return json({ file: target, bytes: fs.lstatSync(target).size, missingRows });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of stream) {
          size += (chunk as Buffer).byteLength;
          if (size > INLINE_BUNDLE_BYTES) {
            stream.destroy();
            throw new AppError(
              'payload-too-large',
              `The bundle is over ${INLINE_BUNDLE_BYTES / 1024 / 1024} MiB: give an outFile inside an allowed folder.`,
            );
          }
          chunks.push(chunk as Buffer);
        }
        return {
          content: [
            { type: 'text', text: JSON.stringify({ bytes: size, missingRows }) },
            {
              type: 'resource',
              resource: {
                uri: `render-desk://batches/${args.batchId}/bundle.zip`,
                mimeType: 'application/zip',
                blob: Buffer.concat(chunks).toString('base64'),
              },
            },
          ],
        };
      }),
  );
}

/** Runs a tool for a key of at least `needs`; errors become a tool error with code and problems. */
async function answer(
  context: McpContext,
  needs: KeyScope,
  run: () => CallToolResult | Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    if (!scopeAllows(context.principal.scope, needs))
      throw new AppError(
        'insufficient-scope',
        `This API key's scope is ${context.principal.scope}; this tool needs ${needs}. Use a key with that scope.`,
      );
    return await run();
  } catch (error) {
    const code = isAppError(error) ? error.code : ((error as { code?: string }).code ?? 'internal');
    const problems = isAppError(error) ? (error.problems ?? []) : [];
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            code,
            message: (error as Error).message,
            ...(problems.length > 0 ? { problems } : {}),
          }),
        },
      ],
    };
  }
}

function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/** Inline records or an allowed file, never both. */
function sourceOf(
  folders: AllowedFolders,
  records: Record<string, unknown>[] | undefined,
  sourceFile: string | undefined,
  sheet: string | undefined,
) {
  if ((records === undefined) === (sourceFile === undefined))
    throw Errors.validation([{ path: 'source', message: 'give either records or sourceFile' }]);
  if (records !== undefined) return { kind: 'json' as const, file: 'records', records };
  return readCliSource(folders.readable(sourceFile ?? '', 'sourceFile', 'file'), sheet);
}

function batchRequest(fields: Record<string, unknown>): CreateBatchRequest {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const parsed = CreateBatchRequest.safeParse(defined);
  if (!parsed.success) throw Errors.validation(zodProblems(parsed.error));
  return parsed.data;
}

/** A batch another key made answers as a missing one does, as in the API. */
async function assertBatchVisible(context: McpContext, id: string): Promise<void> {
  const batch = /^bat_[A-Za-z0-9_-]{1,64}$/.test(id)
    ? await context.core.data.batches.get(id)
    : null;
  visibleOr404(context.principal, batch, 'batch', id);
}
