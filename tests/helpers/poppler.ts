import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Runs a poppler tool (pdfinfo, pdffonts, pdftotext, pdftoppm, pdfimages) on PDF bytes. A missing
 * tool fails the test with the package to install: a PDF test that skips proves nothing.
 */
export function poppler(tool: string, pdf: Uint8Array, args: string[] = []): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'poppler-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    throw missingTool(tool, error);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A PDF word with its page (from 1) and its box's centre in points from the page's top left. */
export interface PdfWord {
  page: number;
  word: string;
  cx: number;
  cy: number;
}

/** Every word of a PDF with where it is, read in one run of `pdftotext -bbox`. */
export function pdfWords(pdf: Uint8Array): PdfWord[] {
  const html = poppler('pdftotext', pdf, ['-bbox']);
  const found: PdfWord[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page += 1;
    const match = /xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]+)</.exec(
      line,
    );
    if (!match) continue;
    const [x0, y0, x1, y1] = match.slice(1, 5).map(Number) as [number, number, number, number];
    found.push({ page, word: match[5]!, cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 });
  }
  return found;
}

/** Rasterises page 1 with pdftoppm at a resolution; returns the PNG bytes. */
export function rasterisePdf(pdf: Uint8Array, dpi: number, extra: string[] = []): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdftoppm-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, pdf);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-singlefile',
      ...extra,
      file,
      path.join(dir, 'page'),
    ]);
    return fs.readFileSync(path.join(dir, 'page.png'));
  } catch (error) {
    throw missingTool('pdftoppm', error);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function missingTool(tool: string, error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    return new Error(
      `${tool} is not installed: install poppler-utils (apt-get install poppler-utils)`,
    );
  }
  return error;
}

/** `pdfinfo -box` lines such as `TrimBox: 8.50 8.30 850.42 603.50` as numbers by box name. */
export function pdfBoxes(info: string): Record<string, number[]> {
  const boxes: Record<string, number[]> = {};
  for (const match of info.matchAll(/^(\w+Box):\s+([-\d.\s]+)$/gm)) {
    boxes[match[1] as string] = (match[2] as string).trim().split(/\s+/).map(Number);
  }
  return boxes;
}
