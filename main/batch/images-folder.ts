import fs from 'node:fs';
import path from 'node:path';
import { AppError, Errors } from '../../shared/errors.js';
import { checkedImageFile, isNetworkPath, realFolder } from '../engine/image-reference.js';
import type { ImageResolver } from '../render/render-service.js';

/** A batch's folder of images, and whether the app made it (an uploaded zip, unpacked). */
export interface ImagesFolder {
  dir: string;
  /**
   * The folder the app unpacked an `imagesRef` zip into, inside the data folder: its files are
   * the batch's own. A folder named by `imagesDir` is the user's, and none of the data folder.
   */
  managed: boolean;
}

/**
 * Relative image paths in cells (`photos/sku-123.jpg`, as people keep photos beside their
 * spreadsheet) resolve against the batch's images folder, and never outside it: `../../etc/passwd`
 * and symlinks that leave the folder are refused. A file found in a folder the user named is then
 * checked as an absolute path value would be, so the data folder stays out of reach however the
 * folder was named or later replaced; a managed folder's files get the same file checks (type,
 * size, SVG references) without that rule.
 */
export function createImagesFolderResolver(
  folder: ImagesFolder | null,
  fallback: ImageResolver,
): ImageResolver {
  const root = folder ? realFolder(folder.dir) : null;
  return (value, valuePath) => {
    if (!root || !isRelativeImagePath(value)) return fallback(value, valuePath);
    const candidate = path.resolve(root, value.replace(/\\/g, '/'));
    if (!isInside(root, candidate)) {
      throw Errors.imageInvalid(valuePath, `"${value}" points outside the images folder.`);
    }
    if (!fs.existsSync(candidate)) {
      throw Errors.imageInvalid(valuePath, `"${value}" is not in the images folder.`);
    }
    const real = fs.realpathSync.native(candidate);
    if (!isInside(root, real)) {
      throw Errors.imageInvalid(valuePath, `"${value}" links to a file outside the images folder.`);
    }
    if (!fs.statSync(real).isFile()) {
      throw Errors.imageInvalid(valuePath, `"${value}" is a folder, not an image file.`);
    }
    return folder!.managed ? checkedImageFile(real, valuePath) : fallback(real, valuePath);
  };
}

/**
 * An `imagesDir` from a request: an existing absolute folder that is not the data folder, inside
 * it, or around it (its parent would reach the database through relative paths). Returns it
 * resolved; throws 422 naming `imagesDir` otherwise.
 */
export function checkImagesDir(dir: string, protectedDirs: readonly string[]): string {
  if (isNetworkPath(dir)) {
    throw Errors.validation([
      {
        path: 'imagesDir',
        message: `"${dir.slice(0, 200)}" is a network or device path; copy the images to a folder on this computer`,
      },
    ]);
  }
  if (!path.isAbsolute(dir) || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw Errors.validation([
      { path: 'imagesDir', message: `"${dir}" is not an existing folder (give an absolute path)` },
    ]);
  }
  const real = realFolder(dir);
  for (const root of protectedDirs.map(realFolder)) {
    const relation =
      real === root
        ? 'is'
        : isInside(root, real)
          ? 'is inside'
          : isInside(real, root)
            ? 'contains'
            : null;
    if (relation) {
      const message = `"${dir}" ${relation} Render Desk's data folder, which is not an image source; choose the folder that holds your images`;
      throw new AppError('path-not-allowed', `imagesDir: ${message}.`, {
        problems: [{ path: 'imagesDir', message }],
      });
    }
  }
  return path.resolve(dir);
}

export function isRelativeImagePath(value: string): boolean {
  return !(
    path.isAbsolute(value) ||
    isNetworkPath(value) ||
    /^[A-Za-z]:[\\/]/.test(value) ||
    /^(data|https?|file|asset):/i.test(value) ||
    /^upl_/.test(value)
  );
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // `..hidden.png` is a file inside; `..` and `../x` are not.
  return (
    relative !== '' &&
    relative !== '..' &&
    !relative.startsWith(`..${path.sep}`) &&
    !path.isAbsolute(relative)
  );
}
