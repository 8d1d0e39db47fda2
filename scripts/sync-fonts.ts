import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { coversCodePoint, mergeRanges, readCoverage } from '../main/engine/font-coverage.js';
import type { FontManifest } from '../main/engine/font-manifest.js';

/**
 * Copies the fonts templates may use from node_modules into templates/fonts/<family>/, with their
 * licence, and writes templates/fonts/fonts.json (read by the engine) and README.md. Fonts ship
 * with the app so a render never depends on the machine's fonts. Run: npm run fonts:sync
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const modules = path.join(repoRoot, 'node_modules');
const fontsDir = path.join(repoRoot, 'templates', 'fonts');

interface FamilySource {
  family: string;
  folder: string;
  packageName: string;
  licenceFile: string;
  /** Files relative to the package, with the weight and style they hold. */
  files: Array<{ from: string; weight: number; style: 'normal' | 'italic' }>;
  /** Text fonts must draw every Vietnamese letter, stacked marks included. */
  vietnamese: boolean;
  /**
   * The family draws every Vietnamese letter but not ₫, which then comes from Be Vietnam Pro (the
   * fallback of every family). Said in the README so price layers pick a family that has it.
   */
  dongFromFallback?: boolean;
}

const expo = (prefix: string, specs: Array<[string, number, 'normal' | 'italic']>) =>
  specs.map(([variant, weight, style]) => ({
    from: `${variant}/${prefix}_${variant}.ttf`,
    weight,
    style,
  }));

const SOURCES: FamilySource[] = [
  {
    family: 'Be Vietnam Pro',
    folder: 'be-vietnam-pro',
    packageName: '@expo-google-fonts/be-vietnam-pro',
    licenceFile: 'LICENSE_FONT',
    files: expo('BeVietnamPro', [
      ['400Regular', 400, 'normal'],
      ['400Regular_Italic', 400, 'italic'],
      ['500Medium', 500, 'normal'],
      ['600SemiBold', 600, 'normal'],
      ['700Bold', 700, 'normal'],
      ['800ExtraBold', 800, 'normal'],
    ]),
    vietnamese: true,
  },
  {
    family: 'Noto Serif',
    folder: 'noto-serif',
    packageName: '@expo-google-fonts/noto-serif',
    licenceFile: 'LICENSE_FONT',
    files: expo('NotoSerif', [
      ['400Regular', 400, 'normal'],
      ['400Regular_Italic', 400, 'italic'],
      ['700Bold', 700, 'normal'],
    ]),
    vietnamese: true,
  },
  {
    family: 'Montserrat',
    folder: 'montserrat',
    packageName: '@expo-google-fonts/montserrat',
    licenceFile: 'LICENSE_FONT',
    files: expo('Montserrat', [
      ['400Regular', 400, 'normal'],
      ['700Bold', 700, 'normal'],
      ['800ExtraBold', 800, 'normal'],
    ]),
    vietnamese: true,
  },
  // Display and text families so categories look different: a serif for editorial and
  // greetings, a high-contrast display serif for luxury and events, a script for invitations,
  // and two rounded/geometric sans for food, kids and apps. Only the weights templates use.
  {
    family: 'Lora',
    folder: 'lora',
    packageName: '@expo-google-fonts/lora',
    licenceFile: 'LICENSE_FONT',
    files: expo('Lora', [
      ['400Regular', 400, 'normal'],
      ['400Regular_Italic', 400, 'italic'],
      ['700Bold', 700, 'normal'],
    ]),
    vietnamese: true,
    dongFromFallback: true,
  },
  {
    family: 'Playfair Display',
    folder: 'playfair-display',
    packageName: '@expo-google-fonts/playfair-display',
    licenceFile: 'LICENSE_FONT',
    files: expo('PlayfairDisplay', [
      ['400Regular', 400, 'normal'],
      ['400Regular_Italic', 400, 'italic'],
      ['700Bold', 700, 'normal'],
      ['900Black', 900, 'normal'],
    ]),
    vietnamese: true,
    dongFromFallback: true,
  },
  {
    family: 'Dancing Script',
    folder: 'dancing-script',
    packageName: '@expo-google-fonts/dancing-script',
    licenceFile: 'LICENSE_FONT',
    files: expo('DancingScript', [['700Bold', 700, 'normal']]),
    vietnamese: true,
  },
  {
    family: 'Lexend',
    folder: 'lexend',
    packageName: '@expo-google-fonts/lexend',
    licenceFile: 'LICENSE_FONT',
    files: expo('Lexend', [
      ['400Regular', 400, 'normal'],
      ['600SemiBold', 600, 'normal'],
      ['800ExtraBold', 800, 'normal'],
    ]),
    vietnamese: true,
  },
  {
    family: 'Nunito',
    folder: 'nunito',
    packageName: '@expo-google-fonts/nunito',
    licenceFile: 'LICENSE_FONT',
    files: expo('Nunito', [
      ['400Regular', 400, 'normal'],
      ['700Bold', 700, 'normal'],
      ['900Black', 900, 'normal'],
    ]),
    vietnamese: true,
  },
  // Right-to-left scripts no text family draws: Skia takes their letters from these registered
  // fonts whatever the layer's family. Only the Arabic and Hebrew subsets, in the weights used.
  {
    family: 'Noto Sans Arabic',
    folder: 'noto-sans-arabic',
    packageName: '@fontsource/noto-sans-arabic',
    licenceFile: 'LICENSE',
    files: [
      { from: 'files/noto-sans-arabic-arabic-400-normal.woff2', weight: 400, style: 'normal' },
      { from: 'files/noto-sans-arabic-arabic-700-normal.woff2', weight: 700, style: 'normal' },
    ],
    vietnamese: false,
  },
  {
    family: 'Noto Sans Hebrew',
    folder: 'noto-sans-hebrew',
    packageName: '@fontsource/noto-sans-hebrew',
    licenceFile: 'LICENSE',
    files: [
      { from: 'files/noto-sans-hebrew-hebrew-400-normal.woff2', weight: 400, style: 'normal' },
      { from: 'files/noto-sans-hebrew-hebrew-700-normal.woff2', weight: 700, style: 'normal' },
    ],
    vietnamese: false,
  },
  {
    family: 'Noto Color Emoji',
    folder: 'noto-color-emoji',
    packageName: '@fontsource/noto-color-emoji',
    licenceFile: 'LICENSE',
    // Only the whole font: Skia draws a family and style with one typeface (the last registered),
    // so fontsource's unicode-range subsets under one family would leave most emoji to the OS's
    // fallback, which has none. The `emoji` file holds every code point and sequence they hold.
    files: [
      { from: 'files/noto-color-emoji-emoji-400-normal.woff2', weight: 400, style: 'normal' },
    ],
    vietnamese: false,
  },
];

const VIETNAMESE =
  'ĂÂĐÊÔƠƯăâđêôơưẮẰẲẴẶẤẦẨẪẬẾỀỂỄỆỐỒỔỖỘỚỜỞỠỢỨỪỬỮỰắằẳẵặấầẩẫậếềểễệốồổỗộớờởỡợứừửữựỲÝỶỸỴỳýỷỹỵ₫';

function packageVersion(pkg: string): string {
  const json = JSON.parse(readFileSync(path.join(modules, pkg, 'package.json'), 'utf8')) as {
    version: string;
  };
  return json.version;
}

function sync(): void {
  const manifest: FontManifest = { families: [] };
  for (const source of SOURCES) {
    const target = path.join(fontsDir, source.folder);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    const files: FontManifest['families'][number]['files'] = [];
    const ranges: Array<[number, number]> = [];
    for (const file of source.files) {
      const from = path.join(modules, source.packageName, file.from);
      const name = path.basename(file.from);
      const coverage = readCoverage(readFileSync(from));
      ranges.push(...coverage.map((r): [number, number] => [r[0], r[1]]));
      if (source.vietnamese) {
        const missing = [...VIETNAMESE]
          .filter((c) => !(source.dongFromFallback && c === '₫'))
          .filter((c) => !coversCodePoint(coverage, c.codePointAt(0) ?? 0));
        if (missing.length > 0) throw new Error(`${name} lacks Vietnamese: ${missing.join('')}`);
      }
      copyFileSync(from, path.join(target, name));
      files.push({
        file: name,
        weight: file.weight,
        style: file.style,
        sha256: createHash('sha256').update(readFileSync(from)).digest('hex'),
      });
    }
    copyFileSync(
      path.join(modules, source.packageName, source.licenceFile),
      path.join(target, 'OFL.txt'),
    );
    manifest.families.push({
      family: source.family,
      folder: source.folder,
      source: `${source.packageName}@${packageVersion(source.packageName)}`,
      licence: 'OFL-1.1',
      // Precomputed so a worker need not scan the 6 MB emoji font to report missing glyphs.
      coverage: mergeRanges(ranges).map((r): [number, number] => [r[0], r[1]]),
      files,
    });
  }
  // One range per line would make the manifest thousands of lines long.
  const json = JSON.stringify(manifest, null, 2).replace(
    /\[\s+(\d+),\s+(\d+)\s+\]/g,
    (_, a: string, b: string) => `[${a}, ${b}]`,
  );
  writeFileSync(path.join(fontsDir, 'fonts.json'), json + '\n');
  writeFileSync(path.join(fontsDir, 'README.md'), readme(manifest));
  console.log(`Synced ${manifest.families.length} families into templates/fonts.`);
}

function readme(manifest: FontManifest): string {
  const rows = manifest.families.map((f) => {
    const dong = SOURCES.find((s) => s.family === f.family)?.dongFromFallback
      ? ' (₫ from Be Vietnam Pro)'
      : '';
    const faces = f.files
      .map((file) => `${file.weight}${file.style === 'italic' ? ' italic' : ''}`)
      .filter((face, i, all) => all.indexOf(face) === i)
      .join(', ');
    return `| ${f.family}${dong} | \`${f.folder}/\` | ${faces} | \`${f.source}\` | ${f.licence} (\`${f.folder}/OFL.txt\`) |`;
  });
  return [
    '# Bundled fonts',
    '',
    'Templates draw only with these fonts, never with the fonts of the machine, so a render is the',
    'same everywhere. Every text family covers Vietnamese, including stacked marks (Ắ Ẫ Ệ Ỗ Ự), and ₫',
    '(drawn from Be Vietnam Pro where a display family lacks it, as the table says).',
    'Noto Color Emoji is the fallback of every text family, so emoji draw in colour; Noto Sans Arabic',
    'and Noto Sans Hebrew draw those scripts in any family.',
    '',
    'Generated by `npm run fonts:sync` (scripts/sync-fonts.ts); `fonts.json` is what the engine reads.',
    '',
    '| Family | Folder | Weights | Source package | Licence |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

sync();
