import sharp from 'sharp';
import { AppError } from '../../shared/errors.js';
import { IMAGE_HEAD_BYTES, sniffImageType } from '../engine/image-type.js';

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

/** PNG, JPEG or WebP by the bytes (main/engine/image-type.ts); GIF and SVG are not assets. */
export function sniffAssetFormat(bytes: Uint8Array): AssetFormat | null {
  switch (sniffImageType(bytes.subarray(0, IMAGE_HEAD_BYTES))) {
    case 'png':
      return 'png';
    case 'jpeg':
      return 'jpg';
    case 'webp':
      return 'webp';
    default:
      return null;
  }
}
