import zlib from 'node:zlib';

/**
 * Letter-spaced text that reads back as words. Skia writes letter spacing as a gap before each
 * glyph (`20.8 0 Td <0073> Tj` per glyph); text extractors (poppler's pdftotext, pdf.js, viewers'
 * search) take a gap over about a tenth of the font size for a word break, so spaced capitals
 * read back "T RƯ Ờ N G". Each run of spaced glyphs is rewritten the PDF's own way: the spacing
 * as the character spacing `Tc` (which widens every advance) and one `TJ` whose numbers keep
 * each glyph exactly where Skia put it; and, since poppler takes the spacing out of an advance
 * again before it looks for gaps, the run is marked with its text as `/ActualText`, which
 * extractors read as one piece. Turned text and text on an arc, whose glyphs extractors also
 * break apart, are marked the same way (markTurnedLines, markLettersInTurn).
 */

/** A PDF object as the finishing pass cuts it: `N 0 obj` to just before the next object. */
export interface PdfObjectChunk {
  number: number;
  chunk: Buffer;
}

/** A CID font's glyph widths in thousandths of the font size, and its glyphs' text. */
interface CidFont {
  widths: Map<number, number>;
  fallback: number;
  text: Map<number, string>;
}

type CidWidths = Omit<CidFont, 'text'>;

/**
 * Skia places unspaced glyphs off their font advances too (hinted advances, kerning), by up to
 * about 0.04 of the size; a run whose usual gap is under this is not letter-spaced and is left
 * as it is. Extractors break words only at gaps over 0.1.
 */
const MIN_SPACING_EM = 0.05;

/** The objects whose content streams change, by object number, with their new bytes. */
export function charSpacedText(objects: readonly PdfObjectChunk[]): Map<number, Buffer> {
  const fonts = fontsByName(objects);
  const changed = new Map<number, Buffer>();
  if (fonts.size === 0) return changed;
  for (const { number, chunk } of objects) {
    const rewritten = rewriteContentStream(chunk, fonts);
    if (rewritten) changed.set(number, rewritten);
  }
  return changed;
}

/** An object's dictionary: the chunk up to its stream's data (with `stream` and its EOL). */
function headOf(chunk: Buffer, withKeyword = false): string {
  const text = chunk.subarray(0, 8192).toString('latin1');
  const stream = text.indexOf('stream');
  if (stream < 0) return text;
  return withKeyword ? text.slice(0, stream + 8) : text.slice(0, stream);
}

/** Font resource names (Skia names each font once for the whole file) to their widths. */
function fontsByName(objects: readonly PdfObjectChunk[]): Map<string, CidFont> {
  const cidFonts = new Map<number, CidWidths>();
  const descendants = new Map<number, { cid: number; toUnicode: number }>();
  const names = new Map<string, number | null>();
  for (const { number, chunk } of objects) {
    const head = headOf(chunk);
    if (/\/Subtype \/CIDFontType[02]\b/.test(head)) {
      const widths = parseWidths(head);
      if (widths) cidFonts.set(number, widths);
    }
    // Two-byte codes that are CIDs: the only encoding Skia writes for embedded TrueType.
    if (/\/Subtype \/Type0\b/.test(head) && head.includes('/Encoding /Identity-H')) {
      const descendant = /\/DescendantFonts \[(\d+) 0 R\]/.exec(head);
      const toUnicode = /\/ToUnicode (\d+) 0 R/.exec(head);
      if (descendant && toUnicode) {
        descendants.set(number, { cid: Number(descendant[1]), toUnicode: Number(toUnicode[1]) });
      }
    }
    for (const fontDict of head.matchAll(/\/Font\s*<<([^<>]*)>>/g)) {
      for (const entry of (fontDict[1] ?? '').matchAll(/\/([^\s/<>[\]()]+)\s+(\d+) 0 R/g)) {
        const name = entry[1] as string;
        const target = Number(entry[2]);
        const known = names.get(name);
        // A name that stands for two fonts in different resource dictionaries: not ours to guess.
        names.set(name, known === undefined || known === target ? target : null);
      }
    }
  }
  const chunks = new Map(objects.map((object) => [object.number, object.chunk]));
  const fonts = new Map<string, CidFont>();
  for (const [name, target] of names) {
    const font = target === null ? undefined : descendants.get(target);
    const widths = font && cidFonts.get(font.cid);
    const cmap = font && chunks.get(font.toUnicode);
    const content = cmap && streamOf(cmap);
    if (widths && content) fonts.set(name, { ...widths, text: parseToUnicode(content.text) });
  }
  return fonts;
}

/** A ToUnicode CMap's `bfchar` and `bfrange` entries: glyph code to text. */
function parseToUnicode(cmap: string): Map<number, string> {
  const text = new Map<number, string>();
  const utf16 = (hex: string) => {
    const units: number[] = [];
    for (let at = 0; at + 4 <= hex.length; at += 4) units.push(parseInt(hex.slice(at, at + 4), 16));
    return String.fromCharCode(...units);
  };
  for (const section of cmap.matchAll(/beginbfchar([^]*?)endbfchar/g)) {
    for (const entry of (section[1] ?? '').matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>/g)) {
      text.set(parseInt(entry[1] as string, 16), utf16(entry[2] as string));
    }
  }
  for (const section of cmap.matchAll(/beginbfrange([^]*?)endbfrange/g)) {
    const ranges = /<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])/g;
    for (const range of (section[1] ?? '').matchAll(ranges)) {
      const first = parseInt(range[1] as string, 16);
      const last = parseInt(range[2] as string, 16);
      const target = range[3] as string;
      if (target.startsWith('[')) {
        const each = [...target.matchAll(/<([0-9A-Fa-f]*)>/g)];
        each.forEach((hex, i) => text.set(first + i, utf16(hex[1] as string)));
        continue;
      }
      const start = utf16(target.slice(1, -1));
      // The last UTF-16 unit counts up along the range.
      const head = start.slice(0, -1);
      const unit = start.charCodeAt(start.length - 1);
      for (let code = first; code <= last; code++) {
        text.set(code, head + String.fromCharCode(unit + code - first));
      }
    }
  }
  return text;
}

/** A Flate stream object's dictionary and inflated content, or null. */
function streamOf(chunk: Buffer): { head: string; entries: string; text: string } | null {
  const dict = /^\d+ 0 obj\s*<<([^]*)>>\s*stream\r?\n/.exec(headOf(chunk, true));
  if (!dict) return null;
  const entries = dict[1] as string;
  if (!/\/Filter \/FlateDecode\b/.test(entries)) return null;
  const length = Number(/\/Length (\d+)/.exec(entries)?.[1]);
  if (!Number.isInteger(length)) return null;
  const start = dict[0].length;
  try {
    const text = zlib.inflateSync(chunk.subarray(start, start + length)).toString('latin1');
    return { head: dict[0], entries, text };
  } catch {
    return null;
  }
}

/** A CIDFont's `/W` array (`c [w1 w2 …]` and `cFirst cLast w`) and `/DW`. */
function parseWidths(head: string): CidWidths | null {
  const fallback = Number(/\/DW (-?[\d.]+)/.exec(head)?.[1] ?? 1000);
  const widths = new Map<number, number>();
  const at = head.indexOf('/W [');
  if (at < 0) return { widths, fallback };
  const tokens: (number | '[' | ']')[] = [];
  let depth = 0;
  for (const match of head.slice(at + 3).matchAll(/\[|\]|-?[\d.]+/g)) {
    const token = match[0];
    if (token === '[') depth += 1;
    else if (token === ']') depth -= 1;
    if (depth === 0) break;
    tokens.push(token === '[' || token === ']' ? token : Number(token));
  }
  // tokens[0] is the outer "[".
  let i = 1;
  while (i < tokens.length) {
    const first = tokens[i];
    const next = tokens[i + 1];
    if (typeof first !== 'number') return null;
    if (next === '[') {
      let cid = first;
      i += 2;
      while (i < tokens.length && tokens[i] !== ']') {
        const width = tokens[i];
        if (typeof width !== 'number') return null;
        widths.set(cid, width);
        cid += 1;
        i += 1;
      }
      i += 1;
    } else {
      const last = next;
      const width = tokens[i + 2];
      if (typeof last !== 'number' || typeof width !== 'number') return null;
      for (let cid = first; cid <= last; cid++) widths.set(cid, width);
      i += 3;
    }
  }
  return { widths, fallback };
}

/** A page's or form's Flate content stream with its letter-spaced runs rewritten, or null. */
function rewriteContentStream(chunk: Buffer, fonts: Map<string, CidFont>): Buffer | null {
  const stream = streamOf(chunk);
  // Content streams only: not font files, images, colour profiles or CMaps.
  if (!stream || /\/Length1|\/Subtype \/Image|\/N \d|\/Type \/Metadata/.test(stream.entries)) {
    return null;
  }
  const content = stream.text;
  if (!content.includes('BT')) return null;
  let changed = false;
  const spaced = content.replace(/(^|\n)BT\n([^]*?)\nET(?=\n|$)/g, (block, lead, body) => {
    const text = rewriteTextBlock(body as string, fonts);
    if (text === null) return block;
    changed = true;
    return `${lead as string}BT\n${text}\nET`;
  });
  const lines = spaced.split('\n');
  const turned = markTurnedLines(lines, fonts);
  const arcs = markLettersInTurn(lines, fonts);
  if (!changed && !turned && !arcs) return null;
  const rewritten = turned || arcs ? lines.join('\n') : spaced;
  const data = zlib.deflateSync(Buffer.from(rewritten, 'latin1'), { level: 6 });
  const length = Number(/\/Length (\d+)/.exec(stream.entries)?.[1]);
  return Buffer.concat([
    Buffer.from(stream.head.replace(/\/Length \d+/, `/Length ${data.length}`), 'latin1'),
    data,
    chunk.subarray(stream.head.length + length),
  ]);
}

interface Glyph {
  code: string;
  /** Advance in text space at the font size, without spacing. */
  advance: number;
  /** Start along the line, in text space. */
  x: number;
}

type Op = { operands: string[]; operator: string; source: string };

/** Splits a text block into operators with their operands; null for anything unexpected. */
function operatorsOf(body: string): Op[] | null {
  const ops: Op[] = [];
  let operands: string[] = [];
  let from = 0;
  const tokens = /\/[^\s/<>[\]()]+|<[0-9A-Fa-f\s]*>|-?(?:\d+\.?\d*|\.\d+)|[A-Za-z*'"]+|\S/g;
  for (const match of body.matchAll(tokens)) {
    const token = match[0];
    if (/^[A-Za-z*'"]+$/.test(token)) {
      const end = (match.index ?? 0) + token.length;
      ops.push({ operands, operator: token, source: body.slice(from, end).trim() });
      operands = [];
      from = end;
    } else if (/^(?:\/|<|-|\.|\d)/.test(token)) operands.push(token);
    else return null;
  }
  return operands.length === 0 ? ops : null;
}

/**
 * Skia's text block (`Tf`, `Tm`, then `Td`-placed `Tj` runs) with each line of letter-spaced
 * glyphs as one `TJ`; null when there is nothing to change or something this does not know.
 */
function rewriteTextBlock(body: string, fonts: Map<string, CidFont>): string | null {
  const ops = operatorsOf(body);
  if (!ops) return null;
  const out: string[] = [];
  let font: CidFont | undefined;
  let size = 0;
  let glyphs: Glyph[] = [];
  let pending: string[] = [];
  // Where the line matrix is, relative to the current run's start (Td moves it).
  let lineX = 0;
  let changed = false;
  const flush = (more: boolean) => {
    const spaced = font && size > 0 ? spacedRun(glyphs, size, font) : null;
    if (spaced) {
      out.push(spaced);
      // The original left the line matrix at its last Td; what follows is relative to it.
      if (more && lineX !== 0) out.push(`${num(lineX)} 0 Td`);
      changed = true;
    } else out.push(...pending);
    glyphs = [];
    pending = [];
    lineX = 0;
  };
  for (const [index, op] of ops.entries()) {
    const more = index < ops.length - 1;
    switch (op.operator) {
      case 'Tf': {
        flush(true);
        font = fonts.get((op.operands[0] ?? '').slice(1));
        size = Number(op.operands[1]);
        out.push(op.source);
        break;
      }
      case 'Td': {
        const dx = Number(op.operands[0]);
        const dy = Number(op.operands[1]);
        if (dy !== 0 || glyphs.length === 0) {
          flush(true);
          out.push(op.source);
          break;
        }
        lineX += dx;
        pending.push(op.source);
        break;
      }
      case 'Tj': {
        const hex = (op.operands[0] ?? '').replace(/[<>\s]/g, '');
        if (!font || hex.length % 4 !== 0 || op.operands.length !== 1) {
          flush(true);
          out.push(op.source);
          break;
        }
        let x = lineX;
        for (let at = 0; at < hex.length; at += 4) {
          const code = hex.slice(at, at + 4);
          const width = font.widths.get(parseInt(code, 16)) ?? font.fallback;
          const advance = (width * size) / 1000;
          glyphs.push({ code, advance, x });
          x += advance;
        }
        pending.push(op.source);
        break;
      }
      default:
        flush(more);
        out.push(op.source);
    }
  }
  flush(false);
  return changed ? out.join('\n') : null;
}

/**
 * `c Tc [<g> n <g> …] TJ 0 Tc` placing each glyph where it was, or null when the run has no
 * letter spacing. c is the median gap; n rounds so the error never adds up along the run.
 */
function spacedRun(glyphs: Glyph[], size: number, font: CidFont): string | null {
  if (glyphs.length < 2) return null;
  const gaps = glyphs.slice(1).map((glyph, i) => glyph.x - glyphs[i]!.x - glyphs[i]!.advance);
  const sorted = [...gaps].sort((a, b) => a - b);
  const spacing = Number(num(sorted[Math.floor(sorted.length / 2)]!));
  if (Math.abs(spacing) < MIN_SPACING_EM * size) return null;
  const parts: string[] = [`<${glyphs[0]!.code}>`];
  let drawn = glyphs[0]!.x;
  for (let i = 1; i < glyphs.length; i++) {
    const previous = glyphs[i - 1]!;
    const glyph = glyphs[i]!;
    // The TJ number moves back by n/1000 of the size: whatever Tc does not place.
    const rest = glyph.x - (drawn + previous.advance + spacing);
    const adjust = Number(num((-rest * 1000) / size));
    if (adjust !== 0) parts.push(num(adjust));
    drawn = drawn + previous.advance + spacing - (adjust * size) / 1000;
    parts.push(`<${glyph.code}>`);
  }
  const text = glyphs.map((glyph) => font.text.get(parseInt(glyph.code, 16)) ?? '').join('');
  const run = `${num(spacing)} Tc\n[${parts.join(' ')}] TJ\n0 Tc`;
  if (text === '') return run;
  return `/Span <</ActualText ${textString(text)}>> BDC\n${run}\nEMC`;
}

/** A PDF text string in UTF-16BE with its byte order mark, as hex. */
function textString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) {
    hex += text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  }
  return `<${hex}>`;
}

/** A PDF number: at most four decimals, no trailing zeros. */
function num(value: number): string {
  const rounded = Math.round(value * 10_000) / 10_000;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/**
 * Text drawn turned (a layer rotated by other than a right angle): extractors sort glyphs by
 * the nearest axis, see each next glyph's baseline a little higher or lower, and break words
 * and lines between its letters ("Trườ / ng"). Skia writes such a line as consecutive text
 * blocks under one turned `cm`, each starting at the same `Tm`; each such line is marked with
 * its text as `/ActualText`, which extractors read as one piece. Marks the content's lines in
 * place; false when nothing is turned.
 */
function markTurnedLines(lines: string[], fonts: Map<string, CidFont>): boolean {
  // Whether the current transformation turns text off the axes, through q/Q nesting.
  const stack: boolean[] = [];
  let turned = false;
  type Run = { start: number; end: number; tm: string; text: string; glyphs: number };
  const runs: Run[] = [];
  let open: Run | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line === 'q') stack.push(turned);
    else if (line === 'Q') turned = stack.pop() ?? false;
    else if (line.endsWith(' cm')) turned = turned || turnsOffAxis(line);
    else if (line === 'BT') {
      const end = lines.indexOf('ET', index + 1);
      if (end < 0) return false;
      const block = lines.slice(index + 1, end);
      const tm = block.find((op) => op.endsWith(' Tm')) ?? '';
      const shown =
        turned && !block.some((op) => op.includes('BDC')) ? blockText(block, fonts) : null;
      if (shown !== null && open && open.end === index - 1 && open.tm === tm) {
        open.end = end;
        open.text += shown.text;
        open.glyphs += shown.glyphs;
      } else {
        if (open) runs.push(open);
        open = shown !== null ? { start: index, end, tm, ...shown } : null;
      }
      index = end;
      continue;
    }
    if (open && index > open.end) {
      runs.push(open);
      open = null;
    }
  }
  if (open) runs.push(open);
  // A glyph alone (text on an arc turns each letter by itself) is read as it is.
  const marked = runs.filter((run) => run.glyphs > 1 && run.text.trim() !== '');
  if (marked.length === 0) return false;
  for (const run of marked.reverse()) {
    lines.splice(run.end + 1, 0, 'EMC');
    lines.splice(run.start, 0, `/Span <</ActualText ${textString(run.text)}>> BDC`);
  }
  return true;
}

/** The text of a block's `Tj` glyphs through its font's ToUnicode map; null if unknown. */
function blockText(
  block: string[],
  fonts: Map<string, CidFont>,
): { text: string; glyphs: number } | null {
  let font: CidFont | undefined;
  let text = '';
  let glyphs = 0;
  for (const op of block) {
    const setFont = /^\/(\S+) [\d.]+ Tf$/.exec(op);
    if (setFont) font = fonts.get(setFont[1]!);
    const shown = /<([0-9A-Fa-f]*)> Tj$/.exec(op);
    if (!shown) continue;
    if (!font) return null;
    const hex = shown[1]!;
    for (let at = 0; at + 4 <= hex.length; at += 4) {
      const glyph = font.text.get(parseInt(hex.slice(at, at + 4), 16));
      if (glyph === undefined) return null;
      text += glyph;
      glyphs += 1;
    }
  }
  return { text, glyphs };
}

/** One letter drawn in its own turn: `q`, a `cm`, paint state, one text block, `Q`. */
interface TurnedLetter {
  start: number;
  end: number;
  text: string;
  /** The font's resource name; '' for a space, which Skia draws as an empty text block. */
  font: string;
}

/**
 * Text on an arc: each letter is drawn turned by itself, so extractors read it letter by letter
 * ("Tr / ườ / ng"). A run of such letters in one font, one after the other (spaces included, as
 * the empty text blocks Skia writes for them), is marked with its text as `/ActualText`. Marks
 * the content's lines in place; false when there is no such run.
 */
function markLettersInTurn(lines: string[], fonts: Map<string, CidFont>): boolean {
  const letters: TurnedLetter[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== 'q') continue;
    const letter = turnedLetter(lines, index, fonts);
    if (letter) letters.push(letter);
  }
  const runs: TurnedLetter[][] = [];
  for (const letter of letters) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    const font = run?.find((known) => known.font !== '')?.font;
    const sameFont = letter.font === '' || font === undefined || font === letter.font;
    if (run && last && last.end + 1 === letter.start && sameFont) run.push(letter);
    else runs.push([letter]);
  }
  const marked = runs.filter((run) => run.filter((letter) => letter.font !== '').length > 1);
  if (marked.length === 0) return false;
  for (const run of marked.reverse()) {
    const text = run.map((letter) => letter.text).join('');
    lines.splice(run.at(-1)!.end + 1, 0, 'EMC');
    lines.splice(run[0]!.start, 0, `/Span <</ActualText ${textString(text)}>> BDC`);
  }
  return true;
}

/** The letter drawn by the `q` group at `start`, if the group is one turned letter. */
function turnedLetter(
  lines: string[],
  start: number,
  fonts: Map<string, CidFont>,
): TurnedLetter | null {
  const turn = lines[start + 1] ?? '';
  if (!turn.endsWith(' cm') || !turnsOffAxis(turn)) return null;
  let at = start + 2;
  // Paint state only (colour, graphics state) between the turn and the text.
  while (at < lines.length && / (?:RG|rg|gs|G|g|K|k)$/.test(lines[at]!)) at++;
  // A space is drawn as an empty text block: it joins the run as the space it is.
  if (lines[at] === 'BT' && lines[at + 1] === 'ET' && lines[at + 2] === 'Q')
    return { start, end: at + 2, text: ' ', font: '' };
  if (lines[at] !== 'BT' || lines[at + 4] !== 'ET' || lines[at + 5] !== 'Q') return null;
  const setFont = /^\/(\S+) ([\d.]+) Tf$/.exec(lines[at + 1]!);
  const place = /^1 0 0 -1 (\S+) (\S+) Tm$/.exec(lines[at + 2]!);
  const shown = /^<([0-9A-Fa-f]+)> Tj$/.exec(lines[at + 3]!);
  if (!setFont || !place || !shown) return null;
  const font = fonts.get(setFont[1]!);
  const hex = shown[1]!;
  if (!font || hex.length % 4 !== 0) return null;
  let text = '';
  for (let i = 0; i < hex.length; i += 4) {
    const glyph = font.text.get(parseInt(hex.slice(i, i + 4), 16));
    if (glyph === undefined) return null;
    text += glyph;
  }
  return {
    start,
    end: at + 5,
    text,
    font: setFont[1]!,
  };
}

/**
 * Whether a `cm` line turns what follows off the axes: neither upright nor turned a quarter
 * (extractors read both as lines).
 */
function turnsOffAxis(cm: string): boolean {
  const [a = 1, b = 0, c = 0, d = 1] = cm.split(' ').slice(0, 4).map(Number);
  return Math.abs(a * b) > 1e-9 || Math.abs(c * d) > 1e-9;
}
