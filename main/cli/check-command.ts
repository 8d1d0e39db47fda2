import path from 'node:path';
import {
  COMMON_OPTIONS,
  TEMPLATE_OPTIONS,
  cliSettings,
  engineCommandHelp,
  readCommandOptions,
  readJsonObject,
} from './cli-options.js';
import { EXIT } from './exit-codes.js';
import type { TerminalStyle } from './terminal-style.js';
import { UsageError } from './usage-error.js';

export const CHECK_HELP =
  engineCommandHelp(`render-desk check --template <id> --source <file> [options]
render-desk check --template <id> --values <json or @file.json> [options]

Pre-flight only: every row is laid out without encoding, rendering no image and charging no
credit. Reports values the template refuses (wrong type, missing, unreadable images) and
characters no bundled font draws (problems: the row would fail), and text too long for its
space even at its smallest size or brand values left empty (warnings: the row would render,
but not as designed). Exits 1 on any problem or warning, so a CI step fails the build on it.

Options:
  --template <id>        a template id (render-desk templates list)
  --source <file>        .csv, .xlsx or .json records, as for render-desk batch
  --values <json>        one set of values instead of a file (JSON, or @file.json)
  --target <layout>      the template's layout (default: its first)
  --format <f>           the output format the batch would use (default png)
  --brand <id>           the brand profile that fills brand-bound values
  --sheet <name|index>   the xlsx sheet to read
  --warnings-ok          exit 0 when there are warnings but no problems
  --json                 print the full result as JSON on stdout`);

const OPTIONS = {
  ...COMMON_OPTIONS,
  ...TEMPLATE_OPTIONS,
  source: { type: 'string' },
  values: { type: 'string' },
  sheet: { type: 'string' },
  'warnings-ok': { type: 'boolean' },
} as const;

/** Problems listed on a terminal; --json lists them all (up to pre-flight's own limit). */
const LISTED_PROBLEMS = 50;

/** `render-desk check`: the app's pre-flight, in this process. */
export async function checkCommand(args: string[], style: TerminalStyle): Promise<number> {
  const options = await readCommandOptions('check', args, OPTIONS, CHECK_HELP);
  if (!options) return EXIT.ok;
  const { values } = options;
  const templateId = options.required('template');
  if ((values.source === undefined) === (values.values === undefined))
    throw new UsageError('check: give either --source <file> or --values <json>');
  const settings = cliSettings(values);

  const { readCliSource, streamSpreadsheet } = await import('./batch-source.js');
  const source =
    values.source !== undefined
      ? readCliSource(values.source, values.sheet)
      : {
          kind: 'json' as const,
          file: '--values',
          records: [readJsonObject('values', values.values ?? '{}')],
        };
  const { CreateBatchRequest } = await import('../../shared/batch-schemas.js');
  const { zodProblems } = await import('../../shared/zod-problems.js');
  const parsed = CreateBatchRequest.safeParse({
    templateId,
    ...(values.target !== undefined ? { target: values.target } : {}),
    ...(values.format !== undefined ? { format: values.format } : {}),
    ...(values.brand !== undefined ? { brand: values.brand } : {}),
    ...(source.kind === 'json'
      ? { sourceType: 'json-array', source: { records: source.records } }
      : {
          // Pre-flight reads the file where it is: nothing is uploaded into the data folder.
          sourceType: path.extname(source.file).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv',
          source: { sourceRef: 'upl_local_file' },
        }),
  });
  if (!parsed.success)
    throw new UsageError(
      `check: ${zodProblems(parsed.error)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`,
    );

  const { lazyRenderPool } = await import('../render/lazy-render-pool.js');
  const { composeLocalCore } = await import('./local-core.js');
  const { preflight } = await import('../batch/preflight.js');
  const core = await composeLocalCore(settings, lazyRenderPool);
  try {
    const result = await preflight(
      parsed.data,
      core.preflightDeps((_id, sheet) => {
        if (source.kind !== 'spreadsheet') throw new Error('records are read inline');
        return streamSpreadsheet(source, sheet);
      }),
    );
    if (values.json) console.log(JSON.stringify(result));
    else {
      const { textTable } = await import('./text-table.js');
      const name = source.kind === 'spreadsheet' ? path.basename(source.file) : source.file;
      console.log(
        `checked ${result.total} row${result.total === 1 ? '' : 's'} of ${name} against ${result.templateId} (${result.target}): ` +
          `${result.valid} ok, ${result.invalid > 0 ? style.red(`${result.invalid} with problems`) : '0 with problems'}, ` +
          `${result.warnings.length > 0 ? style.yellow(`${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}`) : '0 warnings'}`,
      );
      const lines = result.problems.flatMap((row) =>
        row.errors.map((error) => [row.rowIndex, row.line ?? '', error.path, error.message]),
      );
      if (lines.length > 0) {
        console.log(
          `\n${textTable(['row', 'line', 'where', 'problem'], lines.slice(0, LISTED_PROBLEMS))}`,
        );
        if (lines.length > LISTED_PROBLEMS || result.problemsTruncated)
          console.log(style.dim(`… and more; --json lists up to 1,000 rows`));
      }
      if (result.warnings.length > 0)
        console.log(
          `\n${style.yellow('warnings')}\n${textTable(
            ['rows', 'where', 'warning'],
            result.warnings.map((w) => [w.rows, w.path, w.message]),
          )}`,
        );
      console.log(
        `\ncredits: a batch of these rows would cost ${result.cost}; the balance is ${result.balance}${result.sufficient ? '' : style.yellow(' (not enough)')}`,
      );
    }
    // The app renders a row with a warning; a build that checks first wants it fixed instead.
    const failing = result.invalid > 0 || (result.warnings.length > 0 && !values['warnings-ok']);
    return failing ? EXIT.problems : EXIT.ok;
  } finally {
    await core.close();
  }
}
