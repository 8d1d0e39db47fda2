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
import { SHEETS_HELP, sheetOptionsFromFlags } from './sheet-flags.js';
import type { ResizableRenderPool } from './resizable-render-pool.js';
import type { TerminalStyle } from './terminal-style.js';

export const BATCH_HELP =
  engineCommandHelp(`render-desk batch --template <id> --source <file> --out <folder or .zip> [options]

Renders every row of a CSV, XLSX or JSON file with the engine in this process (no server
needed), with a progress bar and a summary at the end. Each rendered row costs one credit, as a
batch through the API does; rows that fail cost nothing. The images and a manifest.csv (row,
status, file, error) go into the folder, or into one .zip when --out ends in .zip. The data
folder's webhooks get the batch's events as from the app: sent before the command exits (at
most 10 s), or left queued for the app to send when it next runs.

Options:
  --template <id>        a template id (render-desk templates list)
  --source <file>        .csv or .xlsx (first sheet with rows, or --sheet), or .json: an array of
                         records such as [{"headline": "…"}]; columns map to variables by name
  --out <path>           a folder, or a file ending in .zip
  --cache <folder>       keep every output under a hash of its template version, values, fonts and
                         output options; a row whose hash is already there is not rendered again
                         and not charged ("rendered 3, unchanged 497")
  --format <f>           output format (default png; pdf with --sheets)
  --target <layout>      the template's layout, e.g. square or og (default: the template's first;
                         with --sheets its first print layout)
  --targets <a,b,…>      several layouts in one run: every row in each, named {name}-{layout}
                         (the API's targets)
  --bindings <json>      how variables take their values, as the API's bindings: a column
                         ({"title": {"field": "Tên"}}), a constant, a brand value, a generated
                         one (rowNumber, total, today, uuid) or a serial number
                         ({"serial": {"start": 1001, "pad": 6, "prefix": "TIX-"}}); or @file.json
  --quality <1-100>      jpeg/webp quality
  --scale <0.25-4>       raster formats: output pixels per layout pixel, 2 for retina screens
                         (default 1; at most 5000 px a side)
  --brand <id>           the brand profile that fills brand-bound values (default brand otherwise)
  --name-pattern <p>     file names from columns, e.g. "{sku}-{name}" (default: the row number)
  --sheet <name|index>   the xlsx sheet to read
  --images <folder>      the folder relative image paths in cells resolve against
                         (default: the source file's folder, unless the data folder is in it)
  --crop-marks           crop marks outside the trim and bleed of every file (with --sheets,
                         --marks chooses the sheets' marks instead)
  --verify-codes         read every QR code and barcode back from the output's pixels (a PDF's
                         at its print DPI); a row whose code does not scan as its value fails
                         with code-unreadable
  --json                 print the summary as JSON on stdout (the progress bar stays on stderr)

${SHEETS_HELP}
`);

/** Rows to render per thread started for a cached run: a few changed rows need one thread. */
const ROWS_PER_THREAD = 16;

const OPTIONS = {
  ...COMMON_OPTIONS,
  ...TEMPLATE_OPTIONS,
  source: { type: 'string' },
  out: { type: 'string', short: 'o' },
  cache: { type: 'string' },
  targets: { type: 'string' },
  bindings: { type: 'string' },
  quality: { type: 'string' },
  scale: { type: 'string' },
  'name-pattern': { type: 'string' },
  sheet: { type: 'string' },
  images: { type: 'string' },
  'crop-marks': { type: 'boolean' },
  'verify-codes': { type: 'boolean' },
  sheets: { type: 'string' },
  duplex: { type: 'string' },
  marks: { type: 'string' },
  'sheets-per-part': { type: 'string' },
  'cut-and-stack': { type: 'boolean' },
} as const;

/** `render-desk batch`: a source file into a folder or zip, through the app's batch runner. */
export async function batchCommand(args: string[], style: TerminalStyle): Promise<number> {
  const options = await readCommandOptions('batch', args, OPTIONS, BATCH_HELP);
  if (!options) return EXIT.ok;
  const { values } = options;
  const templateId = options.required('template');
  const sourceFile = options.required('source');
  const out = path.resolve(options.required('out'));
  const sheets = sheetOptionsFromFlags(values);
  const settings = cliSettings(values);
  // A source that cannot be read is said at once, before any thread starts.
  const { checkSourceFile } = await import('./batch-source.js');
  checkSourceFile(sourceFile);
  // Open the data folder and start the render threads first: the engine loads in them while
  // this thread loads the batch code and reads the source (most of a cached run's time).
  const { composeLocalCore } = await import('./local-core.js');
  const { resizableRenderPool } = await import('./resizable-render-pool.js');
  let pool: ResizableRenderPool | undefined;
  const core = await composeLocalCore(
    settings,
    // Without a cache every row renders: all threads at once. With one, a single thread now
    // (it loads the engine on the other core while this one loads the batch code and hashes
    // the rows), and more only once it is known how many rows changed.
    (options) =>
      (pool = resizableRenderPool({
        ...options,
        startWith: values.cache !== undefined ? 1 : options.threads,
      })),
    { webhooks: true },
  );
  try {
    const { runBatch } = await import('./batch-run.js');
    return await runBatch(
      {
        templateId,
        sourceFile,
        out,
        cacheDir: values.cache !== undefined ? path.resolve(values.cache) : null,
        format: values.format,
        target: values.target,
        targets:
          values.targets !== undefined
            ? values.targets
                .split(',')
                .map((name) => name.trim())
                .filter((name) => name !== '')
            : undefined,
        bindings:
          values.bindings !== undefined ? readJsonObject('bindings', values.bindings) : undefined,
        quality: values.quality,
        scale: values.scale,
        brand: values.brand,
        namePattern: values['name-pattern'],
        sheet: values.sheet,
        imagesDir: values.images !== undefined ? path.resolve(values.images) : undefined,
        json: values.json === true,
        sheets,
        cropMarks: values['crop-marks'] === true,
        verifyCodes: values['verify-codes'] === true,
      },
      core,
      style,
      (rows) => pool?.resize(Math.ceil(rows / ROWS_PER_THREAD)) ?? Promise.resolve(),
    );
  } finally {
    await core.close();
  }
}
