import type { BarcodeSymbol } from './barcode-symbol.js';

/** A piece of human-readable text: its centre in modules from the first bar. */
export interface TextPiece {
  text: string;
  centre: number;
  /** UPC's number-system and check digits, set smaller outside the bars. */
  small: boolean;
}

/** Digit cells of 7 modules after the 3-module start guard, and after the centre guard. */
const cell = (start: number, index: number) => start + 7 * index + 3.5;
const LEFT = 3;
/** The centre guard of EAN-13 and UPC-A ends here; EAN-8's at 36. */
const RIGHT_13 = 50;
const RIGHT_8 = 36;
/** Digits outside the bars sit this far from them, in the quiet zone. */
const OUTSIDE = 4.5;

/**
 * The human-readable text of a code laid out as its standard sets it: EAN and UPC digits under
 * their own bars between the guards (EAN-13's first digit and UPC's outer digits beside the
 * bars), any other code's text as one line centred under it.
 */
export function humanReadablePieces(symbol: BarcodeSymbol): TextPiece[] {
  const digits = [...symbol.input.value];
  const piece = (index: number, centre: number, small = false): TextPiece => ({
    text: digits[index] ?? '',
    centre,
    small,
  });
  const width = symbol.shape === 'linear' ? symbol.width : symbol.columns;
  switch (symbol.spec.text) {
    case 'ean':
      if (digits.length === 8)
        return digits.map((_, i) => piece(i, i < 4 ? cell(LEFT, i) : cell(RIGHT_8, i - 4)));
      return [
        piece(0, -OUTSIDE),
        ...digits
          .slice(1)
          .map((_, i) => piece(i + 1, i < 6 ? cell(LEFT, i) : cell(RIGHT_13, i - 6))),
      ];
    case 'upca':
      return [
        piece(0, -OUTSIDE, true),
        ...[1, 2, 3, 4, 5].map((i) => piece(i, cell(LEFT, i))),
        ...[6, 7, 8, 9, 10].map((i) => piece(i, cell(RIGHT_13, i - 6))),
        piece(11, width + OUTSIDE, true),
      ];
    case 'upce':
      return [
        piece(0, -OUTSIDE, true),
        ...[1, 2, 3, 4, 5, 6].map((i) => piece(i, cell(LEFT, i - 1))),
        piece(7, width + OUTSIDE - 1, true),
      ];
    case 'centred':
      return [{ text: symbol.text, centre: width / 2, small: false }];
  }
}
