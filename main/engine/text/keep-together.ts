import type { CriticalKind } from '../../../shared/template-format.js';

/**
 * A space that a line may break at only when what it joins is wider than the line: the spaces
 * inside a critical value (a name, a phone number, a price) are written as this private-use
 * character when the value is filled in, so "Nguyễn Thị Phương Thảo" and "+84 28 3822 9999" stay
 * on one line whenever they fit. Line breaking reads it as a space; nothing draws it.
 */
export const KEEP_SPACE = '\uE000';

/**
 * Longer values are not kept together: no line holds them whole, and a paragraph of pasted text
 * in a name field should wrap like any text.
 */
export const KEEP_MAX_LENGTH = 80;

/** Words that start the next name, so a list of names may break before them: "An / & Bình". */
const LEADING_SEPARATOR = /^(?:&|\+|và|and)$/iu;
/** Marks that end a name, so a list of names may break after them: "An, / Bình", "An · / Bình". */
const TRAILING_SEPARATOR = /(?:^[·/–—-]|[,;])$/u;

/**
 * The value with its spaces made keep-together spaces. A name keeps each person whole but may
 * break before "&" ("Trần Minh Khôi / & Nguyễn Thị Phương Thảo") and after a comma or a dot.
 */
export function keepTogether(value: string, kind: CriticalKind): string {
  const words = value.split(' ');
  return words.reduce((text, word, i) => {
    if (i === 0) return word;
    const before = words[i - 1]!;
    const breakable =
      kind === 'name' &&
      (LEADING_SEPARATOR.test(word) || TRAILING_SEPARATOR.test(before) || before === '');
    return `${text}${breakable ? ' ' : KEEP_SPACE}${word}`;
  }, '');
}

/** The text as drawn: keep-together spaces back to plain spaces. */
export function plainSpaces(text: string): string {
  return text.includes(KEEP_SPACE) ? text.replaceAll(KEEP_SPACE, ' ') : text;
}
