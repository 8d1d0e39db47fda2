import fs from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';

/**
 * ZXing (zxing-cpp as WebAssembly), an independent reader for the codes the engine draws. Its
 * .wasm is read from the installed package: by default it would be fetched from a CDN.
 */
const require = createRequire(import.meta.url);
const wasmFile = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
const wasm = fs.readFileSync(wasmFile);
prepareZXingModule({
  overrides: {
    wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength),
  },
});

/** Every code ZXing finds in an image (PNG, JPEG …), of the formats named (all when none). */
export async function readCodes(image: Uint8Array, formats: string[] = []): Promise<ReadResult[]> {
  const { data, info } = await sharp(image)
    .flatten({ background: '#FFFFFF' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return readBarcodes(
    {
      data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      colorSpace: 'srgb',
    },
    { formats: formats as never[], tryHarder: true },
  );
}
