import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';

/** The raster formats a template image may be, with the extension it is stored under. */
export type AssetFormat = 'png' | 'jpg' | 'webp';

/**
 * What a template image's bytes really are: PNG, JPEG or WebP by their first bytes (never by a
 * name or a Content-Type), whole, and within sharp's pixel limit. Template images are drawn
 * without the checks that values get, so nothing else may become one: an SVG would reach
 * librsvg, which resolves its references against the template's folder.
 */
export async function checkTemplateAsset(bytes: Uint8Array, what: string): Promise<AssetFormat> {
  const format = sniffAssetFormat(bytes);
  if (!format) {
    const message = 'not a PNG, JPEG or WebP image (convert an SVG to PNG first)';
    throw new AppError('image-invalid', `${what} is ${message}.`, {
      problems: [{ path: what, message }],
    });
  }
  try {
    // A full decode (metadata alone accepts truncated files); sharp's pixel limit stays on.
    await sharp(bytes, { failOn: 'warning' }).resize(256, 256, { fit: 'inside' }).raw().toBuffer();
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    throw new AppError(
      'image-invalid',
      /pixel limit/i.test(message)
        ? `${what} is over the 268-megapixel limit; scale it down.`
        : `${what} cannot be read as an image (${message}); it is damaged or truncated.`,
      { problems: [{ path: what, message }] },
    );
  }
  return format;
}

export function sniffAssetFormat(bytes: Uint8Array): AssetFormat | null {
  const head = Buffer.from(bytes.subarray(0, 12));
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return null;
}
