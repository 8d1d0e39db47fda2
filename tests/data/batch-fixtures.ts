import type { QueuedRow, SourceRecord } from '../../main/batch/batch-queue.js';
import type { CoreData } from '../../main/data/core-data.js';
import type { RowOutcome, RowOutcomeContext } from '../../main/data/data-commands.js';
import type { BatchRecord, NewBatch } from '../../main/data/types/batch-record.js';

/** A json-array batch of `total` rows as the batch service would create it. */
export function newBatch(id: string, total: number, overrides: Partial<NewBatch> = {}): NewBatch {
  return {
    id,
    templateId: 'tmpl_product_promo',
    // Key order on purpose not alphabetical: both stores must give documents back as stored.
    templateSnapshot: {
      name: 'Promo',
      layouts: { story: {}, square: {} },
      id: 'tmpl_product_promo',
    },
    templateVersion: null,
    assetsDir: '/templates/tmpl_product_promo',
    target: 'square',
    format: 'png',
    quality: null,
    outputOptions: {},
    sheetOptions: null,
    targets: null,
    sourceType: 'json-array',
    sourceRef: null,
    sheet: null,
    sourceRows: null,
    sourceTotal: null,
    bindings: { price: { field: 'Giá' }, headline: { constant: 'Tết' } },
    fileNamePattern: null,
    imagesDir: null,
    brand: { name: 'Shop', colours: ['#ff0000'] },
    today: '2026-02-01',
    status: 'queued',
    total,
    rejectedReason: null,
    apiKeyId: 'key_contract',
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** Rows as a source reads them: `sku` before `headline`, and a row number per line. */
export function sourceRecords(count: number, from = 0): SourceRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    rowIndex: from + i,
    line: from + i + 2,
    record: { sku: `SKU-${from + i}`, headline: `Row ${from + i}`, Giá: 1000 * (from + i) },
    fileName: `sku-${from + i}.png`,
  }));
}

export function rowContext(batchId: string): RowOutcomeContext {
  return {
    batchId,
    templateId: 'tmpl_product_promo',
    ratio: 'square',
    format: 'png',
    apiKeyId: 'key_contract',
  };
}

export function succeeded(
  batchId: string,
  row: Pick<QueuedRow, 'rowIndex' | 'renderId'>,
): RowOutcome {
  return {
    ok: true,
    rowIndex: row.rowIndex,
    renderId: row.renderId,
    outputKey: `batches/${batchId}/${row.rowIndex}.png`,
    bytes: 1000 + row.rowIndex,
  };
}

export function failed(rowIndex: number, error = 'The photo could not be read.'): RowOutcome {
  return { ok: false, rowIndex, error, errorCode: 'image-invalid', fields: ['values.photo'] };
}

/**
 * Grants `credits`, creates a batch of `total` inline rows, marks it running and claims every row
 * (the embedded runner's way of taking rows), ready for commitRows.
 */
export async function runningBatch(
  data: CoreData,
  total: number,
  credits = total,
): Promise<{ batch: BatchRecord; rows: QueuedRow[] }> {
  if (credits > 0) await data.ledger.grant(credits, { note: 'test credits' });
  const id = data.batches.newId();
  const batch = await data.commands.createBatch({
    batch: newBatch(id, total),
    records: sourceRecords(total),
  });
  await data.batches.update(id, { status: 'running', startedAt: new Date().toISOString() });
  const rows = await data.batches.claim(id, total, Date.now() + 60_000);
  return { batch, rows };
}
