import { z } from 'zod';
import { MAX_SERIAL, MAX_SERIAL_AFFIX, MAX_SERIAL_PAD, MAX_SOURCE_ROWS } from './batch-limits.js';
import { OutputFormat } from './api-schemas.js';
import { BrandId } from './brand-schemas.js';
import { OutputOptions } from './output-options.js';
import { SheetOptions } from './sheet-options-schema.js';
import { BrandRole, LayoutName, TemplateId, VariableName } from './template-format.js';

/** Batch requests and responses (spec §2.5–2.8, §4.3; DESIGN §4). */

/** `total`: how many rows the batch's source has, for "n of N" beside `rowNumber`. */
export const GENERATED_SOURCES = ['rowNumber', 'rowIndex', 'uuid', 'today', 'total'] as const;

export { MAX_SERIAL, MAX_SERIAL_AFFIX, MAX_SERIAL_PAD, MAX_SOURCE_ROWS } from './batch-limits.js';

/**
 * Numbers a batch's rows: row n of the source gets `prefix + zero-padded(start + step × n) +
 * suffix`. A negative step counts down; a row it would take below 0 is refused.
 */
export const SerialNumbering = z
  .object({
    start: z
      .number()
      .int()
      .min(0)
      .max(MAX_SERIAL)
      .optional()
      .describe("The first row's number (default 1)."),
    step: z
      .number()
      .int()
      .min(-1_000_000_000)
      .max(1_000_000_000)
      .optional()
      .describe('Added for each following row (default 1; negative counts down, never below 0).'),
    pad: z
      .number()
      .int()
      .min(0)
      .max(MAX_SERIAL_PAD)
      .optional()
      .describe('Zero-padded to at least this many digits (default 0: no padding).'),
    prefix: z.string().max(MAX_SERIAL_AFFIX).optional().describe('Text before the number.'),
    suffix: z.string().max(MAX_SERIAL_AFFIX).optional().describe('Text after the number.'),
  })
  .strict();
export type SerialNumbering = z.infer<typeof SerialNumbering>;

export const Binding = z.union([
  z.object({ field: z.string().min(1).max(200) }).strict(),
  z.object({ constant: z.unknown() }).strict(),
  z.object({ profile: BrandRole }).strict(),
  z.object({ generated: z.enum(GENERATED_SOURCES) }).strict(),
  z.object({ serial: SerialNumbering }).strict(),
]);
export type Binding = z.infer<typeof Binding>;

export const Bindings = z.record(VariableName, Binding);
export type Bindings = z.infer<typeof Bindings>;

export const MAX_INLINE_RECORDS = 50_000;

export const BatchSource = z.union([
  z
    .object({
      records: z
        .array(z.record(z.string(), z.unknown()))
        .min(1)
        .max(
          MAX_INLINE_RECORDS,
          `at most ${MAX_INLINE_RECORDS.toLocaleString('en')} records as JSON; for more rows, use a CSV or XLSX file (up to 1,000,000 rows)`,
        ),
    })
    .strict(),
  z
    .object({
      sourceRef: z.string().regex(/^upl_[A-Za-z0-9_-]{1,64}$/),
      sheet: z.union([z.string().max(200), z.number().int().min(0)]).optional(),
      rows: z
        .array(z.number().int().min(0))
        .min(1)
        .max(MAX_SOURCE_ROWS)
        .optional()
        .describe(
          "Only these rows of the upload's sheet: 0-based data-row indexes, sorted and each once, as a one-size batch's manifest reports them (a rerun of its failed rows). The batch's rows keep these indexes; pre-flight and credits count only them.",
        ),
    })
    .strict(),
]);

/** A batch draws each row in at most this many layouts (`targets`). */
export const MAX_BATCH_TARGETS = 10;

export const CreateBatchRequest = z
  .object({
    templateId: TemplateId,
    target: LayoutName.optional().describe(
      "The layout to draw: a ratio (square, portrait, story, landscape, og) or a print or custom-size layout's name (a4, badge); defaults to the template's first ratio.",
    ),
    sourceType: z.enum(['json-array', 'csv', 'xlsx']),
    source: BatchSource,
    bindings: Bindings.optional(),
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
    sheets: SheetOptions.optional(),
    targets: z
      .array(LayoutName)
      .min(2)
      .max(MAX_BATCH_TARGETS)
      .refine((names) => new Set(names).size === names.length, 'each layout once')
      .optional()
      .describe(
        'Several sizes from one run: every row is drawn once in each layout named here (one credit per image), its file named {name}-{layout}; instead of target. Not with sheets.',
      ),
    /** File names in the bundle from columns, e.g. `{sku}-{name}`. */
    fileNamePattern: z.string().min(1).max(200).optional(),
    /** Folder that relative image paths in cells resolve against. */
    imagesDir: z.string().min(1).max(4096).optional(),
    /** An uploaded zip of images that relative image paths resolve against. */
    imagesRef: z
      .string()
      .regex(/^upl_[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    /** The batch pins this brand's profile when it is created; later edits do not reach it. */
    brand: BrandId.optional().describe(
      'The brand whose profile fills brand-bound variables; defaults to the default brand.',
    ),
    verifyCodes: z
      .boolean()
      .optional()
      .describe(
        "Read every QR code and barcode of every output back from its pixels (a PDF's from its pages drawn at the print DPI) with an independent reader: a row whose code does not scan exactly as its value fails with code-unreadable. A pre-flight reads the codes of its first rows (codesVerified says how many).",
      ),
  })
  .strict();
export type CreateBatchRequest = z.infer<typeof CreateBatchRequest>;

export const BATCH_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'partial',
  'failed',
  'degraded',
  'cancelled',
] as const;
export const BatchStatus = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof BatchStatus>;
export const TERMINAL_STATUSES: readonly BatchStatus[] = [
  'succeeded',
  'partial',
  'failed',
  'degraded',
  'cancelled',
];

export const ROW_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type RowStatus = (typeof ROW_STATUSES)[number];

export const BatchParams = z.object({ id: z.string().max(100) }).strict();

export const BatchListQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(100) })
  .strict();

/** One PDF of a sheet batch: what it holds, and the output key it is fetched by. */
export const SheetPart = z.object({
  part: z.number().int().describe('1-based: the n of sheets-<n>.pdf.'),
  file: z.string().describe('Its name in the bundle: sheets-<n>.pdf.'),
  outputKey: z.string().describe('GET /v1/outputs/{outputKey} downloads it.'),
  sheets: z.number().int().describe('Printed sheets (fronts).'),
  pages: z.number().int().describe('PDF pages: a duplex sheet is a front and a back page.'),
  fronts: z.number().int(),
  backs: z.number().int(),
  rows: z.number().int().describe('Rows placed on its sheets.'),
  perSheet: z.number().int().describe('Rows a sheet holds.'),
  sheetSize: z
    .object({
      label: z
        .string()
        .optional()
        .describe('A named size (A4, US Letter); absent for a custom one.'),
      width: z.number().describe('mm, as printed (orientation applied).'),
      height: z.number().describe('mm'),
    })
    .describe('The paper.'),
});
export type SheetPart = z.infer<typeof SheetPart>;

/** Where a sheet batch's succeeded row is printed, as manifest.csv says it. */
export const SheetPlacement = z.object({
  file: z.string().describe('Its part: sheets-<n>.pdf.'),
  part: z.number().int(),
  sheet: z.number().int().describe('1-based over the whole batch.'),
  page: z.number().int().describe("The front's page in the part's PDF."),
  backPage: z.number().int().nullable().describe('The back page with duplex; otherwise null.'),
  position: z.number().int().describe('1-based slot, row by row from the top left.'),
});
export type SheetPlacement = z.infer<typeof SheetPlacement>;

export const Batch = z.object({
  id: z.string(),
  status: BatchStatus,
  templateId: z.string(),
  templateName: z
    .string()
    .optional()
    .describe(
      "The template's name when the batch was created; with sourceName and createdAt, the batch's readable name.",
    ),
  sourceName: z
    .string()
    .optional()
    .describe("The uploaded spreadsheet's file name (absent for inline rows)."),
  templateVersion: z
    .number()
    .int()
    .nullable()
    .describe('The workspace template version this batch renders (pinned); null for built-ins.'),
  target: LayoutName,
  format: OutputFormat,
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  rejectedReason: z.string().optional(),
  stoppedReason: z.string().optional(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Folder holding the outputs on this machine ("Show in folder"). */
  outputDir: z.string().optional(),
  sheets: SheetOptions.optional().describe('The sheet options the batch was created with.'),
  sheetParts: z
    .array(SheetPart)
    .optional()
    .describe('A finished sheet batch: its PDFs, each downloadable by its outputKey.'),
  targets: z
    .array(LayoutName)
    .optional()
    .describe('The layouts each row is drawn in, when the batch has several sizes.'),
  someRows: z
    .literal(true)
    .optional()
    .describe(
      "Set when the batch draws only some rows of its upload (source.rows): the manifest's rowIndex values are those rows', so they skip the others.",
    ),
  verifyCodes: z
    .literal(true)
    .optional()
    .describe("Set when every row's codes are read back from its pixels (verifyCodes)."),
});
export type Batch = z.infer<typeof Batch>;

export const BatchList = z.array(Batch);

/** POST /v1/render-batches: the batch is queued (or already rejected, with the reason). */
export const BatchAccepted = z.object({
  id: z.string(),
  status: BatchStatus,
  total: z.number().int(),
  rejectedReason: z
    .string()
    .optional()
    .describe('Why the batch was refused (insufficient-credits).'),
});
export type BatchAccepted = z.infer<typeof BatchAccepted>;

/** A `progress` event of GET /v1/render-batches/{id}/events (an `end` event carries the Batch). */
export const BatchProgressEvent = z.object({
  batch: Batch,
  rowsPerSecond: z.number().describe('Rows per second over the last few seconds.'),
  secondsLeft: z.number().nullable().describe('At that pace; null until there is a pace.'),
});
export type BatchProgressEvent = z.infer<typeof BatchProgressEvent>;

export const ManifestRow = z.object({
  rowIndex: z.number().int(),
  line: z
    .number()
    .int()
    .nullable()
    .describe(
      "The row's line in the spreadsheet, as the spreadsheet numbers it (the header is line 1); null for inline records.",
    ),
  status: z.enum(ROW_STATUSES),
  /** Every row has one from the moment it is read; a succeeded row's output carries it. */
  renderId: z.string().startsWith('rnd_'),
  outputKey: z.string().nullable(),
  error: z.string().nullable(),
  fileName: z.string().nullable(),
  sheet: SheetPlacement.optional().describe(
    "A finished sheet batch's succeeded row: where it is printed. Without singleFiles the row has no file of its own (outputKey and fileName are null).",
  ),
});
export type ManifestRow = z.infer<typeof ManifestRow>;

export const ManifestPage = z.object({
  rows: z.array(ManifestRow),
  nextCursor: z.string().nullable(),
});
export type ManifestPage = z.infer<typeof ManifestPage>;

export const ManifestQuery = z
  .object({
    cursor: z
      .string()
      .regex(/^\d{1,9}$/)
      .default('0'),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    status: z.enum(ROW_STATUSES).optional(),
  })
  .strict();

/** Outputs per numbered bundle part: a big batch can be fetched as several zips, in order. */
export const BUNDLE_PART_ROWS = 10_000;

export const BundleQuery = z.object({ manifest: z.enum(['true', 'false']).optional() }).strict();

export const BundleFileParams = z.object({ file: z.string().max(120) }).strict();

export const BundleLink = z.object({
  url: z.string(),
  expiresAt: z.string(),
  /**
   * Present when the batch has more than BUNDLE_PART_ROWS succeeded outputs: the same outputs as
   * numbered zips of at most that many each (`url` still streams them all in one zip).
   */
  parts: z
    .array(z.object({ part: z.number().int(), outputs: z.number().int(), url: z.string() }))
    .optional(),
});
export type BundleLink = z.infer<typeof BundleLink>;

export const TemplateFieldsQuery = z
  .object({ templateId: z.string().max(100), format: z.enum(['json', 'csv']).default('json') })
  .strict();

export const TemplateField = z.object({
  name: z.string(),
  type: z.string(),
  label: z.string().optional(),
  required: z.boolean(),
  example: z.unknown(),
});

export const TemplateFieldsResult = z.object({
  templateId: z.string(),
  fields: z.array(TemplateField),
  sampleRow: z.record(z.string(), z.unknown()),
});
export type TemplateFieldsResult = z.infer<typeof TemplateFieldsResult>;

export const OutputParams = z.object({ outputKey: z.string().max(200) }).strict();

export const OutputQuery = z
  .object({
    width: z.coerce
      .number()
      .int()
      .min(16)
      .max(1024)
      .optional()
      .describe('A scaled-down JPEG of this width (thumbnails).'),
  })
  .strict();

/** `code` names problems that have their own (`image-url-timeout` …). */
const PreflightProblem = z.object({
  path: z.string(),
  message: z.string(),
  code: z.string().optional(),
});

/** POST /v1/render-batches/preflight: what a batch would do, without rendering or charging. */
export const PreflightResult = z.object({
  templateId: z.string(),
  target: z.string(),
  total: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  /** Images the batch makes: one per row, or per row and layout with `targets`. */
  images: z.number().int().optional(),
  /** Credits the batch would hold: one per image. */
  cost: z.number().int(),
  balance: z.number().int(),
  sufficient: z.boolean(),
  fields: z.array(z.string()),
  mapping: z.array(z.object({ variable: z.string(), source: z.unknown() })),
  problems: z.array(
    z.object({
      rowIndex: z.number().int(),
      line: z.number().int().nullable(),
      errors: z.array(PreflightProblem),
    }),
  ),
  problemsTruncated: z.boolean(),
  codesVerified: z
    .number()
    .int()
    .optional()
    .describe(
      'With verifyCodes: the rows whose codes were drawn and read back (the first valid rows); a code that does not scan is a code-unreadable problem of its row.',
    ),
  /**
   * What renders but may not be what the user wants; never makes a row fail: brand-bound
   * variables left empty because neither the brand nor the template has a value, text cut short,
   * layout rules broken after fitting (`code` names the rule, e.g. `rule.text-too-small`;
   * docs/templates.md, "Rules"), and required values every layer of which the row's visibleWhen
   * rules hide (`required-layer-hidden`).
   */
  warnings: z.array(
    PreflightProblem.extend({ rows: z.number().int(), code: z.string().optional() }),
  ),
});
export type PreflightResult = z.infer<typeof PreflightResult>;
