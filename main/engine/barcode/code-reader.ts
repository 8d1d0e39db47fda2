import fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as ZXingReader from 'zxing-wasm/reader';
import type { ReadResult } from 'zxing-wasm/reader';

/** RGBA pixels, 4 bytes a pixel, opaque (code-pixels.ts flattens transparency onto white). */
export interface RgbaPixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

type Reader = typeof ZXingReader;

/**
 * ZXing (zxing-cpp compiled to WebAssembly): a reader independent of the encoders that drew the
 * codes (qrcode, bwip-js). Loaded by the first verification in a thread, not as a thread starts:
 * most batches verify nothing. Its .wasm is read from the installed package: by default the
 * module would fetch it from a CDN, and the app works offline.
 */
let loading: Promise<Reader> | undefined;

function loadReader(): Promise<Reader> {
  loading ??= (async () => {
    const reader = await import('zxing-wasm/reader');
    const require = createRequire(import.meta.url);
    const wasm = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    await reader.prepareZXingModule({
      overrides: {
        wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength),
      },
      fireImmediately: true,
    });
    return reader;
  })();
  return loading;
}

/**
 * The codes of one format ZXing finds in the pixels (a cut-out around one drawn code). Careful
 * by default (try harder, rotated, inverted): a code is judged by whether a careful reader gets
 * it, also on the cut-out scaled down, as a camera further away sees it. `pure`: the pixels are
 * the code and its quiet zone alone, axis-aligned, as drawn; ZXing then samples the modules
 * without searching for the code, several times faster.
 */
export async function readCodes(
  pixels: RgbaPixels,
  format: string,
  options: { pure?: boolean } = {},
): Promise<ReadResult[]> {
  const reader = await loadReader();
  return reader.readBarcodes(pixels as unknown as Parameters<Reader['readBarcodes']>[0], {
    formats: [format as never],
    // The cut-out holds one code; a second of its format would not fit whole in the margin.
    maxNumberOfSymbols: 1,
    ...(options.pure
      ? // Dark modules below mid-grey and light ones above: a code drawn clearly. ZXing's local
        // binarizer missed the badge back's QR code, 12 px modules at half-pixel offsets.
        { isPure: true, binarizer: 'FixedThreshold' as const }
      : // Also at half and a quarter size, however small the cut-out: at full size ZXing missed
        // that code on its dark page, and read it at half size.
        { downscaleThreshold: 96, downscaleFactor: 2 }),
  });
}
