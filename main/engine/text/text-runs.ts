/**
 * Styled runs of text: what format 2 text layers lay out and draw. Plain text is one run; a
 * layer with `markup: true` reads a light markup (docs/templates.md, "Rich text"):
 *
 *   **bold**   *italic*   ~~struck through~~   __underlined__   [coloured]{#E53935}
 *
 * A backslash makes the next character literal (`\*`, `\[`, `\\`). A delimiter that opens
 * nothing (no closing one later, or followed by a space, as in "2 * 3") stays as written.
 */

export interface RunStyle {
  bold: boolean;
  italic: boolean;
  /** null: the layer's colour. */
  colour: string | null;
  underline: boolean;
  strike: boolean;
  /** A currency symbol drawn at the layer's `currencyScale`. */
  currency: boolean;
}

export interface Run {
  text: string;
  style: RunStyle;
}

export const PLAIN_STYLE: RunStyle = {
  bold: false,
  italic: false,
  colour: null,
  underline: false,
  strike: false,
  currency: false,
};

export function sameStyle(a: RunStyle, b: RunStyle): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.colour === b.colour &&
    a.underline === b.underline &&
    a.strike === b.strike &&
    a.currency === b.currency
  );
}

type Toggle = 'bold' | 'italic' | 'strike' | 'underline';
const DELIMITERS: ReadonlyArray<{ token: string; toggle: Toggle }> = [
  { token: '**', toggle: 'bold' },
  { token: '~~', toggle: 'strike' },
  { token: '__', toggle: 'underline' },
  { token: '*', toggle: 'italic' },
];
const COLOUR_END = /\]\{(#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8}))\}/y;
const ESCAPABLE = new Set(['\\', '*', '_', '~', '[', ']', '{', '}']);

/** Adds text to the last run when it has the same style, else starts a run. */
function push(runs: Run[], text: string, style: RunStyle): void {
  if (text === '') return;
  const last = runs[runs.length - 1];
  if (last && sameStyle(last.style, style)) last.text += text;
  else runs.push({ text, style: { ...style } });
}

/** Whether `token` at `from` can close: preceded by a non-space, and not part of a longer run of the same character. */
function closesAt(text: string, token: string, from: number): number {
  let at = text.indexOf(token, from);
  while (at !== -1) {
    const before = text[at - 1];
    // A single * closes alone, or as the first of a *** that also closes a bold run.
    const longer = token === '*' && (text[at + 1] === '*' || before === '*') && !tripleAt(text, at);
    if (before !== undefined && !/\s/.test(before) && before !== '\\' && !longer) return at;
    at = text.indexOf(token, at + token.length);
  }
  return -1;
}

/** `***` starts at `at`, not inside a longer run of asterisks. */
function tripleAt(text: string, at: number): boolean {
  return text.startsWith('***', at) && text[at - 1] !== '*' && text[at + 3] !== '*';
}

export function parseMarkup(text: string): Run[] {
  const runs: Run[] = [];
  const style: RunStyle = { ...PLAIN_STYLE };
  /** Open delimiters: where each closes. */
  const open = new Map<Toggle, number>();
  /** Open colour runs: the index of their `]` and the colour before them. */
  const colours: Array<{ end: number; length: number; previous: string | null }> = [];
  let plain = '';
  const flush = () => {
    push(runs, plain, style);
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '\\' && i + 1 < text.length && ESCAPABLE.has(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    const colour = colours[colours.length - 1];
    if (colour && i === colour.end) {
      flush();
      style.colour = colour.previous;
      colours.pop();
      i += colour.length;
      continue;
    }
    if (char === '[') {
      const end = findColourEnd(text, i + 1);
      if (end) {
        flush();
        colours.push({ end: end.at, length: end.length, previous: style.colour });
        style.colour = end.colour.toUpperCase();
        i += 1;
        continue;
      }
    }
    if (tripleAt(text, i)) {
      // ***both***: bold and italic open or close together.
      if (open.get('bold') === i && open.get('italic') === i) {
        flush();
        style.bold = false;
        style.italic = false;
        open.delete('bold');
        open.delete('italic');
        i += 3;
        continue;
      }
      const next = text[i + 3];
      const at = next !== undefined && !/\s/.test(next) ? closesAt(text, '***', i + 4) : -1;
      if (!open.has('bold') && !open.has('italic') && at !== -1) {
        flush();
        style.bold = true;
        style.italic = true;
        open.set('bold', at);
        open.set('italic', at);
        i += 3;
        continue;
      }
    }
    const delimiter = DELIMITERS.find((d) => text.startsWith(d.token, i));
    if (delimiter) {
      const closing = open.get(delimiter.toggle);
      if (closing === i) {
        flush();
        style[delimiter.toggle] = false;
        open.delete(delimiter.toggle);
        i += delimiter.token.length;
        continue;
      }
      const next = text[i + delimiter.token.length];
      if (closing === undefined && next !== undefined && !/\s/.test(next)) {
        const at = closesAt(text, delimiter.token, i + delimiter.token.length + 1);
        if (at !== -1) {
          flush();
          style[delimiter.toggle] = true;
          open.set(delimiter.toggle, at);
          i += delimiter.token.length;
          continue;
        }
      }
      plain += delimiter.token;
      i += delimiter.token.length;
      continue;
    }
    plain += char;
    i += 1;
  }
  flush();
  return runs;
}

/** The `]{#hex}` that closes a `[` opened before `from`, skipping escaped brackets. */
function findColourEnd(
  text: string,
  from: number,
): { at: number; length: number; colour: string } | null {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') {
      i += 1;
      continue;
    }
    if (text[i] === '\n') return null;
    if (text[i] !== ']') continue;
    COLOUR_END.lastIndex = i;
    const match = COLOUR_END.exec(text);
    if (match) return { at: i, length: match[0].length, colour: match[1]! };
  }
  return null;
}

/** The text of runs without their styles: what is measured for missing glyphs and reported. */
export function runsText(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join('');
}

/**
 * A currency symbol (₫, $, €…, or đ / VND written after an amount) as a run of its own, so it
 * can be drawn at its own size.
 */
const CURRENCY = /\p{Sc}|(?<=\d[\s\u00A0\u202F]?)(?:đ|VNĐ|VND)(?![\p{L}\p{N}])/gu;

export function splitCurrency(runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    let last = 0;
    for (const match of run.text.matchAll(CURRENCY)) {
      const at = match.index ?? 0;
      push(out, run.text.slice(last, at), run.style);
      push(out, match[0], { ...run.style, currency: true });
      last = at + match[0].length;
    }
    push(out, run.text.slice(last), run.style);
  }
  return out;
}
