/**
 * The direction of a paragraph. Skia shapes Arabic and Hebrew and orders mixed runs (numbers,
 * Latin) by the Unicode bidi algorithm on its own, but only within the base direction the
 * context is given; left at its default (left to right), an Arabic line that ends in Latin or a
 * number comes out in the wrong order. `auto` takes the direction of the first strong letter,
 * as browsers do for `dir="auto"`.
 */
const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const STRONG = /[\p{L}]/u;

export function isRightToLeft(text: string, direction: 'auto' | 'ltr' | 'rtl'): boolean {
  if (direction !== 'auto') return direction === 'rtl';
  const first = STRONG.exec(text);
  return first !== null && RTL_LETTER.test(first[0]);
}

/** In a right-to-left paragraph `left` and `right` mean start and end, so they swap. */
export function mirroredAlign(
  align: 'left' | 'center' | 'right',
  rtl: boolean,
): 'left' | 'center' | 'right' {
  if (!rtl || align === 'center') return align;
  return align === 'left' ? 'right' : 'left';
}
