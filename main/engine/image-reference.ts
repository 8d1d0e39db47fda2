import fs from 'node:fs';
import { readHeadSync } from '../files/read-head.js';
import path from 'node:path';
import { AppError, Errors } from '../../shared/errors.js';
import type { ImageInput } from '../render/render-protocol.js';
import { assertAllowedImage, IMAGE_HEAD_BYTES } from './image-type.js';
import { assertSvgBytesSelfContained, MAX_SVG_BYTES, svgTooLarge } from './svg-self-contained.js';

/** Decoded data URIs larger than this are refused (the body limit usually answers 413 first). */
export const MAX_DATA_URI_BYTES = 25 * 1024 * 1024;

const DATA_URI_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/webp',
  'image/gif',
  'image/svg+xml',
]);

/** Local files larger than this are refused before any decoding. */
export const MAX_IMAGE_FILE_BYTES = 100 * 1024 * 1024;

export interface ImageReferenceOptions {
  /** The file of an image upload (`upl_…`), or null when there is none. */
  uploadPath: (id: string) => string | null;
  /**
   * Always false here: image URLs are fetched before values are resolved (main/remote-images),
   * and a URL that reaches this resolver is one that was not fetched because they are off.
   */
  allowRemote: boolean;
  /**
   * Folders no path value may reach, even through a symbolic link: the data directory holds the
   * database, other people's uploads and keys, which no template has any business reading.
   */
  protectedDirs?: readonly string[];
}

/**
 * Turns an image value into something a worker can decode: an upload id, a `data:` URI or an
 * absolute local path. Checks what can be checked without decoding (existence, type, size,
 * SVG external references); decoding happens in the worker.
 */
export function createImageReferenceResolver(options: ImageReferenceOptions) {
  const protectedRoots = (options.protectedDirs ?? []).map(realFolder);
  return (value: string, valuePath: string): ImageInput => {
    const trimmed = value.trim();
    if (/^https?:\/\//i.test(trimmed)) {
      throw new AppError(
        'url-not-allowed',
        `${valuePath}: image URLs are off. Turn them on in Settings → Image URLs (PUT /v1/system/image-urls with {"enabled": true}, or --allow-image-urls on the command line), or download the image and pass its file path, a data: URI or an upload id.`,
        {
          problems: [
            {
              path: valuePath,
              message:
                'image URLs are off; turn them on in Settings → Image URLs (PUT /v1/system/image-urls) or with --allow-image-urls',
              code: 'url-not-allowed',
            },
          ],
        },
      );
    }
    if (/^data:/i.test(trimmed)) return fromDataUri(trimmed, valuePath);
    if (/^upl_[A-Za-z0-9_-]+$/.test(trimmed)) {
      const file = options.uploadPath(trimmed);
      if (!file)
        throw Errors.imageInvalid(
          valuePath,
          `there is no image upload "${trimmed}" (uploads expire after 24 hours).`,
        );
      return checkedImageFile(file, valuePath);
    }
    if (/^file:\/\//i.test(trimmed)) {
      throw Errors.imageInvalid(valuePath, 'give a plain absolute path, not a file:// URL.');
    }
    if (isNetworkPath(trimmed)) throw networkPathRefused(valuePath, trimmed);
    if (!path.isAbsolute(trimmed)) {
      throw Errors.imageInvalid(
        valuePath,
        `"${trimmed}" is not an absolute path, a data: URI or an upload id.`,
      );
    }
    assertNotProtected(trimmed, valuePath, protectedRoots);
    return checkedImageFile(trimmed, valuePath);
  };
}

function assertNotProtected(file: string, valuePath: string, roots: readonly string[]): void {
  if (roots.length === 0) return;
  let real: string;
  try {
    real = fs.realpathSync.native(file);
  } catch {
    return; // Missing: checkedImageFile says so.
  }
  if (roots.some((root) => real === root || real.startsWith(root + path.sep))) {
    throw new AppError(
      'path-not-allowed',
      `${valuePath}: "${file}" is inside Render Desk's data folder, which is not an image source. Upload the image (POST /v1/uploads) or use a file elsewhere.`,
      { problems: [{ path: valuePath, message: "the app's data folder is not an image source" }] },
    );
  }
}

/**
 * `\\server\share\x.png`, `//server/share`, `\\?\C:\…`, `\\.\pipe\…`: on Windows, merely looking
 * at such a path opens a connection to that server, which hands it the user's NTLM credentials,
 * or reaches a device. Refused on every platform, so a value behaves the same everywhere.
 */
export function isNetworkPath(value: string): boolean {
  return /^[\\/]{2}/.test(value);
}

export function networkPathRefused(valuePath: string, value: string): AppError {
  return Errors.imageInvalid(
    valuePath,
    `"${value.slice(0, 200)}" is a network or device path; copy the image to this computer or upload it (POST /v1/uploads).`,
  );
}

/**
 * A folder's real path (symbolic links resolved, and on Windows and macOS the case as it is on
 * disk, so `C:\Users\Me\AppData` and `c:\users\me\appdata` compare equal), or its absolute
 * path when it is missing.
 */
export function realFolder(dir: string): string {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}

/**
 * A local image file, checked before any decoding: a regular file, not empty, within the size
 * limit, and self-contained when it is an SVG.
 */
export function checkedImageFile(file: string, valuePath: string): ImageInput {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw Errors.imageInvalid(valuePath, `no file at "${file}".`);
  }
  if (stat.isDirectory()) {
    throw Errors.imageInvalid(valuePath, `"${file}" is a folder, not an image file.`);
  }
  if (!stat.isFile()) throw Errors.imageInvalid(valuePath, `"${file}" is not a regular file.`);
  if (stat.size === 0) throw Errors.imageInvalid(valuePath, `"${file}" is empty.`);
  if (stat.size > MAX_IMAGE_FILE_BYTES) {
    throw Errors.imageInvalid(
      valuePath,
      `"${file}" is over ${MAX_IMAGE_FILE_BYTES / 1024 / 1024} MB.`,
    );
  }
  // Detected by content, not by name: a .png that is really an SVG is rasterised as an SVG, and
  // one that is really a TIFF is refused.
  if (assertAllowedImage(readHeadSync(file, IMAGE_HEAD_BYTES), valuePath) === 'svg') {
    if (stat.size > MAX_SVG_BYTES) throw svgTooLarge(valuePath);
    assertSvgBytesSelfContained(fs.readFileSync(file), valuePath);
  }
  return { kind: 'file', path: file };
}

function fromDataUri(uri: string, valuePath: string): ImageInput {
  const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/is.exec(uri);
  if (!match) throw Errors.imageInvalid(valuePath, 'the data: URI is malformed.');
  const mime = (match[1] || 'text/plain').toLowerCase();
  if (!DATA_URI_TYPES.has(mime)) {
    throw Errors.imageInvalid(
      valuePath,
      `a data: URI of type ${mime} is not an image (PNG, JPEG, WebP, GIF or SVG).`,
    );
  }
  const isBase64 = /;base64/i.test(match[2] ?? '');
  const payload = match[3] ?? '';
  const estimated = isBase64 ? Math.floor((payload.length * 3) / 4) : payload.length;
  if (estimated > MAX_DATA_URI_BYTES) {
    throw Errors.imageInvalid(
      valuePath,
      `the image is over ${MAX_DATA_URI_BYTES / 1024 / 1024} MB.`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = isBase64 ? decodeBase64(payload) : percentDecode(payload);
  } catch {
    throw Errors.imageInvalid(valuePath, 'the data: URI is not valid percent-encoding.');
  }
  if (bytes.length === 0) throw Errors.imageInvalid(valuePath, 'the data: URI holds no data.');
  // The bytes decide, not the declared type: sharp would decode a TIFF sent as image/png.
  if (assertAllowedImage(bytes.subarray(0, IMAGE_HEAD_BYTES), valuePath) === 'svg')
    assertSvgBytesSelfContained(bytes, valuePath);
  return { kind: 'bytes', bytes: new Uint8Array(bytes), mime };
}

function decodeBase64(payload: string): Buffer {
  const clean = payload.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) throw new Error('not base64');
  return Buffer.from(clean, 'base64');
}

/** RFC 3986 percent-decoding to bytes (decodeURIComponent fails on binary bytes like %89). */
function percentDecode(payload: string): Buffer {
  const out: number[] = [];
  const raw = Buffer.from(payload, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i]!;
    if (byte === 0x25) {
      const hex = raw.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Error('bad percent-encoding');
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(byte);
  }
  return Buffer.from(out);
}
