import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../core/thread-entry.js';
import { dataRows } from '../rows/data-rows.js';
import { normaliseHeaders } from '../rows/header-fields.js';
import type { OpenedRowSource, SourceRow } from '../rows/row-source-types.js';
import { createRowCells, DEFAULT_DEADLINE_MS, DEFAULT_MAX_ROWS } from '../rows/row-source-types.js';
import { SpreadsheetError } from '../spreadsheet-error.js';
import type {
  XlsxWorkerAck,
  XlsxWorkerMessage,
  XlsxWorkerRequest,
} from './xlsx-worker-protocol.js';
import type { RawRow } from './xlsx-sheet-reader.js';

/**
 * xlsx rows from a parse worker (HOSTILE-INPUTS #14–16). The worker has a wall-clock budget:
 * the clock runs while the worker is working and stops while it waits for us to take its rows,
 * so a slow consumer never times out a healthy parse, while a sheet that keeps the parser busy
 * past the budget is terminated. The main thread only moves batches of plain rows.
 */

export interface XlsxOpenOptions {
  sheet?: string | number;
  maxRows?: number;
  deadlineMs?: number;
  /** Rows per worker message (default 500). */
  batchSize?: number;
}

const MAX_IN_FLIGHT = 2;
// A sheet whose parse needs more heap than this is refused rather than risking the process.
const WORKER_HEAP_MB = 1024;

function typescriptBootstrap(script: string): string {
  // The ESM build of tsx's API (its CJS build cannot register hooks from a worker).
  let tsxApi = 'tsx/esm/api';
  try {
    tsxApi = import.meta.resolve(tsxApi);
  } catch {
    // Without import.meta.resolve the bare name resolves from the working directory.
  }
  const entry = pathToFileURL(script).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
}

function workerFile(): string {
  const self = fileURLToPath(import.meta.url);
  return threadEntry(self.replace(/xlsx-row-source\.(ts|js)$/, 'xlsx-worker.$1'));
}

export async function openXlsxRowSource(
  file: string,
  options: XlsxOpenOptions = {},
): Promise<OpenedRowSource> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  const request: XlsxWorkerRequest = {
    file,
    ...(options.sheet !== undefined ? { sheet: options.sheet } : {}),
    batchSize: options.batchSize ?? 500,
    maxInFlight: MAX_IN_FLIGHT,
    maxRows,
  };
  const script = workerFile();
  const typescript = script.endsWith('.ts');
  // Running from TypeScript sources (tsx, vitest): a worker's `--import tsx` does not take on
  // Node 20, so the worker starts from a one-line script that registers tsx, then imports the entry.
  const worker = new Worker(typescript ? typescriptBootstrap(script) : script, {
    eval: typescript,
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const inbox = createInbox(worker, deadlineMs);
  const release = async (): Promise<void> => {
    inbox.finish();
    await worker.terminate();
  };

  try {
    const opened = await inbox.next();
    if (opened.type !== 'opened') throw new Error('xlsx worker spoke out of turn');
    const raw = rawRows(inbox);
    const header = await raw.next();
    if (header.done) {
      throw new SpreadsheetError('no-rows-found', `The sheet "${opened.sheet}" has no rows.`, {
        sheet: opened.sheet,
      });
    }
    const { fields, renamedFields } = normaliseHeaders(header.value.values);
    const rows = await dataRows(
      toRows(raw, fields),
      release,
      () =>
        new SpreadsheetError(
          'no-rows-found',
          `The sheet "${opened.sheet}" has a header row but no data rows.`,
          { sheet: opened.sheet },
        ),
    );
    return {
      kind: 'xlsx',
      fields,
      renamedFields,
      sheets: opened.sheets.map(({ name, index, hidden }) => ({ name, index, hidden })),
      sheet: opened.sheet,
      ...rows,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

type Inbox = ReturnType<typeof createInbox>;

function createInbox(worker: Worker, deadlineMs: number) {
  const queue: XlsxWorkerMessage[] = [];
  let failure: unknown;
  let finished = false;
  let waiter: (() => void) | undefined;
  let unacked = 0;
  let budget = deadlineMs;
  let clockStartedAt = 0;
  let timer: NodeJS.Timeout | undefined;

  const wake = (): void => {
    const resolve = waiter;
    waiter = undefined;
    resolve?.();
  };
  const fail = (error: unknown): void => {
    if (finished || failure) return;
    failure = error;
    stopClock();
    void worker.terminate();
    wake();
  };
  const startClock = (): void => {
    if (timer || finished || failure) return;
    clockStartedAt = Date.now();
    timer = setTimeout(
      () => {
        fail(
          new SpreadsheetError(
            'spreadsheet-parse-timeout',
            `Reading the workbook took longer than ${Math.round(deadlineMs / 1000)} s and was stopped. ` +
              'The file may be damaged or built to be slow to read; save it again from the spreadsheet application, or upload it as CSV.',
          ),
        );
      },
      Math.max(0, budget),
    );
  };
  const stopClock = (): void => {
    if (!timer) return;
    clearTimeout(timer);
    timer = undefined;
    budget -= Date.now() - clockStartedAt;
  };

  worker.on('message', (message: XlsxWorkerMessage) => {
    if (message.type === 'rows') {
      unacked += 1;
      if (unacked >= MAX_IN_FLIGHT) stopClock(); // the worker now waits for us
    } else if (message.type === 'end' || message.type === 'error') {
      stopClock();
    }
    queue.push(message);
    wake();
  });
  worker.on('error', (error: Error & { code?: string }) => {
    fail(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new SpreadsheetError(
            'archive-limits-exceeded',
            'The workbook needs more memory to read than Render Desk allows. Split it into smaller files or upload it as CSV.',
          )
        : new SpreadsheetError(
            'invalid-spreadsheet',
            `The workbook cannot be read: ${error.message}`,
          ),
    );
  });
  worker.on('exit', () => {
    if (!finished && queue.length === 0) {
      fail(
        new SpreadsheetError('invalid-spreadsheet', 'The workbook reader stopped unexpectedly.'),
      );
    }
  });
  startClock();

  return {
    async next(): Promise<XlsxWorkerMessage> {
      for (;;) {
        const message = queue.shift();
        if (message) {
          if (message.type === 'error') {
            throw message.code === 'internal'
              ? new SpreadsheetError(
                  'invalid-spreadsheet',
                  `The workbook cannot be read: ${message.message}`,
                )
              : new SpreadsheetError(message.code, message.message, message.location);
          }
          if (message.type === 'end') finished = true;
          return message;
        }
        if (failure) throw failure;
        await new Promise<void>((resolve) => (waiter = resolve));
      }
    },
    /** We took a batch's rows: let the worker send another, and run its clock again. */
    ack(): void {
      unacked -= 1;
      worker.postMessage({ type: 'ack' } satisfies XlsxWorkerAck);
      startClock();
    },
    finish(): void {
      finished = true;
      stopClock();
    },
  };
}

async function* rawRows(inbox: Inbox): AsyncGenerator<RawRow> {
  for (;;) {
    const message = await inbox.next();
    if (message.type === 'end') return;
    if (message.type !== 'rows') continue;
    inbox.ack();
    yield* message.rows;
  }
}

async function* toRows(raw: AsyncGenerator<RawRow>, fields: string[]): AsyncGenerator<SourceRow> {
  let rowIndex = 0;
  for await (const { line, values } of raw) {
    const cells = createRowCells(fields, (index) => values[index] ?? null);
    const problems: string[] = [];
    const extra = values.slice(fields.length).filter((value) => value !== null && value !== '');
    if (extra.length > 0) {
      problems.push(
        `Row ${line} has values in columns without a header; they were not used: ${extra.map((value) => JSON.stringify(value)).join(', ')}.`,
      );
    }
    yield { rowIndex, line, cells, problems };
    rowIndex += 1;
  }
}
