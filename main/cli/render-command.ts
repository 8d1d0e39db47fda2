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
import { displayPath, formatBytes } from './display-text.js';
import type { TerminalStyle } from './terminal-style.js';

/** Ratio and format names come with the schemas (zod), loaded only once the render thread starts. */
async function renderHelp(): Promise<string> {
  const { FORMAT_NAMES } = await import('./output-format.js');
  return engineCommandHelp(`render-desk render --template <id> --out <file> [options]

Renders one image with the engine in this process (no server needed) and charges one credit,
as a render through the API does.

Options:
  --template <id>      a template id (render-desk templates list)
  --values <json>      the variable values as JSON, or @file.json to read them from a file;
                       omitted values take the template's defaults and the brand's values
  --out <file>         where to write the image
  --format <f>         ${FORMAT_NAMES} (default: from the --out extension, else png)
  --target <layout>    a ratio (square, portrait, story, landscape, og) or a print layout such
                       as a4; templates show <id> lists them (default: the template's first)
  --quality <1-100>    jpeg/webp quality (default 90)
  --scale <0.25-4>     raster formats: output pixels per layout pixel, 2 for retina screens
                       (default 1; at most 5000 px a side)
  --brand <id>         the brand profile that fills brand-bound values (default: the default brand)
  --crop-marks         crop marks outside the trim and bleed (print layouts; a pixel layout gets
                       them at 96 px an inch); the page or image grows to hold them
  --json               print the result as JSON on stdout`);
}

const OPTIONS = {
  ...COMMON_OPTIONS,
  ...TEMPLATE_OPTIONS,
  values: { type: 'string' },
  out: { type: 'string', short: 'o' },
  quality: { type: 'string' },
  scale: { type: 'string' },
  'crop-marks': { type: 'boolean' },
} as const;

/** `render-desk render`: one image, charged like POST /v1/render. */
export async function renderCommand(args: string[], style: TerminalStyle): Promise<number> {
  const options = await readCommandOptions('render', args, OPTIONS, renderHelp);
  if (!options) return EXIT.ok;
  const { values } = options;
  const templateId = options.required('template');
  const out = path.resolve(options.required('out'));
  const given = values.values !== undefined ? readJsonObject('values', values.values) : {};
  const settings = cliSettings(values);

  // The render thread starts first: loading the engine in it is most of a cold render, and it
  // proceeds while this thread loads the schemas, the data folder and the catalog.
  const { createRenderPool } = await import('../render/render-pool.js');
  const pool = createRenderPool({ threads: 1, deadlineMs: settings.renderTimeoutMs });
  let core;
  try {
    const { renderRequest } = await import('./render-request.js');
    const request = renderRequest({ ...values, templateId, out, values: given });
    const { composeLocalCore, CLI_PRINCIPAL } = await import('./local-core.js');
    core = await composeLocalCore(settings, () => pool);
    await core.assertSubscription();
    const { writeFileDurably } = await import('../files/write-file-durably.js');
    const { describeBrandGaps } = await import('../render/render-service.js');
    const result = await core.singleRenders.render({
      request,
      apiKeyId: CLI_PRINCIPAL,
    });
    // A layout of several pages renders as a zip of numbered images: named so, whatever --out said.
    const pages =
      result.contentType === 'application/zip' && path.extname(out).toLowerCase() !== '.zip';
    const file = pages ? `${out.slice(0, out.length - path.extname(out).length)}.zip` : out;
    await writeFileDurably(file, result.bytes);
    const missingGlyphs = result.replayed ? [] : [...result.missingGlyphs];
    const gaps = result.replayed ? undefined : describeBrandGaps(result.brandFill);
    if (values.json) {
      console.log(
        JSON.stringify({
          file,
          contentType: result.contentType,
          renderId: result.renderId,
          format: request.format,
          bytes: result.bytes.byteLength,
          credits: { charged: 1, balance: result.balance },
          missingGlyphs,
          warnings: gaps ? [gaps] : [],
        }),
      );
    } else {
      console.log(
        `${style.green('wrote')} ${displayPath(file)} (${formatBytes(result.bytes.byteLength)}${pages ? ', one image per page' : ''}); 1 credit charged, ${result.balance} left`,
      );
      if (missingGlyphs.length > 0)
        console.error(
          style.yellow(
            `warning: no bundled font draws ${missingGlyphs.map((c) => `"${c}"`).join(', ')}`,
          ),
        );
      if (gaps) console.error(style.yellow(`warning: brand values missing: ${gaps}`));
    }
    return EXIT.ok;
  } finally {
    await (core ?? pool).close();
  }
}
