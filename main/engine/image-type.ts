import { readHead } from '../files/read-head.js';
import { Errors, type AppError } from '../../shared/errors.js';
import type { ImageInput } from '../render/render-protocol.js';
import { maybeSvg } from './svg-self-contained.js';

/**
 * The image types Render Desk decodes, decided by their bytes. sharp picks its decoder from the
 * bytes too, whatever a name, a Content-Type or a data: URI says, and it carries many more
 * (libtiff, libheif for AVIF and HEIF, JPEG 2000, JPEG XL …): each is attack surface that no
 * template needs. So bytes of any other type are refused before sharp sees them.
 */
export type ImageType = 'png' | 'jpeg' | 'webp' | 'gif' | 'svg';

/** The allowed types, as messages name them. */
export const ALLOWED_IMAGE_TYPES = 'PNG, JPEG, WebP, GIF or SVG';

/** How many leading bytes decide the type (an SVG's markup may start after a BOM and spaces). */
export const IMAGE_HEAD_BYTES = 512;

const startsWith = (head: Uint8Array, ...bytes: number[]): boolean =>
  head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte);

const ascii = (head: Uint8Array, from: number, to: number): string =>
  Buffer.from(head.subarray(from, to)).toString('latin1');

/** The allowed type of these leading bytes, or undefined for anything else. */
export function sniffImageType(head: Uint8Array): ImageType | undefined {
  if (startsWith(head, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (startsWith(head, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'gif';
  // Markup, or gzip (librsvg inflates it as .svgz); the SVG check then reads it whole.
  if (maybeSvg(head)) return 'svg';
  return undefined;
}

/** What other bytes are, for a message that says what to convert. */
export function describeImageBytes(head: Uint8Array): string | undefined {
  if (startsWith(head, 0x49, 0x49, 0x2a, 0x00) || startsWith(head, 0x4d, 0x4d, 0x00, 0x2a))
    return 'a TIFF image';
  if (startsWith(head, 0x49, 0x49, 0x2b, 0x00) || startsWith(head, 0x4d, 0x4d, 0x00, 0x2b))
    return 'a BigTIFF image';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'an AVIF image';
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand)) return 'a HEIF image';
    return `an ISO media file ("${brand.replace(/[^\x20-\x7e]/g, '?')}")`;
  }
  if (
    startsWith(head, 0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20) ||
    startsWith(head, 0xff, 0x4f, 0xff, 0x51)
  )
    return 'a JPEG 2000 image';
  if (
    startsWith(head, 0xff, 0x0a) ||
    startsWith(head, 0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20)
  )
    return 'a JPEG XL image';
  // BM, the file size, then four reserved zero bytes (text may start with "BM" too).
  if (ascii(head, 0, 2) === 'BM' && startsWith(head.subarray(6), 0, 0, 0, 0)) return 'a BMP image';
  if (ascii(head, 0, 4) === '8BPS') return 'a Photoshop document';
  if (ascii(head, 0, 5) === '%PDF-') return 'a PDF';
  if (startsWith(head, 0x00, 0x00, 0x01, 0x00)) return 'an icon (ICO)';
  if (/^P[1-7]\s/.test(ascii(head, 0, 3))) return 'a PPM/PGM image';
  if (ascii(head, 0, 2) === '#?') return 'a Radiance HDR image';
  if (ascii(head, 0, 6) === 'SIMPLE') return 'a FITS image';
  return undefined;
}

/** Why bytes of another type are refused, and what to do instead. */
export function notAnAllowedImage(head: Uint8Array): string {
  const known = describeImageBytes(head);
  if (known === undefined)
    return 'the file is not a readable image (PNG, JPEG, WebP, GIF, SVG): its bytes are of no image type (a web page, a document, or damaged?).';
  return `the bytes are ${known}, not ${ALLOWED_IMAGE_TYPES} (whatever its name or type says); convert it to PNG or JPEG.`;
}

/** The allowed type of these leading bytes; 422 image-invalid naming `valuePath` otherwise. */
export function assertAllowedImage(head: Uint8Array, valuePath: string): ImageType {
  const type = sniffImageType(head);
  if (type) return type;
  throw imageTypeRefused(head, valuePath);
}

export function imageTypeRefused(head: Uint8Array, valuePath: string): AppError {
  return Errors.imageInvalid(valuePath, notAnAllowedImage(head));
}

/** The leading bytes of an image to decode, read from its file or its bytes. */
export async function imageHead(input: ImageInput): Promise<Uint8Array> {
  if (input.kind === 'bytes') return input.bytes.subarray(0, IMAGE_HEAD_BYTES);
  return readHead(input.path, IMAGE_HEAD_BYTES);
}
