import type { RowOutcome } from '../data/data-commands.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { OutputFormat } from '../render/render-protocol.js';
import type { RenderService } from '../render/render-service.js';
import type { QueuedRow } from './batch-queue.js';
import { drawsRowsOnSheetsOnly, prepareSheetRow } from './batch-sheets.js';
import { EXTENSIONS, contentTypeOf, rowObjectKey, rowOutputKey } from './output-address.js';
import { renderBatchRow, type BatchRowContext } from './render-batch-row.js';
import { rowFailure } from './row-failure.js';

/**
 * One row through the pipeline's last steps: drawn (or, for a batch drawn only on sheets,
 * checked) and written at its object key. Either the row's outcome, which it earned itself, or
 * the store's failure, which is not the row's: each runner decides what that means (the embedded
 * runner stops on a full disk; a cluster worker leaves the row pending for the chunk's retry).
 */
export type StoredRow = { outcome: RowOutcome } | { storeFailed: unknown };

export async function storeBatchRow(
  deps: { renderer: RenderService; objects: ObjectStore },
  context: BatchRowContext,
  row: QueuedRow,
): Promise<StoredRow> {
  const { batch } = context;
  const format = batch.format as OutputFormat;
  const succeeded = (bytes: number): StoredRow => ({
    outcome: {
      ok: true,
      rowIndex: row.rowIndex,
      renderId: row.renderId,
      outputKey: rowOutputKey(batch.id, row.rowIndex, format),
      bytes,
    },
  });
  let bytes: Uint8Array;
  try {
    if (drawsRowsOnSheetsOnly(batch)) {
      // Checked now, drawn on the sheets when every row is done: no object of its own.
      const job = await prepareSheetRow(deps.renderer, context, row);
      // Its codes are read from the row drawn alone at the print DPI, as its sheet prints it:
      // without duplex backs, its first page only.
      if (job.verifyCodes) {
        const front = (batch.sheetOptions?.duplex ?? 'none') === 'none' ? { page: 1 } : {};
        await deps.renderer.run(
          { ...job, format: 'png', measureOnly: true, ...front },
          { lane: 'batch', group: batch.id },
        );
      }
      return succeeded(0);
    }
    bytes = (await renderBatchRow(deps.renderer, context, row)).bytes;
  } catch (error) {
    return { outcome: { ok: false, rowIndex: row.rowIndex, ...rowFailure(error) } };
  }
  try {
    await deps.objects.put(rowObjectKey(batch.id, row.rowIndex, format), bytes, {
      contentType: contentTypeOf(EXTENSIONS[format]),
    });
  } catch (error) {
    return { storeFailed: error };
  }
  return succeeded(bytes.byteLength);
}
