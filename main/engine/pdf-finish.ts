import crypto from 'node:crypto';
import { PDFDocument } from '@napi-rs/canvas';
import type { RenderJob } from '../render/render-protocol.js';
import { charSpacedText } from './pdf-char-spacing.js';

/** Shown as the PDF's Creator and Producer instead of Skia's own name. */
const PRODUCER = 'Render Desk';

/** The document a page or sheet PDF is drawn into, before `finishPdf` fixes what Skia wrote. */
export function startPdf(job: Pick<RenderJob, 'template' | 'quality'>): PDFDocument {
  return new PDFDocument({
    title: job.template.name,
    creator: PRODUCER,
    producer: PRODUCER,
    compressionLevel: 6,
    // Lossless (101) unless the request asked for a JPEG quality for the images.
    encodingQuality: job.quality ?? 101,
  });
}

/** A page's boxes in points, measured from the sheet's top-left corner (as it is drawn). */
export interface PdfPageBoxes {
  width: number;
  height: number;
  /** The trim's distance from the sheet's edge (bleed, or the crop-mark margin). */
  trimInset: number;
  bleed: number;
}

export interface PdfFinish {
  boxes: PdfPageBoxes;
  /** CreationDate and ModDate, `YYYY-MM-DD`: a date of the input, never the clock. */
  date: string;
}

/**
 * The finishing pass over Skia's PDF. Skia rounds a page to whole points and writes neither
 * TrimBox nor BleedBox, dates nor a file ID. This rewrites each page's MediaBox to the exact size
 * and adds TrimBox and BleedBox, gives the Info dictionary fixed dates, and the trailer an ID that
 * is a hash of the content: same input, same bytes. Letter-spaced text is rewritten to space its
 * glyphs with `Tc`, so it reads back as words (pdf-char-spacing.ts). Skia writes plain (uncompressed) object
 * dictionaries and a classic xref table, so objects are cut at the offsets the table gives and
 * the table is written anew.
 */
export function finishPdf(pdf: Buffer, finish: PdfFinish): Buffer {
  const text = pdf.toString('latin1');
  const xrefAt = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  if (!Number.isInteger(xrefAt)) throw new Error('PDF without a startxref');
  const table = /^xref\s+0 (\d+)\s+/.exec(text.slice(xrefAt));
  if (!table) throw new Error('PDF without a classic xref table');
  const count = Number(table[1]);
  const entriesAt = xrefAt + table[0].length;
  const objects: { number: number; offset: number }[] = [];
  for (let n = 0; n < count; n++) {
    const entry = text.slice(entriesAt + n * 20, entriesAt + n * 20 + 20);
    if (entry[17] === 'n') objects.push({ number: n, offset: Number(entry.slice(0, 10)) });
  }
  objects.sort((a, b) => a.offset - b.offset);
  const trailer = text.slice(text.indexOf('trailer', entriesAt), text.lastIndexOf('startxref'));
  const infoNumber = Number(/\/Info (\d+) 0 R/.exec(trailer)?.[1] ?? -1);
  const first = objects[0]?.offset ?? xrefAt;

  const chunks = objects.map((object, index) => ({
    number: object.number,
    chunk: pdf.subarray(object.offset, objects[index + 1]?.offset ?? xrefAt),
  }));
  const spaced = charSpacedText(chunks);

  const parts: Buffer[] = [pdf.subarray(0, first)];
  const offsets = new Map<number, number>();
  let at = first;
  chunks.forEach((object) => {
    let chunk = spaced.get(object.number) ?? object.chunk;
    if (object.number === infoNumber) chunk = withDates(chunk, finish.date);
    else if (isPage(chunk)) chunk = withBoxes(chunk, finish.boxes);
    offsets.set(object.number, at);
    parts.push(chunk);
    at += chunk.length;
  });
  const body = Buffer.concat(parts);
  const id = crypto.createHash('md5').update(body).digest('hex').toUpperCase();
  let xref = `xref\n0 ${count}\n0000000000 65535 f \n`;
  for (let n = 1; n < count; n++) {
    const offset = offsets.get(n);
    xref +=
      offset === undefined
        ? '0000000000 65535 f \n'
        : `${String(offset).padStart(10, '0')} 00000 n \n`;
  }
  const newTrailer = trailer.replace(/>>\s*$/, `\n/ID [<${id}> <${id}>]>>\n`);
  return Buffer.concat([
    body,
    Buffer.from(`${xref}${newTrailer}startxref\n${at}\n%%EOF\n`, 'latin1'),
  ]);
}

/** A page object's dictionary (it has no stream), not the page tree's /Pages node. */
function isPage(chunk: Buffer): boolean {
  const head = chunk.subarray(0, 4096).toString('latin1');
  return /\/Type \/Page\b(?!s)/.test(head) && !head.includes('stream');
}

function withBoxes(chunk: Buffer, boxes: PdfPageBoxes): Buffer {
  const text = chunk.toString('latin1');
  const media = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(text);
  if (!media) return chunk;
  // Skia flips y about its rounded height: the sheet's top edge is at that height.
  const top = Number(media[2]);
  const bottom = top - boxes.height;
  const box = (inset: number) =>
    `[${num(inset)} ${num(bottom + inset)} ${num(boxes.width - inset)} ${num(top - inset)}]`;
  const bleedInset = Math.max(0, boxes.trimInset - boxes.bleed);
  const replaced = text.replace(
    media[0],
    `/MediaBox ${box(0)}\n/BleedBox ${box(bleedInset)}\n/TrimBox ${box(boxes.trimInset)}`,
  );
  return Buffer.from(replaced, 'latin1');
}

function withDates(chunk: Buffer, date: string): Buffer {
  const text = chunk.toString('latin1');
  const end = text.lastIndexOf('>>');
  if (end < 0) return chunk;
  const stamp = `D:${date.replaceAll('-', '')}000000Z`;
  return Buffer.from(
    `${text.slice(0, end)}\n/CreationDate (${stamp})\n/ModDate (${stamp})${text.slice(end)}`,
    'latin1',
  );
}

/** A PDF number: at most four decimals, no trailing zeros. */
function num(value: number): string {
  return String(Math.round(value * 10_000) / 10_000);
}
