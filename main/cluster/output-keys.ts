import { EXTENSIONS } from '../batch/batch-outputs.js';
import type { OutputFormat } from '../render/render-protocol.js';

/**
 * Where a batch row's output lives in the object store. Fixed by the row: a chunk rendered twice
 * (at-least-once delivery) writes the same bytes to the same key instead of a second object.
 */
export function rowObjectKey(batchId: string, rowIndex: number, format: OutputFormat): string {
  return `batches/${batchId}/${rowIndex}.${EXTENSIONS[format]}`;
}

export function batchObjectPrefix(batchId: string): string {
  return `batches/${batchId}/`;
}
