import type { BarcodeSymbology } from '../../../shared/template-format.js';
import { barcodeEncoder } from './barcode-encoder.js';
import { SYMBOLOGIES, type SymbologySpec } from './barcode-symbologies.js';
import { checkBarcodeValue, encoderReason, type BarcodeInput } from './barcode-value.js';

/** A bar of a linear code, in modules from the code's first bar. */
export interface Bar {
  x: number;
  width: number;
  /** A guard bar of EAN/UPC, which reaches down between the digits. */
  long: boolean;
}

export interface LinearSymbol {
  shape: 'linear';
  spec: SymbologySpec;
  input: BarcodeInput;
  bars: Bar[];
  /** From the first bar's left edge to the last bar's right edge, modules. */
  width: number;
  /** The human-readable line of a centred text (Code 39 with its `*`s, GS1 with brackets). */
  text: string;
}

export interface MatrixSymbol {
  shape: 'matrix';
  spec: SymbologySpec;
  input: BarcodeInput;
  columns: number;
  /** Rows of the grid (PDF417's rows of codewords). */
  rows: number;
  /** How many modules high one row is drawn: 3 for PDF417, 1 for square-module codes. */
  rowHeight: number;
  /** Row-major, `rows` × `columns`, 1 for a dark module. */
  modules: readonly number[];
  text: string;
}

/** A code as module geometry, which the layer draws itself (vector paths, whole pixels). */
export type BarcodeSymbol = LinearSymbol | MatrixSymbol;

export type EncodedBarcode = { ok: true; symbol: BarcodeSymbol } | { ok: false; reason: string };

interface RawLinear {
  sbs: number[];
  bbs: number[];
  txt?: [string, ...unknown[]][];
}
interface RawMatrix {
  pixs: number[];
  pixx: number;
  pixy: number;
}

/**
 * The value checked for its symbology and encoded by bwip-js's `raw`, which gives the bars and
 * spaces (or the module grid) without drawing anything. A value the symbology cannot hold
 * gives a reason instead (values.<name> problems, see barcode-problems.ts).
 */
export function encodeBarcode(symbology: BarcodeSymbology, value: string): EncodedBarcode {
  const key = `${symbology}\n${value}`;
  const cached = recent.get(key);
  if (cached) return cached;
  const encoded = encode(symbology, value);
  // A row's code is encoded when its values are checked, drawn and measured by the rules.
  if (recent.size >= RECENT_CODES) recent.delete(recent.keys().next().value ?? '');
  recent.set(key, encoded);
  return encoded;
}

/** The last codes encoded in this thread, oldest first. */
const recent = new Map<string, EncodedBarcode>();
const RECENT_CODES = 64;

function encode(symbology: BarcodeSymbology, value: string): EncodedBarcode {
  const checked = checkBarcodeValue(symbology, value);
  if (!checked.ok) return checked;
  const { input } = checked;
  // `gtin` has become the symbology its length picked.
  const spec = SYMBOLOGIES[input.symbology];
  let raw: unknown;
  try {
    raw = barcodeEncoder().raw(spec.bcid, input.text, { ...input.options, includetext: true })[0];
  } catch (error) {
    return { ok: false, reason: encoderReason(spec, value.trim(), error) };
  }
  if (spec.shape === 'matrix') {
    const grid = raw as RawMatrix;
    // `pixy` counts module rows; the grid holds each PDF417 row once.
    const rows = grid.pixs.length / grid.pixx;
    return {
      ok: true,
      symbol: {
        shape: 'matrix',
        spec,
        input,
        columns: grid.pixx,
        rows,
        rowHeight: Math.max(1, Math.round(grid.pixy / rows)),
        modules: grid.pixs,
        text: input.value,
      },
    };
  }
  const linear = raw as RawLinear;
  const bars: Bar[] = [];
  let x = 0;
  linear.sbs.forEach((width, index) => {
    // Bars and spaces alternate, a bar first; bwip-js lowers the bottom of guard bars.
    if (index % 2 === 0) bars.push({ x, width, long: (linear.bbs[index / 2] ?? 0) < 0 });
    x += width;
  });
  const text = (linear.txt ?? []).map((item) => item[0]).join('');
  return {
    ok: true,
    symbol: { shape: 'linear', spec, input, bars, width: x, text: text || input.value },
  };
}
