import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { createImageReferenceResolver } from '../../main/engine/image-reference.js';
import { checkImagesDir, createImagesFolderResolver } from '../../main/batch/images-folder.js';
import { pngSuiteDir } from '../engine/fixtures/template-builder.js';

/**
 * A home folder holding the app's data folder (database, uploads) beside the user's photos, as
 * `~/.local/share/render-desk` sits in `~`.
 */
let home: string;
let dataDir: string;
let photos: string;
const PNG = fs.readFileSync(path.join(pngSuiteDir, 'basn2c08.png'));
const EXTERNAL_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><image href="file:///etc/passwd"/></svg>';

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-home-'));
  dataDir = path.join(home, 'data');
  photos = path.join(home, 'photos');
  fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
  fs.mkdirSync(photos);
  fs.writeFileSync(path.join(dataDir, 'render-desk.db'), PNG); // anything readable
  fs.writeFileSync(path.join(dataDir, 'uploads', 'upl_someone.png'), PNG);
  fs.writeFileSync(path.join(photos, 'a.png'), PNG);
  fs.writeFileSync(path.join(photos, 'logo.svg'), EXTERNAL_SVG);
  fs.symlinkSync(dataDir, path.join(home, 'data-link'));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const base = () =>
  createImageReferenceResolver({
    uploadPath: () => null,
    allowRemote: false,
    protectedDirs: [dataDir],
  });

function failure(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal');
}

describe('imagesDir checks', () => {
  it.each([
    ['the data folder', () => dataDir, 'is'],
    ['a folder inside it', () => path.join(dataDir, 'uploads'), 'is inside'],
    ['its parent', () => home, 'contains'],
    ['a link to it', () => path.join(home, 'data-link'), 'is'],
    ['its path spelled with ..', () => path.join(photos, '..', 'data'), 'is'],
  ])('refuses %s up front with 422 path-not-allowed', (_name, dir, relation) => {
    const error = failure(() => checkImagesDir(dir(), [dataDir]));
    expect(error.code).toBe('path-not-allowed');
    expect(error.status).toBe(422);
    expect(error.problems?.[0]?.path).toBe('imagesDir');
    expect(error.message).toContain(`${relation} Render Desk's data folder`);
  });

  it.each(['\\\\server\\share\\photos', '//server/share/photos'])(
    'refuses the network folder %s without looking at it',
    (dir) => {
      const error = failure(() => checkImagesDir(dir, [dataDir]));
      expect(error.code).toBe('validation-failed');
      expect(error.problems?.[0]?.message).toContain('network or device path');
    },
  );

  it('accepts a folder beside the data folder, and says what is wrong with a missing one', () => {
    expect(checkImagesDir(photos, [dataDir])).toBe(photos);
    const error = failure(() => checkImagesDir(path.join(home, 'missing'), [dataDir]));
    expect(error.code).toBe('validation-failed');
  });
});

describe('relative image paths', () => {
  it('resolve inside a folder the user named', () => {
    const resolve = createImagesFolderResolver({ dir: photos, managed: false }, base());
    expect(resolve('a.png', 'values.photo')).toEqual({
      kind: 'file',
      path: fs.realpathSync(path.join(photos, 'a.png')),
    });
  });

  it('never reach the data folder, whatever folder they resolve in (a batch stored before imagesDir was checked)', () => {
    for (const folder of [home, dataDir, path.join(home, 'data-link')]) {
      const resolve = createImagesFolderResolver({ dir: folder, managed: false }, base());
      const inside = folder === home ? 'data/' : '';
      for (const file of ['render-desk.db', 'uploads/upl_someone.png']) {
        const error = failure(() => resolve(`${inside}${file}`, 'values.photo'));
        expect(error.code).toBe('path-not-allowed');
      }
    }
  });

  it('leave network paths in cells to the check that refuses them', () => {
    const resolve = createImagesFolderResolver({ dir: photos, managed: false }, base());
    const error = failure(() => resolve('\\\\server\\share\\a.png', 'values.photo'));
    expect(error.message).toContain('network or device path');
  });

  it('get the same file checks as absolute paths: an SVG that references a file is refused', () => {
    const resolve = createImagesFolderResolver({ dir: photos, managed: false }, base());
    expect(failure(() => resolve('logo.svg', 'values.logo')).code).toBe('svg-external-reference');
  });

  it('resolve in the folder an uploaded zip was unpacked into, inside the data folder, with the file checks', () => {
    const unpacked = path.join(dataDir, 'outputs', 'bat_x', 'images');
    fs.mkdirSync(unpacked, { recursive: true });
    fs.writeFileSync(path.join(unpacked, 'a.png'), PNG);
    fs.writeFileSync(path.join(unpacked, 'logo.svg'), EXTERNAL_SVG);
    const resolve = createImagesFolderResolver({ dir: unpacked, managed: true }, base());
    expect(resolve('a.png', 'values.photo')).toMatchObject({ kind: 'file' });
    expect(failure(() => resolve('logo.svg', 'values.logo')).code).toBe('svg-external-reference');
    expect(failure(() => resolve('../../../render-desk.db', 'values.photo')).message).toMatch(
      /outside the images folder/,
    );
  });

  it('take a file whose name starts with two dots as the file it is', () => {
    fs.writeFileSync(path.join(photos, '..hidden.png'), PNG);
    const resolve = createImagesFolderResolver({ dir: photos, managed: false }, base());
    expect(resolve('..hidden.png', 'values.photo')).toMatchObject({ kind: 'file' });
  });
});
