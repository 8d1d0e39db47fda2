import type * as BwipJs from 'bwip-js';
import { createRequire } from 'node:module';

type Bwip = typeof BwipJs;

/**
 * bwip-js (Barcode Writer in Pure PostScript), loaded by the first barcode a thread encodes:
 * most templates have none, and it is 2 MB of code. Loaded synchronously because values are
 * checked where a request is prepared, which is synchronous.
 */
let encoder: Bwip | undefined;

export function barcodeEncoder(): Bwip {
  encoder ??= createRequire(import.meta.url)('bwip-js') as Bwip;
  return encoder;
}
