import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFontManifest } from '../../main/engine/font-manifest.js';
import { repoRoot } from './fixtures/template-builder.js';

const bundled = path.join(repoRoot, 'templates', 'fonts');
const family = () => ({
  family: 'Be Vietnam Pro',
  folder: 'be-vietnam-pro',
  source: 'https://github.com/bettergui/BeVietnamPro',
  licence: 'OFL-1.1',
  coverage: [[32, 126]],
  files: [
    {
      file: 'BeVietnamPro-Regular.ttf',
      weight: 400,
      style: 'normal',
      sha256: 'a'.repeat(64),
    },
  ],
});

describe('the font manifest', () => {
  const dirs: string[] = [];
  afterEach(() =>
    dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })),
  );
  /** readFontManifest of a fonts.json holding `manifest`. */
  const read = (manifest: unknown) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'font-manifest-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'fonts.json'), JSON.stringify(manifest));
    return () => readFontManifest(dir);
  };

  it('reads the bundled fonts.json, every family with its files', () => {
    const manifest = readFontManifest(bundled);
    expect(manifest.families.length).toBeGreaterThanOrEqual(10);
    for (const entry of manifest.families) expect(entry.files.length).toBeGreaterThan(0);
  });

  it('reads a manifest as written, with or without coverage', () => {
    const { coverage: _, ...withoutCoverage } = family();
    expect(read({ families: [family()] })().families[0]).toEqual(family());
    expect(read({ families: [withoutCoverage] })().families[0]).toEqual(withoutCoverage);
  });

  it('refuses names that would leave the fonts folder, and says where', () => {
    const escaping = family();
    escaping.files[0]!.file = '../../../etc/passwd.ttf';
    expect(read({ families: [escaping] })).toThrow(/families\[0\]\.files\[0\]\.file/);
    expect(read({ families: [{ ...family(), folder: '../elsewhere' }] })).toThrow(
      /families\[0\]\.folder/,
    );
  });

  it('refuses a manifest that is not one, naming the part', () => {
    expect(read([])).toThrow(/families: not a list/);
    expect(read({ families: [{ ...family(), family: '' }] })).toThrow(/families\[0\]\.family/);
    expect(read({ families: [{ ...family(), coverage: [[1]] }] })).toThrow(/coverage/);
    const badFile = family();
    (badFile.files[0] as { style: string }).style = 'oblique';
    expect(read({ families: [badFile] })).toThrow(/files\[0\]\.style/);
    const badDigest = family();
    badDigest.files[0]!.sha256 = 'not-a-digest';
    expect(read({ families: [badDigest] })).toThrow(/sha256/);
    const badWeight = family();
    (badWeight.files[0] as { weight: unknown }).weight = 'bold';
    expect(read({ families: [badWeight] })).toThrow(/weight/);
  });
});
