import crypto from 'node:crypto';
import type { ImageInput } from '../render/render-protocol.js';

/**
 * Pre-flight's work on an image (decoding it, reading its size), done once per distinct image
 * however many rows name it: keyed by the file's path, or by the hash of the bytes, since images
 * of one size share their first bytes (a PNG's header), not their pixels. `work` gets what sharp
 * opens: the path or the bytes.
 */
export function oncePerImage<T>(
  cache: Map<string, Promise<T>>,
  input: ImageInput,
  work: (data: string | Buffer) => Promise<T>,
): Promise<T> {
  const key =
    input.kind === 'file'
      ? `file:${input.path}`
      : `bytes:${crypto.createHash('sha256').update(input.bytes).digest('hex')}`;
  let result = cache.get(key);
  if (!result) {
    result = work(input.kind === 'file' ? input.path : Buffer.from(input.bytes));
    cache.set(key, result);
  }
  return result;
}
