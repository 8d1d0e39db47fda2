import zlib from 'node:zlib';
import { createFilterKernel, KERNEL_SLACK, type FilterKernel } from './png-filter-kernel.js';

/**
 * A small PNG writer for opaque canvases: RGBA pixels → 8-bit RGB, each row filtered by a
 * WebAssembly kernel (png-filter.wat), deflated with Node's zlib. See encode-image.ts for why and
 * for the measurements.
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

/** Rows copied into the kernel's memory at a time: the pixels are copied, not the whole canvas. */
const BAND_ROWS = 32;
/** The filter trial's sample: the first 8 rows of every 64. */
const TRIAL_EVERY = 64;
const TRIAL_ROWS = 8;
/**
 * Paeth + Z_RLE replaces the trial's filter at zlib level ≤ 4 when the sample, so encoded, is at
 * most this share of the sample filtered Up and deflated at level 4: photos and gradients, where
 * residuals are small and long matches rare. On every built-in template × ratio, the cards so chosen came out
 * 3–14 % smaller than before (bench/png-writer-vs-baseline.ts); above ~0.95 some came out larger.
 */
const RLE_SHARE = 0.93;

/**
 * One kernel per thread, its memory reused: a new 3.5 MB buffer per render is external memory
 * that V8 collects only with a full garbage collection. Only ever used synchronously (filled,
 * then deflated), so renders interleaving on a thread cannot overwrite each other's rows.
 */
let threadKernel: FilterKernel | undefined;
/** Larger images (print sizes) get a kernel of their own rather than memory kept for good. */
const MAX_SCRATCH_BYTES = 32 * 1024 * 1024;

const align = (n: number) => Math.ceil(n / 16) * 16;

/** Where things go in the kernel's memory for one image. */
interface Layout {
  kernel: FilterKernel;
  memory: Uint8Array;
  width: number;
  height: number;
  stride: number;
  rowBytes: number;
  /** A row of zeros: "the row above" the first. */
  zero: number;
  /** BAND_ROWS rows of RGBA after the row above them. */
  window: number;
  /** The filtered rows; the trial's sample (RGBA, then filtered) before them. */
  out: number;
}

function trialRows(height: number): Array<[number, number]> {
  const bands: Array<[number, number]> = [];
  for (let y = 0; y < height; y += TRIAL_EVERY) bands.push([y, Math.min(height, y + TRIAL_ROWS)]);
  return bands;
}

function layout(width: number, height: number): Layout {
  const stride = width * 4;
  const rowBytes = 1 + width * 3;
  const sampleRows = trialRows(height).reduce((n, [y0, y1]) => n + y1 - y0 + 1, 0);
  const sampleBytes = align(sampleRows * rowBytes + KERNEL_SLACK);
  const zero = 0;
  const window = align(stride + KERNEL_SLACK);
  const out = align(window + (BAND_ROWS + 1) * stride + KERNEL_SLACK);
  // The trial's sample (RGBA, then two filtered slots) uses the output's space before it.
  const outBytes = Math.max(rowBytes * height, align(sampleRows * stride) + 2 * sampleBytes);
  const size = out + outBytes + KERNEL_SLACK;
  const kernel =
    size > MAX_SCRATCH_BYTES ? createFilterKernel() : (threadKernel ??= createFilterKernel());
  const memory = kernel.reserve(size);
  memory.fill(0, zero, zero + stride);
  return { kernel, memory, width, height, stride, rowBytes, zero, window, out };
}

/**
 * Filters rows [y0, y1) of `rgba` (whose row y0 - 1 is already at `above`, or is the zero row)
 * into `dst`. Up on an image's first row is written as None, as the JavaScript writer did, so
 * files keep their bytes.
 */
function filterBand(
  at: Layout,
  src: number,
  above: number,
  dst: number,
  rows: number,
  filter: number,
  firstRow: boolean,
): void {
  at.kernel.filterRows(src, above, dst, at.width, rows, filter);
  if (firstRow && filter === FILTER.up) at.memory[dst] = FILTER.none;
}

/** Copies rows [y0, y1) of `rgba` to `to`, after row y0 - 1 unless y0 is 0; returns the rows' address. */
function copyRows(at: Layout, rgba: Uint8Array, y0: number, y1: number, to: number): number {
  const from = Math.max(0, y0 - 1);
  at.memory.set(rgba.subarray(from * at.stride, y1 * at.stride), to);
  return to + (y0 - from) * at.stride;
}

const view = (at: Layout, offset: number, length: number) =>
  Buffer.from(at.memory.buffer, at.memory.byteOffset + offset, length);

interface Choice {
  filter: number;
  /** Deflate with Z_RLE (Paeth's residuals of photos and gradients). */
  rle: boolean;
}

/**
 * The filter by trial: bands of rows (8 of every 64) are filtered with each cheap filter and
 * deflated at level 1; the smallest wins (flat, patterned cards want None or Sub; photos and
 * gradients Up). With `tryRle`, Paeth + Z_RLE comes first where the sample predicts a smaller file
 * (see RLE_SHARE), at less than half the deflate time.
 */
function choose(at: Layout, rgba: Uint8Array, tryRle: boolean): Choice {
  const bands = trialRows(at.height);
  const sources = bands.map(() => 0);
  let to = at.out;
  for (const [n, [y0, y1]] of bands.entries()) {
    sources[n] = copyRows(at, rgba, y0, y1, to);
    to = sources[n] + (y1 - y0) * at.stride;
  }
  // Two sample slots: Up's stays while Paeth's is tried against it.
  const sampleBytes = bands.reduce((n, [y0, y1]) => n + (y1 - y0) * at.rowBytes, 0);
  const slots = [align(to), align(to) + align(sampleBytes + KERNEL_SLACK)] as const;
  const filterSample = (filter: number, slot: 0 | 1 = 0): Buffer => {
    const sample = slots[slot];
    let dst = sample;
    for (const [n, [y0, y1]] of bands.entries()) {
      const src = sources[n]!;
      filterBand(at, src, y0 ? src - at.stride : at.zero, dst, y1 - y0, filter, y0 === 0);
      dst += (y1 - y0) * at.rowBytes;
    }
    return view(at, sample, dst - sample);
  };
  const upSample = filterSample(FILTER.up);
  const upSize = zlib.deflateSync(upSample, { level: 1 }).length;
  if (tryRle) {
    // Paeth + Z_RLE against Up at level 4; Up at level 1 first, a cheap bound that spares flat and
    // patterned cards (where Z_RLE loses by far) the level-4 deflate of the sample.
    const rleSize = zlib.deflateSync(filterSample(FILTER.paeth, 1), {
      level: 1,
      strategy: zlib.constants.Z_RLE,
    }).length;
    if (
      rleSize <= RLE_SHARE * upSize &&
      rleSize <= RLE_SHARE * zlib.deflateSync(upSample, { level: 4 }).length
    )
      return { filter: FILTER.paeth, rle: true };
  }
  let best: number = FILTER.up;
  let bestSize = upSize;
  for (const filter of [FILTER.sub, FILTER.none]) {
    const size = zlib.deflateSync(filterSample(filter), { level: 1 }).length;
    if (size < bestSize) {
      best = filter;
      bestSize = size;
    }
  }
  return { filter: best, rle: false };
}

/** Every row filtered with `filter` at `at.out`, as PNG's IDAT carries them before deflate. */
function filterAll(at: Layout, rgba: Uint8Array, filter: number): Buffer {
  for (let y0 = 0; y0 < at.height; y0 += BAND_ROWS) {
    const y1 = Math.min(at.height, y0 + BAND_ROWS);
    const src = copyRows(at, rgba, y0, y1, at.window);
    const dst = at.out + y0 * at.rowBytes;
    filterBand(at, src, y0 ? at.window : at.zero, dst, y1 - y0, filter, y0 === 0);
  }
  return view(at, at.out, at.rowBytes * at.height);
}

/**
 * Every row filtered, as PNG's IDAT carries them before deflate (`auto`: the trial's filter,
 * never Paeth + Z_RLE). The result is a view of this thread's kernel memory: valid until the
 * next call, so deflate it before awaiting anything.
 */
export function filterImage(
  rgba: Uint8Array,
  width: number,
  height: number,
  filter: PngFilter,
): Buffer {
  const at = layout(width, height);
  const type = filter === 'auto' ? choose(at, rgba, false).filter : FILTER[filter];
  return filterAll(at, rgba, type);
}

/** An opaque RGBA canvas (`width` × `height`, 4 bytes a pixel) as an RGB PNG; same pixels → same bytes. */
export async function writePng(
  rgba: Uint8Array,
  width: number,
  height: number,
  options: PngWriterOptions,
): Promise<Buffer> {
  const laid = layout(width, height);
  // Paeth + Z_RLE is fitted against level 4 with the default strategy: not for other settings.
  const tryRle = options.strategy === undefined && options.level <= 4;
  const choice =
    options.filter === 'auto'
      ? choose(laid, rgba, tryRle)
      : { filter: FILTER[options.filter], rle: false };
  const filtered = filterAll(laid, rgba, choice.filter);
  const zlibOptions: zlib.ZlibOptions = {
    level: choice.rle ? 1 : options.level,
    strategy: choice.rle
      ? zlib.constants.Z_RLE
      : (options.strategy ?? zlib.constants.Z_DEFAULT_STRATEGY),
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
