import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import { realFolder } from '../engine/image-reference.js';
import type { ImageResolver } from '../render/render-service.js';

/**
 * The folders the user lets an MCP client reach (`render-desk mcp --allow <folder>`): source
 * files, images and bundles are read and written there and nowhere else. Paths are compared
 * after resolving symbolic links, so a link inside an allowed folder cannot lead out of it, and
 * the data folder is never reachable even when an allowed folder contains it.
 */
export class AllowedFolders {
  private readonly roots: string[];
  private readonly dataDir: string;

  constructor(folders: readonly string[], dataDir: string) {
    this.dataDir = realFolder(dataDir);
    this.roots = folders.map((folder) => {
      const resolved = path.resolve(folder);
      if (!fs.existsSync(resolved) || !fs.statSync(resolved).isDirectory())
        throw new AppError('path-not-allowed', `--allow ${folder}: no such folder.`);
      return realFolder(resolved);
    });
  }

  get folders(): readonly string[] {
    return this.roots;
  }

  /**
   * An existing file (or, with kind 'folder', a folder) the client named, resolved; throws
   * path-not-allowed outside the folders. A file must be a regular one: opening a FIFO or a
   * device would block the server's only thread until something writes to it.
   */
  readable(file: string, what: string, kind: 'file' | 'folder' | 'any' = 'any'): string {
    let real: string;
    try {
      real = fs.realpathSync.native(path.resolve(file));
    } catch {
      throw new AppError('path-not-allowed', `${what}: "${file}" does not exist.`, {
        problems: [{ path: what, message: 'no such file' }],
      });
    }
    this.assertInside(real, file, what);
    if (kind !== 'any') {
      const stat = fs.statSync(real);
      if (kind === 'file' ? !stat.isFile() : !stat.isDirectory())
        throw new AppError(
          'path-not-allowed',
          `${what}: "${file}" is not ${kind === 'file' ? 'a regular file' : 'a folder'}.`,
          {
            problems: [
              { path: what, message: `not ${kind === 'file' ? 'a regular file' : 'a folder'}` },
            ],
          },
        );
    }
    return real;
  }

  /**
   * A file to write: its folder must exist inside an allowed folder. The name itself is not
   * resolved: whatever is there (a link out of the folder, a dangling one) is replaced, never
   * written through (files/replace-file.ts), so only the folder needs checking.
   */
  writable(file: string, what: string): string {
    const resolved = path.resolve(file);
    const folder = this.readable(path.dirname(resolved), what, 'folder');
    const target = path.join(folder, path.basename(resolved));
    let existing: fs.Stats | null = null;
    try {
      existing = fs.lstatSync(target);
    } catch {
      // Nothing there yet.
    }
    if (existing && !existing.isFile() && !existing.isSymbolicLink())
      throw new AppError(
        'path-not-allowed',
        `${what}: "${file}" is a folder or a device, not a file.`,
        {
          problems: [{ path: what, message: 'not a file' }],
        },
      );
    return target;
  }

  /** Image values that are local paths are read only inside the allowed folders. */
  imageResolver(base: ImageResolver): ImageResolver {
    return (value, valuePath) => {
      const trimmed = value.trim();
      if (path.isAbsolute(trimmed) && !/^[\\/]{2}/.test(trimmed)) {
        let real: string;
        try {
          real = fs.realpathSync.native(trimmed);
        } catch {
          real = path.resolve(trimmed);
        }
        this.assertInside(real, trimmed, valuePath);
      }
      return base(value, valuePath);
    };
  }

  private assertInside(real: string, given: string, what: string): void {
    const inside = (root: string) => real === root || real.startsWith(root + path.sep);
    if (this.roots.some(inside) && !inside(this.dataDir)) return;
    throw new AppError(
      'path-not-allowed',
      `${what}: "${given}" is outside the folders this MCP server may use (${this.roots.length > 0 ? this.roots.join(', ') : 'none; start it with --allow <folder>'}).`,
      { problems: [{ path: what, message: 'outside the allowed folders' }] },
    );
  }
}
