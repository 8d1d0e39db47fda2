import fs from 'node:fs';
import path from 'node:path';
import { EXTENSIONS } from '../engine/output-types.js';
import type { OutputFormat } from '../render/render-protocol.js';

export { EXTENSIONS };
/** Content types by file extension (a zip is a multi-page layout's numbered images). */
export const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  pdf: 'application/pdf',
  zip: 'application/zip',
};
/** Every content type an output may have, for the API's description. */
export const OUTPUT_MEDIA_TYPES: readonly string[] = [...new Set(Object.values(CONTENT_TYPES))];
/** A batch row's output key, `bat_x.12.pdf`: batch id, row index, extension. */
export const ROW_OUTPUT_KEY = /^(bat_[A-Za-z0-9_-]{1,64})\.(\d{1,9})\.(png|jpg|webp|avif|pdf)$/;
/** A single render kept for Idempotency-Key replays, `rnd_x.avif`: render id, extension. */
export const SINGLE_OUTPUT_KEY = /^(rnd_[A-Za-z0-9_-]{1,64})\.(png|jpg|webp|avif|pdf|zip)$/;

/**
 * Where a batch row's output lives in the output store (a folder in embedded mode, S3 or a shared
 * folder in a cluster). Fixed by the row: a row rendered twice (a crash, an at-least-once chunk
 * delivered again) writes the same bytes to the same key instead of a second object.
 */
export function rowObjectKey(batchId: string, rowIndex: number, format: OutputFormat): string {
  return `batches/${batchId}/${rowIndex}.${EXTENSIONS[format]}`;
}

export function batchObjectPrefix(batchId: string): string {
  return `batches/${batchId}/`;
}

/**
 * Where outputs live and how they are named. A row's output path is fixed by (batch, row), so a
 * row rendered again after a crash overwrites its own file instead of leaving a second one.
 */
export class BatchOutputs {
  constructor(readonly outputsDir: string) {}

  batchDir(batchId: string): string {
    return path.join(this.outputsDir, 'batches', batchId);
  }

  /** Where an uploaded zip of images (`imagesRef`) is unpacked for the batch. */
  imagesDir(batchId: string): string {
    return path.join(this.batchDir(batchId), 'images');
  }

  outputKey(batchId: string, rowIndex: number, format: OutputFormat): string {
    return `${batchId}.${rowIndex}.${EXTENSIONS[format]}`;
  }

  rowFile(batchId: string, rowIndex: number, format: OutputFormat): string {
    return path.join(this.batchDir(batchId), `${rowIndex}.${EXTENSIONS[format]}`);
  }

  /** The file behind an output key (batch rows and idempotent single renders), or null. */
  fileForKey(outputKey: string): { file: string; contentType: string } | null {
    const row = ROW_OUTPUT_KEY.exec(outputKey);
    if (row) {
      const [, batchId, rowIndex, ext] = row as unknown as [string, string, string, string];
      return {
        file: path.join(this.batchDir(batchId), `${rowIndex}.${ext}`),
        contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      };
    }
    const single = SINGLE_OUTPUT_KEY.exec(outputKey);
    if (single) {
      const ext = single[2] as string;
      return {
        file: path.join(this.outputsDir, 'renders', outputKey),
        contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      };
    }
    return null;
  }

  /** Temp files of a process that died mid-write. */
  removeTempFiles(batchId: string): void {
    const dir = this.batchDir(batchId);
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir)) {
      if (name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
    }
  }

  removeBatch(batchId: string): void {
    fs.rmSync(this.batchDir(batchId), { recursive: true, force: true });
  }
}
