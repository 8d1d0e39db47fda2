import zlib from 'node:zlib';

/**
 * PNG image data (one zlib stream) deflated band by band, each band after a full flush and
 * with the 32 KiB before it as its preset dictionary (as pigz splits a stream): its compressed
 * bytes depend on its own filtered bytes and the 32 KiB before them alone, and matches still
 * reach back across the band's start, so the file is as small as one deflate's. A batch's cards
 * share most of their pixels (the template's art, its background, every row's empty space), so
 * a band whose bytes (and the 32 KiB before) equal the same band of the last card of this size
 * and settings on this thread is copied, compressed, instead of deflated again.
 *
 * The bytes never depend on what was encoded before: a band copied is the band deflated, and
 * the stream's checksum is combined from the bands' own.
 */

/** Rows a band holds. */
export const BAND_ROWS = 32;
/** Deflate's window: what a band's matches may reach back to, so what its bytes depend on. */
const WINDOW = 32 * 1024;
/** Cards of distinct sizes and settings remembered per thread (a batch draws a few sizes). */
const REMEMBERED = 4;
/** Images larger than this (print sizes) are deflated in bands but not remembered. */
const MAX_REMEMBERED_BYTES = 12 * 1024 * 1024;

export interface BandSettings {
  level: number;
  strategy: number;
}

interface Band {
  /** Raw deflate of the band, ending in a full flush. */
  deflated: Buffer;
  adler: number;
}

interface Card {
  /** The card's filtered bytes (a copy). */
  filtered: Buffer;
  bands: Band[];
}

/** The last card of each size and settings, most recent last. */
const remembered = new Map<string, Card>();

export interface BandStats {
  bands: number;
  reused: number;
}

/** Bands of remembered cards, and how many were copied, on this thread: for the benches. */
export const bandStats: BandStats = { bands: 0, reused: 0 };

/**
 * The zlib stream of `filtered` (rows of `rowBytes`, filter byte first), as PNG's IDAT holds it.
 * `remember`: compare with, and keep, the last card of this size and settings.
 */
export function deflateBands(
  filtered: Buffer,
  rowBytes: number,
  settings: BandSettings,
  remember: boolean,
): Buffer {
  const key = `${rowBytes}:${filtered.length}:${settings.level}:${settings.strategy}`;
  const keep = remember && filtered.length <= MAX_REMEMBERED_BYTES;
  const before = keep ? remembered.get(key) : undefined;
  const bandBytes = rowBytes * BAND_ROWS;
  const bands: Band[] = [];
  let size = 0;
  let adler = 1;
  for (let start = 0, index = 0; start < filtered.length; start += bandBytes, index += 1) {
    const end = Math.min(filtered.length, start + bandBytes);
    const from = Math.max(0, start - WINDOW);
    const known = before?.bands[index];
    const same =
      known !== undefined &&
      before!.filtered.subarray(from, end).equals(filtered.subarray(from, end));
    const bytes = filtered.subarray(start, end);
    const band = same
      ? known
      : {
          deflated: zlib.deflateRawSync(bytes, {
            level: settings.level,
            strategy: settings.strategy,
            finishFlush: zlib.constants.Z_FULL_FLUSH,
            ...(start > 0 ? { dictionary: filtered.subarray(from, start) } : {}),
          }),
          adler: adler32(bytes),
        };
    if (keep) {
      bandStats.bands += 1;
      if (same) bandStats.reused += 1;
    }
    bands.push(band);
    size += band.deflated.length;
    adler = index === 0 ? band.adler : adler32Combine(adler, band.adler, bytes.length);
  }
  if (keep) {
    remembered.delete(key);
    remembered.set(key, { filtered: Buffer.from(filtered), bands });
    if (remembered.size > REMEMBERED) remembered.delete(remembered.keys().next().value!);
  }
  // zlib header, the bands, a final empty block, the checksum of everything inflated.
  const out = Buffer.allocUnsafe(2 + size + FINAL_BLOCK.length + 4);
  const header = zlibHeader(settings);
  out[0] = header[0];
  out[1] = header[1];
  let at = 2;
  for (const band of bands) {
    band.deflated.copy(out, at);
    at += band.deflated.length;
  }
  FINAL_BLOCK.copy(out, at);
  out.writeUInt32BE(adler >>> 0, at + FINAL_BLOCK.length);
  return out;
}

/** An empty final block with fixed codes: BFINAL 1, BTYPE 01, end of block. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** The two bytes zlib starts its stream with for these settings (RFC 1950). */
function zlibHeader(settings: BandSettings): [number, number] {
  const cmf = 0x78; // deflate, 32 KiB window
  // As deflate.c sets FLEVEL: 0 for the fastest level and the strategies without matching.
  const fixedOrFast = settings.strategy >= zlib.constants.Z_HUFFMAN_ONLY || settings.level < 2;
  const flevel = fixedOrFast ? 0 : settings.level < 6 ? 1 : settings.level === 6 ? 2 : 3;
  let flg = flevel << 6;
  flg += 31 - ((cmf * 256 + flg) % 31);
  return [cmf, flg];
}

const BASE = 65521;
/** The most bytes summed before the sums must be reduced (zlib's NMAX). */
const NMAX = 5552;

export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let start = 0; start < bytes.length; start += NMAX) {
    const end = Math.min(bytes.length, start + NMAX);
    for (let i = start; i < end; i += 1) {
      a += bytes[i]!;
      b += a;
    }
    a %= BASE;
    b %= BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two pieces joined, from theirs and the second's length (zlib's combine). */
export function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % BASE;
  sum1 += (second & 0xffff) + BASE - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + BASE - rem;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum1 >= BASE) sum1 -= BASE;
  if (sum2 >= BASE * 2) sum2 -= BASE * 2;
  if (sum2 >= BASE) sum2 -= BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}
