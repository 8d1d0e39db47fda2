import { VIETNAMESE_COMPOUND_WORDS } from './vietnamese-compound-words.js';

/**
 * Vietnamese writes every syllable apart, so a space is no sign of a word's end: "trăng tròn"
 * split over two lines reads as two words. The list of common compound words is read once, on
 * first use, into a set keyed by the lower-case syllables joined by single spaces.
 */
let compounds: Set<string> | null = null;
let longest = 1;

function words(): Set<string> {
  if (!compounds) {
    compounds = new Set();
    for (const line of VIETNAMESE_COMPOUND_WORDS.split('\n')) {
      const word = line.trim().normalize('NFC');
      if (word === '') continue;
      compounds.add(word);
      longest = Math.max(longest, word.split(' ').length);
    }
  }
  return compounds;
}

/** Letters only, lower case: "Vượng," and "VƯỢNG" both read as "vượng". */
export function syllableKey(word: string): string {
  return word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').toLowerCase();
}

/**
 * How many of `syllables`, starting at `start`, form one listed word (the longest match), or 1.
 * `keys` are the syllables' `syllableKey`s. Punctuation inside the span ("tròn, xe") ends a word.
 */
export function compoundLengthAt(
  syllables: readonly string[],
  keys: readonly string[],
  start: number,
): number {
  const set = words();
  for (let length = Math.min(longest, syllables.length - start); length >= 2; length--) {
    const span = syllables.slice(start, start + length);
    // Only the last syllable may carry punctuation after it ("tròn," ends the word).
    if (span.slice(0, -1).some((s) => /[^\p{L}]$/u.test(s))) continue;
    if (span.slice(1).some((s) => /^[^\p{L}]/u.test(s))) continue;
    if (set.has(keys.slice(start, start + length).join(' '))) return length;
  }
  return 1;
}
