import type { Run, RunStyle } from './text-runs.js';
import { KEEP_SPACE } from './keep-together.js';
import { compoundLengthAt, syllableKey } from './vietnamese-compounds.js';

/**
 * Text cut into what a line break may not split. A word is the text between breakable spaces
 * (no-break spaces U+00A0 and U+202F are not breakable, so they hold words together); an item
 * is one word or words glued: a Vietnamese compound ("trăng tròn"), a number and its unit
 * ("128 GB", "50 %", "1.250.000 ₫"), a lone connector and the word after it ("& Beauty").
 */
export interface Piece {
  text: string;
  style: RunStyle;
}

export interface Word {
  pieces: Piece[];
  text: string;
  /** The style of the space after the word; null at the end of its paragraph. */
  space: RunStyle | null;
  /** Its graphemes, split once when the word has to break inside (see graphemesOf). */
  graphemes?: Piece[];
  /** Followed by a keep-together space: one item with the next word (a name, a phone number). */
  keepNext?: boolean;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Graphemes of `text`; printable ASCII is one per character (Intl.Segmenter is slow on long text). */
export function graphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split('');
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The word's graphemes with their styles, split on first use and kept. */
export function graphemesOf(word: Word): Piece[] {
  word.graphemes ??= word.pieces.flatMap((piece) =>
    graphemes(piece.text).map((text) => ({ text, style: piece.style })),
  );
  return word.graphemes;
}

export interface Item {
  words: Word[];
}

export type Paragraph = Item[];

export function paragraphsOf(runs: readonly Run[]): Paragraph[] {
  const paragraphs: Word[][] = [[]];
  let word: Word | null = null;
  for (const run of runs) {
    for (const char of run.text) {
      if (char === '\n') {
        word = null;
        paragraphs.push([]);
        continue;
      }
      const current = paragraphs[paragraphs.length - 1]!;
      if (char === ' ' || char === '\t' || char === KEEP_SPACE) {
        if (word) {
          word.space = run.style;
          word.keepNext = char === KEEP_SPACE;
        }
        word = null;
        continue;
      }
      if (!word) {
        word = { pieces: [], text: '', space: null };
        current.push(word);
      }
      const last = word.pieces[word.pieces.length - 1];
      if (last && last.style === run.style) last.text += char;
      else word.pieces.push({ text: char, style: run.style });
      word.text += char;
    }
  }
  return paragraphs.map((words) => {
    const lastWord = words[words.length - 1];
    if (lastWord) lastWord.space = null;
    return glue(words);
  });
}

const NUMBER = /^[-+−]?\p{Sc}?\d[\d.,]*$/u;
const UNIT =
  /^(?:%|‰|\p{Sc}|đ|vnđ|vnd|usd|k|tr|gb|mb|tb|kb|kg|g|mg|ml|l|lít|cm|mm|m|km|m2|m²|h|giờ|phút|giây|ngày|tháng|năm|triệu|tỷ|tỉ|nghìn|ngàn|x|px|inch|mah|w|kw|hz|ghz|°c|°f|°|người|khách|món|chiếc|cái|hộp|gói|ly|phần|suất|lần|tầng|phòng|sp)$/iu;
/** Joined to the word after: "Spa / & Beauty" reads better than "Spa & / Beauty". */
const CONNECTOR = /^[&+/]$/u;
/** Joined to the word before: a dash or a middle dot ends a line rather than starting one. */
const DASH = /^[–—\-·•]$/u;
const TRAILING_PUNCTUATION = /^[!?:;»”)]+$/u;

const bare = (text: string) => text.replace(/[.,;:!?)»”]+$/u, '');

function gluedToNext(word: Word, next: Word): boolean {
  if (word.keepNext) return true;
  if (NUMBER.test(word.text) && UNIT.test(bare(next.text))) return true;
  if (/^\p{Sc}+$/u.test(word.text) && NUMBER.test(bare(next.text))) return true;
  if (CONNECTOR.test(word.text)) return true;
  return TRAILING_PUNCTUATION.test(next.text) || DASH.test(next.text);
}

function glue(words: Word[]): Item[] {
  const texts = words.map((w) => w.text);
  const keys = texts.map(syllableKey);
  const items: Item[] = [];
  let i = 0;
  while (i < words.length) {
    let end = i + compoundLengthAt(texts, keys, i);
    while (end < words.length && gluedToNext(words[end - 1]!, words[end]!)) end += 1;
    items.push({ words: words.slice(i, end) });
    i = end;
  }
  return items;
}

/** A break after this word is a good one (a clause ends), or a poor one. */
export function breakPenalty(word: Word): number {
  if (/[,.;:!?…)|]$/u.test(word.text)) return -150;
  if (/[–—-]$/u.test(word.text)) return -50;
  return 0;
}
