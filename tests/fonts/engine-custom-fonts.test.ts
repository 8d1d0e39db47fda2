import { GlobalFonts } from '@napi-rs/canvas';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAMILY } from '../../main/engine/font-families.js';
import {
  fontStack,
  isCustomFamily,
  registerBundledFonts,
  resolveFamily,
  syncCustomFonts,
} from '../../main/engine/fonts.js';
import { FONTS_DIR, MONTSERRAT, testFont, toWoff } from './fixtures/sfnt-fixtures.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-engine-fonts-'));
afterAll(() => {
  syncCustomFonts([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

function stored(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

describe('custom fonts in the engine', () => {
  it('registers the faces a job lists, resolves their family like a bundled one, and drops deleted ones', () => {
    registerBundledFonts(FONTS_DIR);
    const file = stored('display.woff', toWoff(testFont(MONTSERRAT, 'Engine Display')));
    const face = { family: 'Engine Display', path: file, weight: 400, style: 'normal' as const };

    syncCustomFonts([face]);
    expect(isCustomFamily('engine display')).toBe(true);
    expect(resolveFamily('ENGINE DISPLAY')).toBe('Engine Display');
    expect(fontStack('Engine Display')).toBe(
      '"Engine Display", "Be Vietnam Pro", "Noto Color Emoji"',
    );
    expect(GlobalFonts.has('Engine Display')).toBe(true);

    // The same list again registers nothing twice.
    const families = GlobalFonts.families.length;
    syncCustomFonts([face]);
    expect(GlobalFonts.families.length).toBe(families);

    syncCustomFonts([]);
    expect(isCustomFamily('Engine Display')).toBe(false);
    expect(resolveFamily('Engine Display')).toBe(DEFAULT_FAMILY);
    expect(GlobalFonts.has('Engine Display')).toBe(false);
  });

  it('leaves out a face whose file is gone instead of failing every render', () => {
    registerBundledFonts(FONTS_DIR);
    syncCustomFonts([
      { family: 'Gone Sans', path: path.join(dir, 'missing.ttf'), weight: 400, style: 'normal' },
    ]);
    expect(isCustomFamily('Gone Sans')).toBe(false);
    expect(resolveFamily('Gone Sans')).toBe(DEFAULT_FAMILY);
  });
});
