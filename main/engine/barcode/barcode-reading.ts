import type { DrawnSymbology } from './barcode-symbologies.js';
import type { BarcodeInput } from './barcode-value.js';
import { upceToUpca } from './check-digits.js';

/**
 * What an independent reader (ZXing) gives back for each symbology, by ZXing's format name.
 * It reads UPC-A and UPC-E as the EAN-13 they are part of; GS1 codes as bracketed element
 * strings, as they are written in a template.
 */
export const READER_FORMATS: Record<DrawnSymbology, string> = {
  ean13: 'EAN13',
  ean8: 'EAN8',
  upca: 'UPCA',
  upce: 'UPCE',
  code128: 'Code128',
  'gs1-128': 'Code128',
  code39: 'Code39',
  itf14: 'ITF',
  datamatrix: 'DataMatrix',
  'gs1-datamatrix': 'DataMatrix',
  pdf417: 'PDF417',
  azteccode: 'Aztec',
};

/** The text a reader decodes from a code drawn for `input`: what a scan should equal. */
export function expectedReading(input: BarcodeInput): string {
  switch (input.symbology) {
    case 'upca':
      return `0${input.value}`;
    case 'upce':
      return `0${upceToUpca(input.value.slice(0, 7))}${input.value.slice(7)}`;
    default:
      return input.value;
  }
}
