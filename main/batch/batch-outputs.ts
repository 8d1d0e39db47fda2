import fs from 'node:fs';
import path from 'node:path';
import type { OutputFormat } from '../render/render-protocol.js';
import { batchObjectPrefix, rowObjectKey } from './output-address.js';

/**
 * Where an embedded core's outputs live on disk: the folder store's files under `outputs/`, at
 * the object keys output-address.ts gives them.
 */
export class BatchOutputs {
  constructor(readonly outputsDir: string) {}

  batchDir(batchId: string): string {
    return path.join(this.outputsDir, batchObjectPrefix(batchId));
  }

  /** Where an uploaded zip of images (`imagesRef`) is unpacked for the batch. */
  imagesDir(batchId: string): string {
    return path.join(this.batchDir(batchId), 'images');
  }

  rowFile(batchId: string, rowIndex: number, format: OutputFormat): string {
    return path.join(this.outputsDir, rowObjectKey(batchId, rowIndex, format));
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
