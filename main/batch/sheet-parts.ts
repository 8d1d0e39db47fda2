import type { SheetPart, SheetPlacement } from '../../shared/batch-schemas.js';
import { SHEET_PRESETS, SHEET_SIZES, type SheetOptions } from '../../shared/sheet-options.js';
import { partSheetCount, sheetPlace, type SheetPlan } from '../../shared/sheet-plan.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import { batchSheetPlan } from './batch-sheets.js';
import { sheetPartName, sheetPartOutputKey } from './output-address.js';

/**
 * What a finished sheet batch made, from the same plan the engine drew with and manifest.csv
 * reads: the parts are never listed from the store, so the API says the same in every mode.
 */

type SheetBatch = Pick<
  BatchRecord,
  'id' | 'status' | 'succeeded' | 'sheetOptions' | 'templateSnapshot' | 'target' | 'format'
> & { outputOptions: Pick<BatchRecord['outputOptions'], 'page'> };

/** The plan a sheet batch was drawn with; null for other batches (options checked at creation). */
export function recordSheetPlan(batch: SheetBatch): SheetPlan | null {
  if (!batch.sheetOptions) return null;
  const template = batch.templateSnapshot as Parameters<typeof batchSheetPlan>[0];
  return batchSheetPlan(template, batch.target, {
    format: batch.format,
    ...(batch.outputOptions.page !== undefined ? { page: batch.outputOptions.page } : {}),
    sheets: batch.sheetOptions,
  });
}

/**
 * The sheets are drawn once every row is done, and only by a batch that ended on its own:
 * a cancelled or stopped batch has none.
 */
export function hasSheetParts(batch: Pick<BatchRecord, 'status' | 'succeeded'>): boolean {
  return (batch.status === 'succeeded' || batch.status === 'partial') && batch.succeeded > 0;
}

/** The parts of a finished sheet batch; undefined for any other batch. */
export function batchSheetParts(batch: SheetBatch): SheetPart[] | undefined {
  if (!batch.sheetOptions || !hasSheetParts(batch)) return undefined;
  let plan: SheetPlan | null;
  try {
    plan = recordSheetPlan(batch);
  } catch {
    // A snapshot the current code cannot plan still shows as a batch, without its parts.
    return undefined;
  }
  if (!plan) return undefined;
  const rowsPerPart = plan.perSheet * plan.sheetsPerPart;
  const count = Math.ceil(batch.succeeded / rowsPerPart);
  const sides = plan.duplex === 'none' ? 1 : 2;
  const sheetSize = sheetSizeOf(plan, batch.sheetOptions);
  return Array.from({ length: count }, (_, i) => {
    const rows = Math.min(rowsPerPart, batch.succeeded - i * rowsPerPart);
    const sheets = partSheetCount(plan, rows);
    return {
      part: i + 1,
      file: sheetPartName(i + 1),
      outputKey: sheetPartOutputKey(batch.id, i + 1),
      sheets,
      pages: sheets * sides,
      fronts: sheets,
      backs: sides === 2 ? sheets : 0,
      rows,
      perSheet: plan.perSheet,
      sheetSize,
    };
  });
}

/** Where the succeeded row at `ordinal` (0-based among `count`) is printed. */
export function sheetPlacement(plan: SheetPlan, ordinal: number, count: number): SheetPlacement {
  const place = sheetPlace(plan, ordinal, count);
  return { file: sheetPartName(place.part), ...place };
}

/** The paper as planSheet chose it: the size asked for, else the preset's, else A4. */
function sheetSizeOf(plan: SheetPlan, options: SheetOptions): SheetPart['sheetSize'] {
  const size = options.size ?? (options.preset ? SHEET_PRESETS[options.preset].size : 'a4');
  const label = typeof size === 'string' ? SHEET_SIZES[size].label : undefined;
  return { ...(label ? { label } : {}), width: plan.width, height: plan.height };
}
