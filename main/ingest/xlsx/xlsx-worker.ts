import { parentPort, workerData } from 'node:worker_threads';
import { SpreadsheetError } from '../spreadsheet-error.js';
import type {
  XlsxWorkerAck,
  XlsxWorkerMessage,
  XlsxWorkerRequest,
} from './xlsx-worker-protocol.js';
import type { RawRow } from './xlsx-sheet-reader.js';
import { openXlsxSheet } from './xlsx-sheet-reader.js';

/**
 * Parse worker: reads one sheet and streams its rows to the parent in batches. It never runs
 * more than `maxInFlight` batches ahead of the parent's acks, so memory stays bounded however
 * big the sheet; the parent terminates it when its deadline passes.
 */

const request = workerData as XlsxWorkerRequest;
const port = parentPort;
if (!port) throw new Error('xlsx-worker must run in a worker thread');

let credits = request.maxInFlight;
let wakeUp: (() => void) | undefined;
port.on('message', (message: XlsxWorkerAck) => {
  if (message.type !== 'ack') return;
  credits += 1;
  wakeUp?.();
});

const send = (message: XlsxWorkerMessage): void => port.postMessage(message);

async function sendBatch(rows: RawRow[]): Promise<void> {
  while (credits <= 0) await new Promise<void>((resolve) => (wakeUp = resolve));
  wakeUp = undefined;
  credits -= 1;
  send({ type: 'rows', rows });
}

async function run(): Promise<void> {
  const opened = await openXlsxSheet({
    file: request.file,
    ...(request.sheet !== undefined ? { sheet: request.sheet } : {}),
  });
  try {
    send({
      type: 'opened',
      sheets: opened.sheets,
      sheet: opened.chosen.name,
      date1904: opened.date1904,
    });
    let batch: RawRow[] = [];
    let seen = 0;
    for await (const row of opened.rows) {
      seen += 1;
      // The first non-empty row is the header; the cap counts data rows.
      if (seen - 1 > request.maxRows) {
        throw new SpreadsheetError(
          'too-many-rows',
          `The sheet "${opened.chosen.name}" has more than ${request.maxRows.toLocaleString('en')} data rows; split it into smaller files.`,
          { sheet: opened.chosen.name, line: row.line },
        );
      }
      batch.push(row);
      if (batch.length >= request.batchSize) {
        await sendBatch(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await sendBatch(batch);
    send({ type: 'end' });
  } finally {
    opened.close();
  }
}

run().then(
  () => port.close(),
  (error: unknown) => {
    if (error instanceof SpreadsheetError) {
      send({ type: 'error', code: error.code, message: error.message, location: error.location });
    } else {
      const message = error instanceof Error ? error.message : String(error);
      send({ type: 'error', code: 'internal', message, location: {} });
    }
    port.close();
  },
);
