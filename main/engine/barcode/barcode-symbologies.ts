import type { BarcodeSymbology } from '../../../shared/template-format.js';

/** What a symbology's values may hold, which decides how a value is checked before encoding. */
export type ValueSet =
  /** Digits with a GS1 mod-10 check digit: `data` digits, or `data + 1` with the check digit. */
  | { kind: 'gtin'; data: number }
  /** Printable ASCII (Code 128). */
  | { kind: 'ascii' }
  /** Code 39's 43 characters. */
  | { kind: 'code39' }
  /** A GS1 element string with bracketed application identifiers: `(01)…(10)…`. */
  | { kind: 'gs1' }
  /** Any text, encoded as UTF-8 (with an ECI when it is not ASCII). */
  | { kind: 'text' };

/** How the human-readable text sits under a linear code. */
export type TextPlacement = 'ean' | 'upca' | 'upce' | 'centred';

export interface SymbologySpec {
  /** What users call it, for messages. */
  label: string;
  /** bwip-js's encoder name. */
  bcid: string;
  /** Bars (one row of bars and spaces) or a grid of square modules. */
  shape: 'linear' | 'matrix';
  /**
   * Light modules kept around the code: left and right of a linear code (its standard's
   * minimum), every side of a matrix code.
   */
  quiet: { left: number; right: number };
  values: ValueSet;
  /** The human-readable text by default (the layer's `humanReadable` overrides it). */
  humanReadable: boolean;
  text: TextPlacement;
  /**
   * The smallest module a printed code should have, mm: the GS1 General Specifications'
   * minimum X-dimension for EAN/UPC (80 % of 0.33 mm), ITF-14 and GS1 codes; ISO practice for
   * the others.
   */
  minModuleMm: number;
  /** ITF-14's bearer bars above and below the bars, in modules. */
  bearer?: number;
}

/** The symbologies drawn as themselves; `gtin` is drawn as EAN-8, UPC-A or EAN-13. */
export type DrawnSymbology = Exclude<BarcodeSymbology, 'gtin'>;

/** Light modules around a matrix code on every side. */
const MATRIX_QUIET = { left: 2, right: 2 };

export const SYMBOLOGIES: Record<DrawnSymbology, SymbologySpec> = {
  ean13: {
    label: 'EAN-13',
    bcid: 'ean13',
    shape: 'linear',
    quiet: { left: 11, right: 7 },
    values: { kind: 'gtin', data: 12 },
    humanReadable: true,
    text: 'ean',
    minModuleMm: 0.264,
  },
  ean8: {
    label: 'EAN-8',
    bcid: 'ean8',
    shape: 'linear',
    quiet: { left: 7, right: 7 },
    values: { kind: 'gtin', data: 7 },
    humanReadable: true,
    text: 'ean',
    minModuleMm: 0.264,
  },
  upca: {
    label: 'UPC-A',
    bcid: 'upca',
    shape: 'linear',
    quiet: { left: 9, right: 9 },
    values: { kind: 'gtin', data: 11 },
    humanReadable: true,
    text: 'upca',
    minModuleMm: 0.264,
  },
  upce: {
    label: 'UPC-E',
    bcid: 'upce',
    shape: 'linear',
    quiet: { left: 9, right: 7 },
    values: { kind: 'gtin', data: 7 },
    humanReadable: true,
    text: 'upce',
    minModuleMm: 0.264,
  },
  code128: {
    label: 'Code 128',
    bcid: 'code128',
    shape: 'linear',
    quiet: { left: 10, right: 10 },
    values: { kind: 'ascii' },
    humanReadable: true,
    text: 'centred',
    minModuleMm: 0.25,
  },
  'gs1-128': {
    label: 'GS1-128',
    bcid: 'gs1-128',
    shape: 'linear',
    quiet: { left: 10, right: 10 },
    values: { kind: 'gs1' },
    humanReadable: true,
    text: 'centred',
    minModuleMm: 0.25,
  },
  code39: {
    label: 'Code 39',
    bcid: 'code39',
    shape: 'linear',
    quiet: { left: 10, right: 10 },
    values: { kind: 'code39' },
    humanReadable: true,
    text: 'centred',
    minModuleMm: 0.25,
  },
  itf14: {
    label: 'ITF-14',
    bcid: 'itf14',
    shape: 'linear',
    quiet: { left: 10, right: 10 },
    values: { kind: 'gtin', data: 13 },
    humanReadable: true,
    text: 'centred',
    minModuleMm: 0.495,
    bearer: 3,
  },
  datamatrix: {
    label: 'DataMatrix',
    bcid: 'datamatrix',
    shape: 'matrix',
    quiet: MATRIX_QUIET,
    values: { kind: 'text' },
    humanReadable: false,
    text: 'centred',
    minModuleMm: 0.25,
  },
  'gs1-datamatrix': {
    label: 'GS1 DataMatrix',
    bcid: 'gs1datamatrix',
    shape: 'matrix',
    quiet: MATRIX_QUIET,
    values: { kind: 'gs1' },
    humanReadable: false,
    text: 'centred',
    minModuleMm: 0.25,
  },
  pdf417: {
    label: 'PDF417',
    bcid: 'pdf417',
    shape: 'matrix',
    quiet: MATRIX_QUIET,
    values: { kind: 'text' },
    humanReadable: false,
    text: 'centred',
    minModuleMm: 0.25,
  },
  azteccode: {
    label: 'Aztec',
    bcid: 'azteccode',
    shape: 'matrix',
    quiet: MATRIX_QUIET,
    values: { kind: 'text' },
    humanReadable: false,
    text: 'centred',
    minModuleMm: 0.25,
  },
};
