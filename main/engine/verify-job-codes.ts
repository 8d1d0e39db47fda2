import type { Problem } from '../../shared/errors.js';
import { layoutPages, pageCount, withChildren } from '../../shared/layout-pages.js';
import type { Layer } from '../../shared/template-format.js';
import type { RenderFailure, RenderJob } from '../render/render-protocol.js';
import { canvasPixels, encodedPixels } from './barcode/code-pixels.js';
import { unreadableCodes } from './barcode/verify-codes.js';
import { releaseCanvas } from './canvas-pool.js';
import { layoutOf, renderTemplate, type DrawnTemplate } from './render-template.js';

/**
 * The codes of one drawn raster page, read back. From the canvas when the output holds exactly
 * its pixels (a PNG at the canvas's size) or there is no output (a check only); otherwise from
 * the encoded output, whose lossy or scaled pixels are what a scanner will see.
 */
export async function unreadableOnPage(
  job: RenderJob,
  drawn: DrawnTemplate,
  output: Uint8Array | null,
  page: number,
): Promise<Problem[]> {
  if (drawn.codes.length === 0) return [];
  const exact =
    output === null ||
    output.byteLength === 0 ||
    (job.format === 'png' && job.outputWidth === undefined);
  // Painted on white paper, every pixel is opaque: none to put on white.
  const pixels = exact
    ? canvasPixels(drawn.canvas, { opaque: job.transparent !== true })
    : await encodedPixels(output, drawn.canvas.width);
  return unreadableCodes(pixels, drawn.codes, {
    template: job.template,
    page,
    pages: pageCount(layoutOf(job)),
  });
}

/**
 * The codes of every page of the job (or the one it names) drawn as rasters by this engine and
 * read back. For a PDF: its layout pixels one to one, which is its print DPI (a print layout's
 * modules are whole layout pixels in both), so the codes are read as a printer would put them on
 * paper, without rasterising the PDF with another program. Only the layers that can reach a
 * code's read area are drawn (renderTemplate's codesOnly): the rest cannot change what a scanner
 * reads.
 */
export async function unreadableInRaster(job: RenderJob): Promise<Problem[]> {
  const all = layoutPages(layoutOf(job));
  const pages = job.page ? [job.page] : all.map((_, index) => index + 1);
  const problems: Problem[] = [];
  for (const page of pages) {
    // A page without codes (a badge's front) has nothing to read: not drawn again at all.
    if (!holdsCodes(all[page - 1]?.layers ?? [])) continue;
    const pageJob = { ...job, page, verifyCodes: true };
    const drawn = await renderTemplate(pageJob, { codesOnly: true });
    try {
      problems.push(...(await unreadableOnPage(job, drawn, null, page)));
    } finally {
      releaseCanvas(drawn.canvas);
    }
  }
  return problems;
}

function holdsCodes(layers: Layer[]): boolean {
  return withChildren(layers).some((layer) => layer.kind === 'qr' || layer.kind === 'barcode');
}

/** The job's failure for codes that do not scan: each one a problem naming its value. */
export function codeFailure(problems: Problem[]): RenderFailure {
  return {
    ok: false,
    code: 'code-unreadable',
    message: problems.map((p) => `${p.path}: ${p.message}`).join('; '),
    ...(problems[0] ? { path: problems[0].path } : {}),
    problems,
  };
}
