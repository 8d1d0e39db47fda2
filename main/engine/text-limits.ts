/**
 * Caps on the text one render may draw, whatever the template says (a variable's `maxLength` is
 * advice for forms and is never enforced). Breaking lines of text without spaces costs time that
 * grows with the square of its length: 10,000 such characters took ~1 s to fit on a 2-core
 * machine, 40,000 took 28 s. Longer values are refused before they reach a render thread, and
 * the render deadline stops whatever still runs away.
 */
export const MAX_TEXT_VALUE_CHARS = 10_000;
/** All text, longText and list values of one render together. */
export const MAX_TEXT_TOTAL_CHARS = 30_000;

/**
 * Characters (code points) of `text`, counting no further than `limit + 1`: a 4 MB string is
 * judged without walking all of it.
 */
export function countCharacters(text: string, limit: number): number {
  // Every code point takes one or two UTF-16 units, so the length brackets the count.
  if (text.length <= limit) return text.length;
  let count = 0;
  for (let i = 0; i < text.length && count <= limit; i += 1) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

const format = (n: number) => n.toLocaleString('en-US');

export const TEXT_VALUE_TOO_LONG = `is longer than ${format(MAX_TEXT_VALUE_CHARS)} characters, the most one text value may have; shorten it`;

export function textTotalTooLong(total: number): string {
  return `the text values add up to ${format(total)} characters; one render may draw at most ${format(MAX_TEXT_TOTAL_CHARS)}`;
}
