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
        /(^|\s)(\p{L})/gu,
        (_m, space: string, letter: string) => space + letter.toLocaleUpperCase(locale),
      );
    default:
      return text;
  }
}
