import {
  CONTENT_TYPES as FORMAT_CONTENT_TYPES,
  EXTENSIONS,
  ZIP_CONTENT_TYPE,
} from '../engine/output-types.js';
import type { OutputFormat } from '../render/render-protocol.js';

/**
 * How an output is addressed, in one place. An output has two names:
 *
 * - its **object key** in the output store (`batches/bat_x/12.png`, `batches/bat_x/sheets-2.pdf`,
 *   `renders/rnd_x.png`): where the embedded runner and the cluster's workers write it, and what
 *   the folder store maps to a file under `<dataDir>/outputs/` and S3 to an object;
 * - its **output key**, what clients see and ask `GET /v1/outputs/{key}` for (`bat_x.12.png`,
 *   `rnd_x.png`, `bat_x.sheets-2.pdf`).
 *
 * A batch row of several sizes (`targets`) has a row index of its own per size, so (batch, row)
 * names one image. Both names are fixed by the row: a row rendered twice (a crash, a chunk
 * delivered again) writes the same bytes to the same key instead of a second object.
 */

export { EXTENSIONS };

/** Content types by file extension (a zip is a multi-page layout's numbered images). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    (Object.keys(EXTENSIONS) as OutputFormat[]).map((format) => [
      EXTENSIONS[format],
      FORMAT_CONTENT_TYPES[format],
    ]),
  ),
  zip: ZIP_CONTENT_TYPE,
};

/** Every content type an output may have, for the API's description. */
export const OUTPUT_MEDIA_TYPES: readonly string[] = [...new Set(Object.values(CONTENT_TYPES))];

/** A batch row's output key, `bat_x.12.pdf`: batch id, row index, extension. */
export const ROW_OUTPUT_KEY = /^(bat_[A-Za-z0-9_-]{1,64})\.(\d{1,9})\.(png|jpg|webp|avif|pdf)$/;
/** A sheet batch's part, `bat_x.sheets-2.pdf`: batch id, part number. */
export const SHEET_PART_OUTPUT_KEY = /^(bat_[A-Za-z0-9_-]{1,64})\.sheets-(\d{1,6})\.pdf$/;
/** A single render kept for Idempotency-Key replays, `rnd_x.avif`: render id, extension. */
export const SINGLE_OUTPUT_KEY = /^(rnd_[A-Za-z0-9_-]{1,64})\.(png|jpg|webp|avif|pdf|zip)$/;

/** The folder (prefix) of a batch's objects: its rows and its sheet parts. */
export function batchObjectPrefix(batchId: string): string {
  return `batches/${batchId}/`;
}

/**
 * The images zip (`imagesRef`) of a batch in a cluster, beside its rows: every worker unpacks its
 * own copy, since the folder the API node unpacked it into is on that node only.
 */
export function batchImagesKey(batchId: string): string {
  return `${batchObjectPrefix(batchId)}images.zip`;
}

/** A batch row's object key. */
export function rowObjectKey(batchId: string, rowIndex: number, format: OutputFormat): string {
  return `${batchObjectPrefix(batchId)}${rowIndex}.${EXTENSIONS[format]}`;
}

/** A batch row's output key, as clients see it. */
export function rowOutputKey(batchId: string, rowIndex: number, format: OutputFormat): string {
  return `${batchId}.${rowIndex}.${EXTENSIONS[format]}`;
}

/** A sheet part's object key beside the batch's rows: `batches/bat_x/sheets-2.pdf`. */
export function sheetPartKey(batchId: string, part: number): string {
  return `${batchObjectPrefix(batchId)}${sheetPartName(part)}`;
}

/** A sheet part's name in the bundle (and in its batch's folder). */
export function sheetPartName(part: number): string {
  return `sheets-${part}.pdf`;
}

/** A sheet part's output key, as clients see it: `bat_x.sheets-2.pdf`. */
export function sheetPartOutputKey(batchId: string, part: number): string {
  return `${batchId}.${sheetPartName(part)}`;
}

/** The object key of a single render kept for Idempotency-Key replays. */
export function singleRenderKey(
  renderId: string,
  format: OutputFormat,
  contentType?: string,
): string {
  const extension = contentType === ZIP_CONTENT_TYPE ? 'zip' : EXTENSIONS[format];
  return `renders/${renderId}.${extension}`;
}

/** What an output key names: who made it (a batch or a render), its object and content type. */
export type ParsedOutputKey =
  | { kind: 'batch-row'; batchId: string; objectKey: string; contentType: string }
  | { kind: 'sheet-part'; batchId: string; part: number; objectKey: string; contentType: string }
  | { kind: 'single-render'; renderId: string; objectKey: string; contentType: string };

/** An output key read back; null when it names no output this app makes. */
export function parseOutputKey(outputKey: string): ParsedOutputKey | null {
  const row = ROW_OUTPUT_KEY.exec(outputKey);
  if (row) {
    const [, batchId, rowIndex, ext] = row as unknown as [string, string, string, string];
    return {
      kind: 'batch-row',
      batchId,
      objectKey: `${batchObjectPrefix(batchId)}${rowIndex}.${ext}`,
      contentType: contentTypeOf(ext),
    };
  }
  const sheets = SHEET_PART_OUTPUT_KEY.exec(outputKey);
  if (sheets) {
    const [, batchId, part] = sheets as unknown as [string, string, string];
    return {
      kind: 'sheet-part',
      batchId,
      part: Number(part),
      objectKey: sheetPartKey(batchId, Number(part)),
      contentType: contentTypeOf('pdf'),
    };
  }
  const single = SINGLE_OUTPUT_KEY.exec(outputKey);
  if (single) {
    const [, renderId, ext] = single as unknown as [string, string, string];
    return {
      kind: 'single-render',
      renderId,
      objectKey: `renders/${outputKey}`,
      contentType: contentTypeOf(ext),
    };
  }
  return null;
}

/** The content type of an output file by its extension. */
export function contentTypeOf(extension: string): string {
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
