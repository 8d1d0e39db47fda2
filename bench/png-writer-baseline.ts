/**
 * The PNG writer as it was before the WebAssembly filter kernel and the Paeth + Z_RLE choice
 * (main/engine/png-writer.ts at that time, unchanged below this comment): the benches run it
 * interleaved with today's writer, so both are timed under the same load.
 */
import zlib from 'node:zlib';

/**
 * A small PNG writer for opaque canvases: RGBA pixels → 8-bit RGB, each row filtered in JS,
 * deflated with Node's zlib. See encode-image.ts for why and for the measurements.
 */

/** PNG filter types (the byte that starts each filtered row). */
export const FILTER = { none: 0, sub: 1, up: 2, paeth: 4 } as const;
export type PngFilter = keyof typeof FILTER | 'auto';

export interface PngWriterOptions {
  /** One filter for every row, or `auto`: the one that compresses a sample of rows best. */
  filter: PngFilter;
  /** zlib level, 1–9. */
  level: number;
  /** zlib strategy (zlib.constants.Z_*); the default strategy unless given. */
  strategy?: number | undefined;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Writes one chunk (length, type, data, CRC) into `out` at `at`; returns where it ends. */
function writeChunk(out: Buffer, at: number, type: string, data: Uint8Array): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, 'latin1');
  out.set(data, at + 8);
  const end = at + 8 + data.length;
  out.writeUInt32BE(zlib.crc32(out.subarray(at + 4, end)), end);
  return end + 4;
}

/**
 * Filters row `y` of `rgba` (opaque, alpha dropped) with `filter` into `out` at `o` (filter byte
 * first, then width × 3 bytes).
 */
export function filterRow(
  rgba: Uint8Array,
  width: number,
  y: number,
  filter: number,
  out: Uint8Array,
  o: number,
): void {
  const stride = width * 4;
  const row = y * stride;
  const up = y > 0 ? row - stride : -1;
  out[o++] = filter;
  switch (filter) {
    case FILTER.none:
      for (let i = row, end = row + stride; i < end; i += 4) {
        out[o] = rgba[i]!;
        out[o + 1] = rgba[i + 1]!;
        out[o + 2] = rgba[i + 2]!;
        o += 3;
      }
      return;
    case FILTER.sub:
      out[o] = rgba[row]!;
      out[o + 1] = rgba[row + 1]!;
      out[o + 2] = rgba[row + 2]!;
      o += 3;
      for (let i = row + 4, end = row + stride; i < end; i += 4) {
        out[o] = rgba[i]! - rgba[i - 4]!;
        out[o + 1] = rgba[i + 1]! - rgba[i - 3]!;
        out[o + 2] = rgba[i + 2]! - rgba[i - 2]!;
        o += 3;
      }
      return;
    case FILTER.up:
      if (up < 0) return filterRow(rgba, width, y, FILTER.none, out, o - 1);
      for (let i = row, end = row + stride; i < end; i += 4) {
        out[o] = rgba[i]! - rgba[i - stride]!;
        out[o + 1] = rgba[i + 1]! - rgba[i + 1 - stride]!;
        out[o + 2] = rgba[i + 2]! - rgba[i + 2 - stride]!;
        o += 3;
      }
      return;
    default:
      // Paeth: on the first row it is Sub; each row's first pixel predicts from above.
      if (up < 0) {
        filterRow(rgba, width, y, FILTER.sub, out, o - 1);
        out[o - 1] = FILTER.paeth;
        return;
      }
      paethRow(rgba, row, stride, out, o);
  }
}

/** One Paeth-filtered row (not the first): `a` left, `b` above, `c` upper-left, per channel. */
function paethRow(rgba: Uint8Array, row: number, stride: number, out: Uint8Array, o: number): void {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  for (let i = row, end = row + stride; i < end; i += 4, o += 3) {
    const x0 = rgba[i]!;
    const x1 = rgba[i + 1]!;
    const x2 = rgba[i + 2]!;
    const b0 = rgba[i - stride]!;
    const b1 = rgba[i + 1 - stride]!;
    const b2 = rgba[i + 2 - stride]!;
    out[o] = x0 - predict(a0, b0, c0);
    out[o + 1] = x1 - predict(a1, b1, c1);
    out[o + 2] = x2 - predict(a2, b2, c2);
    a0 = x0;
    a1 = x1;
    a2 = x2;
    c0 = b0;
    c1 = b1;
    c2 = b2;
  }
}

function predict(a: number, b: number, c: number): number {
  const pa = Math.abs(b - c);
  const pb = Math.abs(a - c);
  const pc = Math.abs(a + b - 2 * c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * One filter for the whole image, by trial: bands of rows (8 of every 64) are filtered with each
 * cheap filter and deflated at level 1; the smallest wins. Flat, patterned cards want None or
 * Sub; photos and gradients want Up.
 */
export function chooseFilter(rgba: Uint8Array, width: number, height: number): number {
  const rowBytes = 1 + width * 3;
  const rows: number[] = [];
  for (let y = 0; y < height; y += 64)
    for (let k = y; k < Math.min(height, y + 8); k++) rows.push(k);
  const sample = scratch(1, rows.length * rowBytes);
  let best: number = FILTER.up;
  let bestSize = Infinity;
  for (const filter of [FILTER.up, FILTER.sub, FILTER.none]) {
    rows.forEach((y, n) => filterRow(rgba, width, y, filter, sample, n * rowBytes));
    const size = zlib.deflateSync(sample, { level: 1 }).length;
    if (size < bestSize) {
      best = filter;
      bestSize = size;
    }
  }
  return best;
}

/**
 * Two reusable buffers per thread (filtered rows, and the filter trial's sample): a new 3.5 MB
 * buffer per render is external memory that V8 collects only with a full garbage collection.
 * Only ever used synchronously (filled, then deflated), so renders interleaving on a thread
 * cannot overwrite each other's rows.
 */
const scratchBuffers: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0)];
/** Larger images (print sizes) get a buffer of their own rather than one kept for good. */
const MAX_SCRATCH_BYTES = 32 * 1024 * 1024;
function scratch(slot: 0 | 1, size: number): Buffer {
  if (size > MAX_SCRATCH_BYTES) return Buffer.allocUnsafeSlow(size);
  if (scratchBuffers[slot]!.length < size) scratchBuffers[slot] = Buffer.allocUnsafeSlow(size);
  return scratchBuffers[slot]!.subarray(0, size);
}

/**
 * Every row filtered, as PNG's IDAT carries them before deflate. The result is a view of this
 * thread's scratch buffer: valid until the next call, so deflate it before awaiting anything.
 */
export function filterImage(
  rgba: Uint8Array,
  width: number,
  height: number,
  filter: PngFilter,
): Buffer {
  const rowBytes = 1 + width * 3;
  const out = scratch(0, rowBytes * height);
  const type = filter === 'auto' ? chooseFilter(rgba, width, height) : FILTER[filter];
  for (let y = 0; y < height; y++) filterRow(rgba, width, y, type, out, y * rowBytes);
  return out;
}

/** An opaque RGBA canvas (`width` × `height`, 4 bytes a pixel) as an RGB PNG; same pixels → same bytes. */
export async function writePng(
  rgba: Uint8Array,
  width: number,
  height: number,
  options: PngWriterOptions,
): Promise<Buffer> {
  const filtered = filterImage(rgba, width, height, options.filter);
  const zlibOptions: zlib.ZlibOptions = {
    level: options.level,
    strategy: options.strategy ?? zlib.constants.Z_DEFAULT_STRATEGY,
    chunkSize: 1 << 20,
  };
  // Deflate on this thread: a render worker is one core's worth of work. On libuv's pool it would
  // compete with the other workers (one worker would use two cores, and two would not scale).
  const idat = zlib.deflateSync(filtered, zlibOptions);
  // Let the event loop turn: a worker fed back to back (piscina's Atomics) otherwise never runs
  // the deferred finalizers that free canvases and their pixel buffers (~9 MB a render).
  await new Promise((resolve) => setImmediate(resolve));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  // One allocation for the file (a buffer of its own, so the render worker can hand it over
  // without a copy).
  const out = Buffer.allocUnsafeSlow(SIGNATURE.length + 12 * 3 + ihdr.length + idat.length);
  out.set(SIGNATURE, 0);
  let at = writeChunk(out, SIGNATURE.length, 'IHDR', ihdr);
  at = writeChunk(out, at, 'IDAT', idat);
  writeChunk(out, at, 'IEND', new Uint8Array(0));
  return out;
}
