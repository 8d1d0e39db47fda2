import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../shared/errors.js';
import { createImageReferenceResolver } from '../../main/engine/image-reference.js';
import { pngSuiteDir } from './fixtures/template-builder.js';

let dir: string;
const png = path.join(pngSuiteDir, 'basn2c08.png');
const resolve = createImageReferenceResolver({
  uploadPath: (id) => (id === 'upl_known' ? png : null),
  allowRemote: false,
});

function failure(value: string): AppError {
  try {
    resolve(value, 'values.photo');
  } catch (error) {
    return error as AppError;
  }
  throw new Error(`expected ${value.slice(0, 40)} to be refused`);
}

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">${body}</svg>`;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-images-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('image references', () => {
  it('resolves upload ids, absolute files and image data: URIs', () => {
    expect(resolve('upl_known', 'values.photo')).toEqual({ kind: 'file', path: png });
    expect(resolve(png, 'values.photo')).toEqual({ kind: 'file', path: png });
    const bytes = fs.readFileSync(png);
    const fromBase64 = resolve(`data:image/png;base64,${bytes.toString('base64')}`, 'values.photo');
    expect(fromBase64).toEqual({ kind: 'bytes', bytes: new Uint8Array(bytes), mime: 'image/png' });
    const percent = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    expect(resolve(`data:image/png,${percent}`, 'values.photo')).toEqual(fromBase64);
  });

  it('refuses unknown uploads, relative paths, folders, missing files and file: URLs', () => {
    for (const [value, text] of [
      ['upl_missing', 'upl_missing'],
      ['photos/cat.png', 'absolute'],
      [dir, 'folder'],
      [path.join(dir, 'missing.png'), 'no file'],
      [`file://${png}`, 'file://'],
    ] as const) {
      const error = failure(value);
      expect(error.code).toBe('image-invalid');
      expect(error.status).toBe(422);
      expect(error.problems?.[0]?.path).toBe('values.photo');
      expect(error.message).toContain(text);
    }
  });

  it('refuses network and device paths before touching them (Windows would connect to the server)', () => {
    for (const value of [
      '\\\\server\\share\\cat.png',
      '//server/share/cat.png',
      '\\\\?\\C:\\cat.png',
      '\\\\.\\pipe\\render',
      '/\\server\\share\\cat.png',
    ]) {
      const error = failure(value);
      expect(error.code, value).toBe('image-invalid');
      expect(error.message).toContain('network or device path');
    }
  });

  it('refuses data: URIs that are not images', () => {
    const error = failure('data:text/html,<script>alert(1)</script>');
    expect(error.code).toBe('image-invalid');
    expect(error.message).toContain('text/html');
    expect(failure('data:image/png;base64,').code).toBe('image-invalid');
  });

  it('refuses remote URLs while they are turned off', () => {
    const error = failure('https://example.com/cat.png');
    expect(error.code).toBe('url-not-allowed');
    expect(error.status).toBe(422);
    expect(failure('http://127.0.0.1:5317/v1/render').code).toBe('url-not-allowed');
  });

  it('refuses SVGs that reference files, URLs or entities, in data: URIs and in files', () => {
    const hostile = [
      svg('<image href="file:///etc/passwd" width="10" height="10"/>'),
      svg('<image xlink:href="http://example.com/x.png"/>'),
      svg('<image href="cat.png"/>'),
      svg('<image href="&#102;ile:///etc/hosts"/>'),
      svg('<rect fill="url(https://x/y.svg#p)" width="1" height="1"/>'),
      svg('<style>@import url(x.css);</style>'),
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svg('<text>&x;</text>')}`,
    ];
    for (const body of hostile) {
      const uri = `data:image/svg+xml,${encodeURIComponent(body)}`;
      expect(failure(uri).code, body).toBe('svg-external-reference');
      const file = path.join(dir, 'logo.png'); // detected by content, not by name
      fs.writeFileSync(file, body);
      expect(failure(file).code, body).toBe('svg-external-reference');
    }
  });

  it('accepts self-contained SVGs with fragment and data: references', () => {
    const body = svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<rect fill="url(#g)" width="10" height="10"/><use href="#g"/>' +
        '<image href="data:image/png;base64,iVBORw0KGgo="/>',
    );
    const uri = `data:image/svg+xml;base64,${Buffer.from(body).toString('base64')}`;
    expect(resolve(uri, 'values.logo')).toMatchObject({ kind: 'bytes', mime: 'image/svg+xml' });
  });
});
