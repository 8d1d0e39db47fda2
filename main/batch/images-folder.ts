import fs from 'node:fs';
import path from 'node:path';
import { Errors } from '../../shared/errors.js';
import { realFolder } from '../engine/image-reference.js';
import type { ImageResolver } from '../render/render-service.js';

/**
 * Relative image paths in cells (`photos/sku-123.jpg`, as people keep photos beside their
 * spreadsheet) resolve against the batch's images folder, and never outside it: `../../etc/passwd`
 * and symlinks that leave the folder are refused.
 */
export function createImagesFolderResolver(
  imagesDir: string | null,
  fallback: ImageResolver,
): ImageResolver {
  const root = imagesDir ? realFolder(imagesDir) : null;
  return (value, valuePath) => {
    if (!root || !isRelativeImagePath(value)) return fallback(value, valuePath);
    const candidate = path.resolve(root, value.replace(/\\/g, '/'));
    if (!isInside(root, candidate)) {
      throw Errors.imageInvalid(valuePath, `"${value}" points outside the images folder.`);
    }
    if (!fs.existsSync(candidate)) {
      throw Errors.imageInvalid(valuePath, `"${value}" is not in the images folder.`);
    }
    const real = fs.realpathSync(candidate);
    if (!isInside(root, real)) {
      throw Errors.imageInvalid(valuePath, `"${value}" links to a file outside the images folder.`);
    }
    if (!fs.statSync(real).isFile()) {
      throw Errors.imageInvalid(valuePath, `"${value}" is a folder, not an image file.`);
    }
    return { kind: 'file', path: real };
  };
}

export function isRelativeImagePath(value: string): boolean {
  return !(
    path.isAbsolute(value) ||
    /^[A-Za-z]:[\\/]/.test(value) ||
    /^(data|https?|file|asset):/i.test(value) ||
    /^upl_/.test(value)
  );
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
