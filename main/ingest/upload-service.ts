import { onlyChosenRows } from '../batch/chosen-rows.js';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readHead } from '../files/read-head.js';
import { AppError } from '../../shared/errors.js';
import type { CellEdit, CellEditBody, Upload, UploadInfo } from '../../shared/upload-schemas.js';
import {
  assertSvgBytesSelfContained,
  MAX_SVG_BYTES,
  maybeSvg,
  svgTooLarge,
} from '../engine/svg-self-contained.js';
import { previewWithEdits, rowsWithEdits, withEdit } from './cell-edits.js';
import { detectFileKind } from './file-kind.js';
import { unpackImageZip } from './image-zip.js';
import { inspectRowSource, openRowSource } from './rows/row-source.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { CoreData } from '../data/core-data.js';
import type { UploadKind, UploadRecord } from '../data/types/uploads.js';
import type { SourceRow } from './rows/row-source-types.js';
import type { ObjectCache } from '../objects/object-cache.js';
import type { ObjectStore } from '../objects/object-store.js';

/** DESIGN §4: uploads up to 256 MiB and 1,000,000 rows. */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
/** Uploads no batch uses are deleted after this long (documented in the README). */
export const UPLOAD_RETENTION_MS = 24 * 60 * 60 * 1000;

const IMAGE_KINDS = new Set(['png', 'jpeg', 'webp', 'gif', 'svg']);
/** Where an upload lives in a cluster's shared object store. */
export function uploadObjectKey(id: string, kind: UploadKind): string {
  return `uploads/${id}.${EXTENSIONS[kind]}`;
}

const EXTENSIONS: Record<UploadKind, string> = {
  csv: 'csv',
  xlsx: 'xlsx',
  image: 'img',
  zip: 'zip',
};

/**
 * Receives uploads (spreadsheets, images, zips of images), decides what they are from their
 * bytes, inspects them once (rows, fields, sheets) and keeps them in the data directory.
 */
export class UploadService {
  constructor(
    private readonly data: CoreData,
    private readonly dir: string,
    /**
     * Cluster mode: uploads are also kept in the shared object store (`uploads/<id>.<ext>`, the
     * record's path), so every node can read them; this node's copy is a cache.
     */
    private readonly shared?: { objects: ObjectStore; cache: ObjectCache },
  ) {}

  async receive(
    body: Readable,
    meta: {
      filename: string;
      contentType: string | null;
      apiKeyId: string | null;
      sheet?: string | number;
    },
  ): Promise<Upload> {
    fs.mkdirSync(this.dir, { recursive: true });
    const id = await this.data.uploads.newId();
    const part = path.join(this.dir, `${id}.part`);
    const out = fs.createWriteStream(part);
    let bytes = 0;
    try {
      await pipeline(
        body,
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            bytes += chunk.length;
            if (bytes > MAX_UPLOAD_BYTES) {
              callback(
                new AppError(
                  'payload-too-large',
                  `Uploads are limited to ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB.`,
                ),
              );
              return;
            }
            callback(null, chunk);
          },
        }),
        out,
      );
      if (bytes === 0)
        throw new AppError('validation-failed', 'The upload is empty.', {
          problems: [{ path: 'file', message: 'empty file' }],
        });
      const detected = await detectFileKind(part);
      const kind: UploadKind | null =
        detected.kind === 'csv' || detected.kind === 'xlsx' || detected.kind === 'zip'
          ? detected.kind
          : IMAGE_KINDS.has(detected.kind)
            ? 'image'
            : null;
      if (!kind) {
        throw new AppError(
          'unsupported-media-type',
          `"${meta.filename}" is ${describeKind(detected.kind)}. Upload a CSV or .xlsx spreadsheet, an image, or a .zip of images.`,
        );
      }
      const info = await this.inspect(part, kind, meta.sheet);
      const file = path.join(this.dir, `${id}.${EXTENSIONS[kind]}`);
      fs.renameSync(part, file);
      const key = uploadObjectKey(id, kind);
      if (this.shared) await this.shared.objects.putFile(key, file);
      const now = new Date();
      const record: UploadRecord = {
        id,
        kind,
        filename: safeDisplayName(meta.filename),
        path: this.shared ? key : file,
        bytes,
        contentType: meta.contentType,
        info,
        apiKeyId: meta.apiKeyId,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + UPLOAD_RETENTION_MS).toISOString(),
      };
      await this.data.uploads.insert(record);
      return this.describe(record);
    } catch (error) {
      // A body that fails at once (a client gone, a malformed multipart) fails the pipeline
      // while the file is still being opened: removed before it exists, it would stay behind.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      fs.rmSync(part, { force: true });
      throw error;
    }
  }

  async get(id: string): Promise<Upload | null> {
    const record = await this.data.uploads.get(id);
    return record ? this.describe(record) : null;
  }

  /** The upload as it would be read with another sheet: rows, fields and preview of that sheet. */
  async describeSheet(id: string, sheet: string | number): Promise<Upload> {
    const record = await this.require(id);
    if (record.kind !== 'xlsx') return this.describe(record);
    const info = await this.inspect(await this.localFile(record), 'xlsx', sheet);
    return this.describe({ ...record, info: { ...record.info, ...info } });
  }

  /**
   * The file behind an image upload (`upl_…` image values); null otherwise. Image uploads are
   * named by their id, so resolving one (synchronously, as renders do) needs no database read.
   */
  imagePath(id: string): string | null {
    if (!/^upl_[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
    const file = path.join(this.dir, `${id}.${EXTENSIONS.image}`);
    return fs.existsSync(file) ? file : null;
  }

  async countRows(
    uploadId: string,
    sheet: string | number | undefined,
  ): Promise<{ rows: number; fields: string[] }> {
    const record = await this.require(uploadId);
    const inspected = await inspectRowSource(await this.localFile(record), {
      kind: record.kind as 'csv' | 'xlsx',
      ...(sheet !== undefined ? { sheet } : {}),
    });
    return { rows: inspected.rowCount, fields: inspected.fields };
  }

  async openRows(batch: BatchRecord): Promise<AsyncIterable<SourceRow>> {
    // Sheets are stored by name: a sheet called "2024" is not the 2025th tab.
    // A rerun of some rows reads only those, each with its own index in the sheet.
    const source = await this.rowsFor(batch.sourceRef ?? '', batch.sheet ?? undefined);
    return onlyChosenRows(source.rows, batch.sourceRows);
  }

  /** Streams the rows of a spreadsheet upload with the encoding detected at upload time. */
  async rowsFor(
    uploadId: string,
    sheet: string | number | undefined,
  ): Promise<{ fields: string[]; rows: AsyncIterable<SourceRow> }> {
    const record = await this.require(uploadId);
    if (record.kind !== 'csv' && record.kind !== 'xlsx') {
      throw new AppError(
        'validation-failed',
        `Upload ${uploadId} is ${record.kind}, not a spreadsheet.`,
        {
          problems: [
            { path: 'source.sourceRef', message: `the upload is ${record.kind}, not csv or xlsx` },
          ],
        },
      );
    }
    // Without a choice, the sheet chosen when the file was uploaded (the first with rows).
    const chosen = sheet ?? (typeof record.info.sheet === 'string' ? record.info.sheet : undefined);
    const source = await openRowSource(await this.localFile(record), {
      kind: record.kind,
      ...(chosen !== undefined ? { sheet: chosen } : {}),
      ...(typeof record.info.encoding === 'string' ? { encoding: record.info.encoding } : {}),
    });
    const edits = (record.info.edits as CellEdit[] | undefined) ?? [];
    return {
      fields: source.fields,
      rows: rowsWithEdits(source.rows, edits, editSheet(record, chosen)),
    };
  }

  /**
   * Changes one cell in this upload's copy of the data (the user's file is untouched): a bad
   * price fixed in the app, then pre-flight and the batch read the row with it.
   */
  async editCell(uploadId: string, body: CellEditBody): Promise<Upload> {
    const record = await this.require(uploadId);
    if (record.kind !== 'csv' && record.kind !== 'xlsx') {
      throw new AppError('validation-failed', `Upload ${uploadId} is no spreadsheet.`, {
        problems: [{ path: 'id', message: `the upload is ${record.kind}, not csv or xlsx` }],
      });
    }
    const sheet = editSheet(record, body.sheet);
    const { fields, rows } = await this.countRows(uploadId, sheet ?? undefined);
    const problems = [
      ...(fields.includes(body.field)
        ? []
        : [{ path: 'field', message: `no column "${body.field}" in the spreadsheet` }]),
      ...(body.rowIndex < rows
        ? []
        : [{ path: 'rowIndex', message: `the spreadsheet has ${rows} data rows` }]),
    ];
    if (problems.length > 0) {
      throw new AppError('validation-failed', 'That cell is not in the spreadsheet.', {
        problems,
      });
    }
    const edit: CellEdit = { sheet, rowIndex: body.rowIndex, field: body.field, value: body.value };
    const info = {
      ...record.info,
      edits: withEdit((record.info.edits as CellEdit[] | undefined) ?? [], edit),
    };
    await this.data.uploads.setInfo(uploadId, info);
    return this.describe({ ...record, info });
  }

  async unpackImages(uploadId: string, destination: string): Promise<string> {
    return unpackImageZip(await this.localFile(await this.require(uploadId)), destination);
  }

  async purgeExpired(now = new Date()): Promise<void> {
    for (const ref of await this.data.uploads.purgeExpired(now)) {
      if (path.isAbsolute(ref)) fs.rmSync(ref, { force: true });
      else {
        await this.shared?.objects.delete(ref);
        fs.rmSync(path.join(this.dir, path.basename(ref)), { force: true });
      }
    }
  }

  /**
   * The upload as a local file: itself in embedded mode; in a cluster, this node's copy of the
   * shared object (fetched once).
   */
  private async localFile(record: UploadRecord): Promise<string> {
    if (!this.shared || path.isAbsolute(record.path)) return record.path;
    const local = path.join(this.dir, path.basename(record.path));
    if (fs.existsSync(local)) return local;
    const fetched = await this.shared.cache.ensure(record.path);
    if (!fetched) throw unknownUpload(record.id);
    return fetched;
  }

  private async require(id: string): Promise<UploadRecord> {
    const record = await this.data.uploads.get(id);
    if (!record) throw unknownUpload(id);
    return record;
  }

  private async inspect(
    file: string,
    kind: UploadKind,
    sheet: string | number | undefined,
  ): Promise<UploadInfo> {
    if (kind === 'csv' || kind === 'xlsx') {
      const inspected = await inspectSpreadsheet(file, kind, sheet);
      return {
        rows: inspected.rowCount,
        fields: inspected.fields,
        renamedFields: inspected.renamedFields,
        preview: inspected.preview.map((row) => row.cells),
        ...(inspected.sheets ? { sheets: inspected.sheets } : {}),
        ...(inspected.sheet ? { sheet: inspected.sheet } : {}),
        ...(inspected.encoding ? { encoding: inspected.encoding } : {}),
        ...(inspected.delimiter ? { delimiter: inspected.delimiter } : {}),
      };
    }
    if (kind === 'image') {
      // An SVG is refused here rather than at its first render, and before sharp reads it:
      // librsvg would resolve its references against the uploads folder.
      const svg = maybeSvg(await readHead(file, 512));
      if (svg) {
        if (fs.statSync(file).size > MAX_SVG_BYTES) throw svgTooLarge('file');
        assertSvgBytesSelfContained(fs.readFileSync(file), 'file');
      }
      try {
        // A full decode (metadata() accepts truncated files), into a small size to bound memory.
        // sharp is loaded on first use: a command that uploads no image does not pay for it.
        const { default: sharp } = await import('sharp');
        const meta = await sharp(file).metadata();
        await sharp(file).resize(256, 256, { fit: 'inside' }).raw().toBuffer();
        return { width: meta.width, height: meta.height };
      } catch (error) {
        const reason = (error as Error).message.split('\n')[0] ?? '';
        // libvips knows a file for an SVG by its first 1,000 or so bytes only.
        if (svg && /unsupported image format/i.test(reason)) {
          throw new AppError(
            'image-invalid',
            'The SVG cannot be read: its <svg> element must begin within the first 1,000 bytes of the file. Remove the comments or DOCTYPE in front of it and upload it again.',
          );
        }
        throw new AppError('image-invalid', `The image cannot be read: ${reason}`);
      }
    }
    return {};
  }

  private describe(record: UploadRecord): Upload {
    const info = record.info as UploadInfo;
    const edits = info.edits ?? [];
    return {
      id: record.id,
      sourceRef: record.id,
      kind: record.kind,
      filename: record.filename,
      bytes: record.bytes,
      expiresAt: record.expiresAt,
      // Written by inspect() below; the store keeps it as opaque JSON.
      ...info,
      ...(info.preview && edits.length > 0
        ? { preview: previewWithEdits(info.preview, edits, info.sheet ?? null) }
        : {}),
    };
  }
}

/** The sheet an edit belongs to: null for a CSV, else the named (or upload-time) sheet. */
function editSheet(record: UploadRecord, sheet: string | number | undefined): string | null {
  if (record.kind !== 'xlsx') return null;
  if (typeof sheet === 'string') return sheet;
  const sheets = (record.info as UploadInfo).sheets ?? [];
  if (typeof sheet === 'number') return sheets.find((s) => s.index === sheet)?.name ?? null;
  return (record.info as UploadInfo).sheet ?? null;
}

/**
 * Inspects the chosen sheet; without a choice, the first visible sheet that has data rows (a
 * workbook often opens with a notes or cover sheet). No sheet with rows: no-rows-found.
 */
async function inspectSpreadsheet(
  file: string,
  kind: 'csv' | 'xlsx',
  sheet: string | number | undefined,
) {
  try {
    return await inspectRowSource(file, { kind, ...(sheet !== undefined ? { sheet } : {}) });
  } catch (error) {
    if (
      kind !== 'xlsx' ||
      sheet !== undefined ||
      (error as { code?: string }).code !== 'no-rows-found'
    )
      throw error;
    for (let index = 0; index < 256; index += 1) {
      try {
        const inspected = await inspectRowSource(file, { kind, sheet: index });
        if (!inspected.sheets?.[index]?.hidden) return inspected;
      } catch (next) {
        const code = (next as { code?: string }).code;
        if (code === 'sheet-not-found') break;
        if (code !== 'no-rows-found') throw next;
      }
    }
    throw error;
  }
}

function describeKind(kind: string): string {
  switch (kind) {
    case 'xls':
      return 'a legacy .xls workbook (or a password-protected file); save it as .xlsx';
    case 'xlsb':
      return 'a binary .xlsb workbook; save it as .xlsx';
    case 'pdf':
      return 'a PDF';
    case 'xml':
      return 'an XML document but no SVG image (an SVG has <svg> as its root element and is saved as UTF-8)';
    case 'empty':
      return 'empty';
    default:
      return 'not a file type Render Desk reads';
  }
}

/**
 * Control characters have no place in a name shown in the UI and written to manifests, nor have
 * bidi controls (`‮gnp.csv` shows as `vsc.png`) and zero-width characters; at most 200
 * characters, never half a surrogate pair.
 */
function safeDisplayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'upload';
  const printable = [...base.normalize('NFC')].filter((c) => !HIDDEN_IN_NAMES.test(c));
  return printable.slice(0, 200).join('').trim() || 'upload';
}

const HIDDEN_IN_NAMES =
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  /^[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff]$/;

/** The answer for an upload that does not exist (or, to a non-admin key, is another key's). */
export function unknownUpload(id: string): AppError {
  return new AppError(
    'not-found',
    `No upload "${id}" (uploads expire after 24 hours unless a batch uses them).`,
  );
}
