import { displayPath } from './display-text.js';
import type { BatchOutcome } from './batch-run.js';
import type { TerminalStyle } from './terminal-style.js';
import { textTable } from './text-table.js';

/** Failed rows listed at the end; manifest.csv has them all. */
const LISTED_FAILURES = 20;

export interface SummaryContext {
  out: string;
  cached: boolean;
  balance: number;
  seconds: number;
  json: boolean;
  style: TerminalStyle;
}

/** The end of a batch: counts, credits, time and the first failed rows; JSON with --json. */
export function printBatchSummary(outcome: BatchOutcome, context: SummaryContext): void {
  const { rendered, unchanged, failed } = outcome;
  const failures = outcome.manifest.filter((line) => line.status === 'failed');
  const rowsPerSecond = outcome.renderSeconds > 0 ? rendered / outcome.renderSeconds : 0;
  if (context.json) {
    console.log(
      JSON.stringify({
        out: context.out,
        total: outcome.manifest.length,
        rendered,
        unchanged,
        failed,
        credits: { charged: rendered, balance: context.balance },
        seconds: round(context.seconds),
        renderSeconds: round(outcome.renderSeconds),
        rowsPerSecond: round(rowsPerSecond),
        batchIds: outcome.batchIds,
        ...(outcome.stoppedReason ? { stoppedReason: outcome.stoppedReason } : {}),
        failures: failures
          .slice(0, 100)
          .map((line) => ({ rowIndex: line.rowIndex, error: line.error })),
      }),
    );
    return;
  }
  const { style } = context;
  const rows: (string | number)[][] = [['rendered', rendered]];
  if (context.cached) rows.push(['unchanged', unchanged]);
  rows.push(['failed', failed]);
  console.log(
    textTable(['rows', 'count'], rows) +
      `\n\ncredits: ${rendered} charged, ${context.balance} left` +
      `\ntime:    ${round(context.seconds)} s` +
      (rendered > 0
        ? ` (rendering ${round(outcome.renderSeconds)} s, ${round(rowsPerSecond)} rows/s)`
        : '') +
      `\nout:     ${displayPath(context.out)}`,
  );
  if (outcome.stoppedReason)
    console.log(`\n${style.yellow(`stopped early: ${outcome.stoppedReason}`)}`);
  if (failures.length > 0) {
    console.log(
      `\n${style.red(`${failed} row${failed === 1 ? '' : 's'} failed`)}${failed > LISTED_FAILURES ? ` (first ${LISTED_FAILURES}; all in manifest.csv)` : ''}:\n` +
        textTable(
          ['row', 'error'],
          failures.slice(0, LISTED_FAILURES).map((line) => [line.rowIndex, line.error]),
        ),
    );
  }
  const counts = [`rendered ${rendered}`];
  if (context.cached) counts.push(`unchanged ${unchanged}`);
  counts.push(`failed ${failed}`);
  const line = counts.join(', ');
  console.log(`\n${failed > 0 ? style.yellow(line) : style.green(line)}`);
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
