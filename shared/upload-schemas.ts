import { z } from 'zod';

/** Schemas of the upload routes (`/v1/uploads`): spreadsheets, images and zips of images. */

/** What the bytes turned out to be (never what the file name or Content-Type said). */
export const UploadKind = z.enum(['csv', 'xlsx', 'image', 'zip']);
export type UploadKind = z.infer<typeof UploadKind>;

export const UploadQuery = z
  .object({
    filename: z.string().max(255).optional(),
    sheet: z
      .string()
      .max(200)
      .optional()
      .describe('xlsx: a sheet name or 0-based tab index; default the first sheet with rows.'),
  })
  .strict();

export const UploadParams = z.object({ id: z.string().max(100) }).strict();

export const UploadSheetQuery = z
  .object({
    sheet: z
      .string()
      .max(200)
      .optional()
      .describe('A sheet name or 0-based tab index: the upload as that sheet would be read.'),
  })
  .strict();

/** GET /v1/uploads/{id}/rows: a page of a spreadsheet's rows (past the preview's first ones). */
export const UploadRowsQuery = z
  .object({
    sheet: z.string().max(200).optional().describe('A sheet name or 0-based tab index.'),
    offset: z.coerce.number().int().min(0).default(0).describe('0-based index of the first row.'),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .strict();

export const SheetSummary = z.object({
  name: z.string(),
  index: z.number().int().describe('0-based position in tab order.'),
  hidden: z.boolean(),
});
export type SheetSummary = z.infer<typeof SheetSummary>;

/** A header the upload renamed so that every field has a usable, unique name. */
export const RenamedField = z.object({
  column: z.number().int().describe('1-based column number.'),
  original: z.string(),
  field: z.string(),
  reason: z.enum(['empty', 'duplicate']),
});
export type RenamedField = z.infer<typeof RenamedField>;

/** A cell as a batch reads it: text, a number, or null for a cell that is not there. */
export const PreviewCell = z.union([z.string(), z.number(), z.null()]);

/** A cell changed in this upload's copy of the data; batches read the row with it. */
export const CellEdit = z
  .object({
    sheet: z.string().max(200).nullable().describe('xlsx: the sheet; null for a CSV.'),
    rowIndex: z.number().int().min(0).describe('0-based index among data rows.'),
    field: z.string().min(1).max(200),
    value: z.string().max(10_000),
  })
  .strict();
export type CellEdit = z.infer<typeof CellEdit>;

/** PUT /v1/uploads/{id}/cells: one cell's new text (the sheet chosen at upload when absent). */
export const CellEditBody = z
  .object({
    sheet: z.string().max(200).optional(),
    rowIndex: z.number().int().min(0),
    field: z.string().min(1).max(200),
    value: z.string().max(10_000),
  })
  .strict();
export type CellEditBody = z.infer<typeof CellEditBody>;

/** What inspecting the upload found: rows, fields and sheets of a spreadsheet; an image's size. */
export const UploadInfo = z.object({
  rows: z.number().int().optional().describe('Data rows (blank rows and the header excluded).'),
  fields: z.array(z.string()).optional(),
  renamedFields: z.array(RenamedField).optional(),
  sheets: z.array(SheetSummary).optional().describe('xlsx: every sheet, in tab order.'),
  sheet: z.string().optional().describe('xlsx: the sheet the rows and fields are from.'),
  encoding: z.string().optional().describe('csv: the detected text encoding.'),
  delimiter: z.string().optional().describe('csv: the detected delimiter.'),
  preview: z
    .array(z.record(z.string(), PreviewCell))
    .optional()
    .describe('The first data rows, by field.'),
  edits: z
    .array(CellEdit)
    .optional()
    .describe(
      'Cells changed in the app (PUT /v1/uploads/{id}/cells): the rows read with them, the file untouched.',
    ),
  width: z.number().int().optional().describe('image: width in pixels.'),
  height: z.number().int().optional().describe('image: height in pixels.'),
});
export type UploadInfo = z.infer<typeof UploadInfo>;

/** POST /v1/uploads and GET /v1/uploads/{id}. */
export const Upload = z.object({
  id: z.string(),
  sourceRef: z.string().describe('The id to name as a batch source (`source.sourceRef`).'),
  kind: UploadKind,
  filename: z.string(),
  bytes: z.number().int(),
  expiresAt: z.string().nullable().describe('null once a batch uses the upload.'),
  ...UploadInfo.shape,
});
export type Upload = z.infer<typeof Upload>;

/** A page of rows, each with its 0-based index and its line in the file (for cell addresses). */
export const UploadRows = z.object({
  rows: z.array(
    z.object({
      rowIndex: z.number().int(),
      line: z.number().int(),
      cells: z.record(z.string(), PreviewCell),
    }),
  ),
});
export type UploadRows = z.infer<typeof UploadRows>;
