import { z } from 'zod';
import { BrandId } from './brand-schemas.js';
import { KEY_SCOPES } from './key-scopes.js';
import { OUTPUT_FORMATS } from './output-formats.js';
import { OutputOptions } from './output-options.js';
import { LayoutName, Market, PageSpec, Ratio, TemplateId } from './template-format.js';

/**
 * Request and response schemas of the /v1 API. The server validates requests with these and
 * generates /v1/openapi.json from them; the UI infers its types from them.
 */

export { OUTPUT_FORMATS } from './output-formats.js';
export const OutputFormat = z.enum(OUTPUT_FORMATS);
export type OutputFormat = z.infer<typeof OutputFormat>;

export const KeyScope = z
  .enum(KEY_SCOPES)
  .describe(
    'read < render < templates < admin; each scope can do everything the ones before it can.',
  );

export const RenderRequest = z
  .object({
    templateId: TemplateId,
    values: z.record(z.string(), z.unknown()).default({}),
    target: LayoutName.optional().describe(
      "The layout to draw: a ratio (square, portrait, story, landscape, og) or a print or custom-size layout's name (a4, badge); defaults to the template's first ratio.",
    ),
    format: OutputFormat.default('png'),
    quality: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(
        'jpeg/webp/avif quality (default 90 for jpeg and webp, 70 for avif); pdf: the JPEG quality of embedded images (lossless when absent).',
      ),
    ...OutputOptions,
    brand: BrandId.optional().describe(
      'The brand whose profile fills brand-bound variables; defaults to the default brand.',
    ),
  })
  .strict();
export type RenderRequest = z.infer<typeof RenderRequest>;

/** Previews are scaled to this width: enough for the editor, useless as a free final image. */
export const PREVIEW_WIDTH = 720;

/** POST /v1/render/preview: a render request and the width of the scaled-down JPEG. */
export const RenderPreviewRequest = RenderRequest.extend({
  width: z.number().int().min(64).max(PREVIEW_WIDTH).default(PREVIEW_WIDTH),
});

export const CatalogQuery = z
  .object({
    category: z.string().max(60).optional(),
    subCategory: z.string().max(60).optional(),
    market: Market.optional(),
    q: z.string().max(120).optional(),
    sort: z.enum(['newest']).optional(),
  })
  .strict();
export type CatalogQuery = z.infer<typeof CatalogQuery>;

export const CatalogListItem = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  subCategory: z.string(),
  market: Market,
  thumbnail: z.string().describe('Short-lived signed URL of a PNG thumbnail.'),
  ratios: z.array(Ratio),
  createdAt: z.string(),
});
export type CatalogListItem = z.infer<typeof CatalogListItem>;

export const CatalogList = z.array(CatalogListItem);

export const VariableDescription = z.object({
  name: z.string(),
  type: z.enum(['text', 'longText', 'colour', 'image', 'number', 'date', 'enum', 'list']),
  label: z.string().optional(),
  description: z.string().optional(),
  bindsTo: z.string().nullable(),
  required: z.boolean(),
  default: z.unknown().optional(),
  options: z.array(z.object({ value: z.string(), label: z.string() })).optional(),
  maxLength: z.number().optional(),
  maxItems: z.number().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  format: z.unknown().optional(),
  locale: z.string().optional(),
});
export type VariableDescription = z.infer<typeof VariableDescription>;

export const CatalogDetail = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  category: z.string(),
  subCategory: z.string(),
  market: Market,
  createdAt: z.string(),
  dimensions: z.object({ width: z.number().int(), height: z.number().int() }),
  aspect: z.string(),
  format: OutputFormat,
  ratios: z.array(Ratio),
  targets: z
    .array(LayoutName)
    .describe('Every layout a render may target: the ratios, then print and custom-size layouts.'),
  primaryTarget: LayoutName.describe(
    'The layout the app opens first and batches start on (a badge: its print layout); the first ratio unless the template names one.',
  ),
  layouts: z.record(
    z.string(),
    z.object({
      width: z.number(),
      height: z.number(),
      aspect: z.string(),
      page: PageSpec.optional().describe(
        'Print layouts: the trim size, DPI, bleed and safe margin.',
      ),
      pages: z
        .number()
        .int()
        .optional()
        .describe('Pages of a multi-page layout (a badge front and back); absent for one.'),
    }),
  ),
  thumbnail: z.string(),
  thumbnails: z.record(z.string(), z.string()),
  variables: z.array(VariableDescription),
  sampleValues: z.record(z.string(), z.unknown()),
});
export type CatalogDetail = z.infer<typeof CatalogDetail>;

export const Taxonomy = z.object({
  categories: z.array(z.object({ name: z.string(), subCategories: z.array(z.string()) })),
});
export type Taxonomy = z.infer<typeof Taxonomy>;

export const Account = z.object({
  balance: z.number().int(),
  heldCredits: z.number().int(),
  subscription: z.object({
    status: z.enum(['active', 'lapsed']),
    expiresAt: z.string().nullable(),
  }),
  rateLimit: z.object({ limit: z.number().int(), windowSeconds: z.number().int() }),
});
export type Account = z.infer<typeof Account>;

export const LedgerKind = z.enum(['grant', 'debit', 'hold', 'release']);
export type LedgerKind = z.infer<typeof LedgerKind>;

export const LedgerQuery = z
  .object({
    cursor: z.string().regex(/^\d+$/).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    kind: LedgerKind.optional(),
    group: z
      .enum(['batch'])
      .optional()
      .describe(
        "batch: each batch's entries summed into one line (its debits, or the filtered kind, with entryCount and heldCredits); other entries as they are.",
      ),
  })
  .strict();

export const LedgerEntry = z.object({
  id: z.number().int(),
  kind: LedgerKind,
  amount: z.number().int(),
  renderId: z.string().nullable(),
  batchId: z.string().nullable(),
  rowIndex: z.number().int().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
  entryCount: z
    .number()
    .int()
    .optional()
    .describe('group=batch: how many ledger entries this batch line sums.'),
  heldCredits: z
    .number()
    .int()
    .optional()
    .describe('group=batch: what the batch still holds (its holds less its releases).'),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const LedgerPage = z.object({
  entries: z.array(LedgerEntry),
  nextCursor: z.string().nullable(),
});
export type LedgerPage = z.infer<typeof LedgerPage>;

export const GrantCreditsRequest = z
  .object({
    amount: z.number().int().min(1).max(100_000_000),
    note: z.string().max(200).optional(),
  })
  .strict();

export const SubscriptionUpdate = z
  .object({
    status: z.enum(['active', 'lapsed']),
    expiresAt: z.iso.datetime().nullable().optional(),
  })
  .strict();

export const ApiKeyRecord = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z
    .string()
    .describe("The secret's first 12 characters (rdk_ + 8), enough to recognise the key."),
  scope: KeyScope,
  admin: z.boolean().describe('True when the scope is admin (kept for older scripts).'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const ApiKeyList = z.array(ApiKeyRecord);

export const ApiKeyParams = z.object({ id: z.string().max(100) }).strict();

export const CreateApiKeyRequest = z
  .object({
    name: z.string().trim().min(1).max(80),
    scope: KeyScope.optional().describe('Defaults to render (admin when `admin` is true).'),
    admin: z.boolean().optional().describe('Older spelling of `"scope": "admin"`.'),
  })
  .strict()
  .superRefine((body, context) => {
    if (body.admin !== undefined && body.scope !== undefined) {
      if (body.admin !== (body.scope === 'admin')) {
        context.addIssue({
          code: 'custom',
          path: ['admin'],
          message: `contradicts "scope": "${body.scope}"; send scope alone`,
        });
      }
    }
  })
  .transform(({ name, scope, admin }) => ({
    name,
    scope: scope ?? (admin ? 'admin' : 'render'),
  }));

export const CreatedApiKey = ApiKeyRecord.extend({
  secret: z.string().describe('Shown once; store it now.'),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const TemplateIdParams = z.object({ id: z.string().max(200) }).strict();

/** `file` is `<ratio>.png`. */
export const ThumbnailParams = z
  .object({ id: z.string().max(200), file: z.string().max(40) })
  .strict();

/**
 * Documents a signed link's query; the URL signer checks the target as sent and answers 403 for
 * a missing, altered, repeated, extra or expired parameter (so nothing is refused here first).
 */
export const SignedQuery = z.looseObject({
  exp: z.unknown().optional().describe('Expiry (Unix seconds), as the API gave it'),
  sig: z.unknown().optional().describe('Signature, as the API gave it'),
});

/**
 * RFC 9457 problem details. Some problems carry extension members a script can act on
 * (`needed` and `balance` on 402 insufficient-credits, `batchStatus`, `existingId`, …), so the
 * object is open to more members than it lists.
 */
export const ProblemDetails = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  errors: z
    .array(z.object({ path: z.string(), message: z.string(), code: z.string().optional() }))
    .optional(),
  needed: z
    .number()
    .int()
    .optional()
    .describe('402 insufficient-credits: credits the request needs'),
  balance: z.number().int().optional().describe('402 insufficient-credits: the balance now'),
});

/** GET /v1/openapi.json: an OpenAPI 3.1 document (its paths are the registered routes). */
export const OpenApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type OpenApiDocument = z.infer<typeof OpenApiDocument>;
