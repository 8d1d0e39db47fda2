import { KEEP_SPACE } from './text/keep-together.js';

/** A letter after a space, a kept value's spaces included ("nguyễn thị" in a name). */
const WORD_START = new RegExp(`(^|[\\s${KEEP_SPACE}])(\\p{L})`, 'gu');

/**
 * A layer's text case, in the text's locale (Turkish dotted i, Vietnamese letters). Its own
 * module, without the canvas: checks that run off the render threads need it too.
 */
export function transformCase(
  text: string,
  transform: 'none' | 'uppercase' | 'lowercase' | 'capitalize',
  locale: string,
): string {
  switch (transform) {
    case 'uppercase':
      return text.toLocaleUpperCase(locale);
    case 'lowercase':
      return text.toLocaleLowerCase(locale);
    case 'capitalize':
      return text.replace(
        WORD_START,
        (_m, space: string, letter: string) => space + letter.toLocaleUpperCase(locale),
      );
    default:
      return text;
  }
}
