import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFontManifest } from '../../main/engine/font-manifest.js';
import { coversCodePoint, mergeRanges, readCoverage } from '../../main/engine/font-coverage.js';
import { EMOJI_FAMILY, SCRIPT_FAMILIES } from '../../main/engine/font-families.js';
import {
  fontStack,
  missingGlyphs,
  registerBundledFonts,
  resolveFamily,
} from '../../main/engine/fonts.js';
import { repoRoot } from './fixtures/template-builder.js';

const fontsDir = path.join(repoRoot, 'templates', 'fonts');
const VIETNAMESE = 'ĂÂĐÊÔƠƯăâđêôơư ẮẰẲẴẶẤẦẨẪẬẾỀỂỄỆỐỒỔỖỘỚỜỞỠỢỨỪỬỮỰ ắẵặấẫậếễệốỗộớỡợứữự ỲÝỶỸỴ ₫';

describe('bundled fonts', () => {
  it('registers every family once, however often it is called', () => {
    const first = registerBundledFonts(fontsDir);
    expect(first).toEqual([
      'Be Vietnam Pro',
      'Noto Serif',
      'Montserrat',
      'Lora',
      'Playfair Display',
      'Dancing Script',
      'Lexend',
      'Nunito',
      'Noto Sans Arabic',
      'Noto Sans Hebrew',
      EMOJI_FAMILY,
    ]);
    expect(registerBundledFonts(fontsDir)).toEqual(first);
  });

  it('ships each family with its licence and only files the manifest lists', () => {
    for (const family of readFontManifest(fontsDir).families) {
      const folder = path.join(fontsDir, family.folder);
      expect(fs.existsSync(path.join(folder, 'OFL.txt')), family.family).toBe(true);
      const files = fs
        .readdirSync(folder)
        .filter((f) => f !== 'OFL.txt')
        .sort();
      expect(files).toEqual(family.files.map((f) => f.file).sort());
    }
  });

  it('lists in fonts.json exactly the coverage the font files have (run npm run fonts:sync)', () => {
    for (const family of readFontManifest(fontsDir).families) {
      const ranges = family.files.flatMap((file) =>
        readCoverage(fs.readFileSync(path.join(fontsDir, family.folder, file.file))).map(
          (r): [number, number] => [r[0], r[1]],
        ),
      );
      expect(family.coverage, family.family).toEqual(mergeRanges(ranges));
    }
  });

  it('lists in fonts.json the content hash of each file, which render caches key the fonts by (run npm run fonts:sync)', () => {
    for (const family of readFontManifest(fontsDir).families) {
      for (const file of family.files) {
        const bytes = fs.readFileSync(path.join(fontsDir, family.folder, file.file));
        expect(file.sha256, file.file).toBe(createHash('sha256').update(bytes).digest('hex'));
      }
    }
  });

  it('covers Vietnamese and stacked marks in every text face, and ₫ in all but two display serifs', () => {
    // Lora and Playfair Display have every Vietnamese letter but no ₫; it comes from the fallback.
    const dongFromFallback = ['Lora', 'Playfair Display'];
    registerBundledFonts(fontsDir);
    for (const family of readFontManifest(fontsDir).families) {
      // Emoji and the right-to-left script fonts are fallbacks, not text families.
      if (family.family === EMOJI_FAMILY || SCRIPT_FAMILIES.includes(family.family)) continue;
      if (dongFromFallback.includes(family.family)) {
        expect(missingGlyphs('₫', family.family)).toEqual([]);
      }
      for (const file of family.files) {
        const coverage = readCoverage(
          fs.readFileSync(path.join(fontsDir, family.folder, file.file)),
        );
        const missing = [...VIETNAMESE].filter(
          (c) => !coversCodePoint(coverage, c.codePointAt(0)!),
        );
        expect(
          missing.filter(
            (c) => c !== ' ' && !(c === '₫' && dongFromFallback.includes(family.family)),
          ),
          file.file,
        ).toEqual([]);
      }
    }
  });

  it('falls back to the default family and then colour emoji', () => {
    registerBundledFonts(fontsDir);
    expect(fontStack('Montserrat')).toBe('"Montserrat", "Be Vietnam Pro", "Noto Color Emoji"');
    expect(fontStack('Comic Sans MS')).toBe('"Be Vietnam Pro", "Noto Color Emoji"');
    expect(resolveFamily('noto serif')).toBe('Noto Serif');
  });

  it('reports only characters no bundled font draws', () => {
    registerBundledFonts(fontsDir);
    expect(missingGlyphs(VIETNAMESE.normalize('NFD'), 'Montserrat')).toEqual([]);
    expect(missingGlyphs('🎉😀🇻🇳 👨‍👩‍👧 ❤️ #️⃣', 'Noto Serif')).toEqual([]);
    expect(missingGlyphs('Xin chào 漢字 ก ก', 'Be Vietnam Pro')).toEqual(['漢', '字', 'ก']);
  });
});
