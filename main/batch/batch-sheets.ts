import type { CreateBatchRequest } from '../../shared/batch-schemas.js';
import { Errors } from '../../shared/errors.js';
import { planSheet, sheetItemOf, type SheetOptions } from '../../shared/sheet-options.js';
import type { SheetPlan } from '../../shared/sheet-plan.js';
import type { Template } from '../../shared/template-format.js';
import type { CoreData } from '../data/core-data.js';
import type { RenderService } from '../render/render-service.js';
import type { RenderJob } from '../render/render-protocol.js';
import type { BatchRecord } from '../data/types/batch-record.js';
import type { QueuedRow } from './batch-queue.js';
import { prepareRow, type BatchRowContext } from './render-batch-row.js';

/**
 * The plan of a batch's sheets, or a 422 saying what is wrong: sheets are PDF pages of a print
 * layout, the grid must fit the sheet, duplex needs a back page.
 */
export function batchSheetPlan(
  template: Template,
  target: string,
  request: Pick<CreateBatchRequest, 'format' | 'page'> & { sheets: SheetOptions },
): SheetPlan {
  const layout = template.layouts[target];
  const item = layout ? sheetItemOf(layout) : null;
  const problems: { path: string; message: string }[] = [];
  if (request.format !== 'pdf') {
    problems.push({
      path: 'format',
      message: 'sheets are printed from PDF: set format to pdf, or leave sheets out for images',
    });
  }
  if (!item) {
    problems.push({
      path: 'sheets',
      message: `"${target}" is a pixel layout with no physical size; sheets need a print layout (one with a page in mm or inches, such as a4 or badge)`,
    });
  }
  if (item && request.sheets.duplex && request.sheets.duplex !== 'none' && request.page) {
    problems.push({
      path: 'page',
      message: 'duplex sheets put page 1 on the front and page 2 on the back; leave page out',
    });
  }
  if (problems.length > 0 || !item) throw Errors.validation(problems);
  const planned = planSheet(request.sheets, item);
  if (!planned.ok) throw Errors.validation(planned.problems);
  return planned.plan;
}

/** Sheet batches without single files check each row's values and draw it only on the sheets. */
export function drawsRowsOnSheetsOnly(batch: Pick<BatchRecord, 'sheetOptions'>): boolean {
  return batch.sheetOptions !== null && batch.sheetOptions.singleFiles !== true;
}

/** The job of one row on a sheet, validated (values, images resolved or fetched) but not drawn. */
export function prepareSheetRow(
  renderer: RenderService,
  context: BatchRowContext,
  row: Pick<QueuedRow, 'rowIndex' | 'record'>,
): Promise<RenderJob> {
  // Sheets draw one layout: the row is its own spreadsheet row.
  return prepareRow(renderer, context, row, { target: context.batch.target });
}

export interface SheetDrawDeps {
  data: CoreData;
  renderer: RenderService;
  /** Stores a finished part (durably) under sheetPartKey. */
  writePart: (part: number, bytes: Uint8Array) => Promise<void>;
  /** Parts drawn at once: each holds its rows' values and, at the end, its PDF in memory. */
  parallel: number;
}

/**
 * Draws a batch's sheets from its succeeded rows, in rowIndex order, part by part: each part
 * (sheetsPerPart sheets) is one render job and one PDF, so memory holds at most `parallel` parts
 * whatever the batch's size. Returns the number of parts.
 */
export async function drawBatchSheets(
  deps: SheetDrawDeps,
  context: BatchRowContext,
): Promise<number> {
  const { batch } = context;
  if (!batch.sheetOptions) return 0;
  const plan = batchSheetPlan(context.entry.template, batch.target, {
    format: batch.format,
    ...(batch.outputOptions.page !== undefined ? { page: batch.outputOptions.page } : {}),
    sheets: batch.sheetOptions,
  });
  const rowsPerPart = plan.perSheet * plan.sheetsPerPart;
  const running = new Set<Promise<void>>();
  const failures: unknown[] = [];
  let from = 0;
  let part = 0;
  for (;;) {
    const rows = await deps.data.batches.succeededRecords(batch.id, from, rowsPerPart);
    if (rows.length === 0) break;
    part += 1;
    const jobs: RenderJob[] = [];
    for (const row of rows) jobs.push(await prepareSheetRow(deps.renderer, context, row));
    const job: RenderJob = { ...jobs[0]!, sheet: { plan, items: jobs.map((j) => j.values) } };
    const number = part;
    const task: Promise<void> = deps.renderer
      .run(job, { lane: 'batch', group: batch.id })
      .then((result) => deps.writePart(number, result.bytes))
      .catch((error: unknown) => {
        failures.push(error);
      })
      .finally(() => running.delete(task));
    running.add(task);
    if (running.size >= deps.parallel) await Promise.race(running);
    from = rows.at(-1)!.rowIndex + 1;
    if (rows.length < rowsPerPart) break;
  }
  await Promise.all(running);
  if (failures.length > 0) throw failures[0];
  return part;
}
