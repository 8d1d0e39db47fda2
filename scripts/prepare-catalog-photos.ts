import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * Derives the catalog's photographs from openly licensed files shipped in Debian packages. The
 * packages are not needed at run or test time: the processed files are checked in, and this
 * script is how they were made (same source, same bytes). Each photo names its package, version,
 * path inside the package, author and licence, and the script writes the template folder's
 * CREDITS.md from the same record.
 *
 * To run it, unpack each named package version under one folder, one subfolder per package:
 *
 *   apt-get download python3-skimage=0.19.3-8
 *   dpkg-deb -x python3-skimage_0.19.3-8_all.deb <folder>/python3-skimage
 *   npx tsx scripts/prepare-catalog-photos.ts <folder> [slug…]   (no slug: every photo)
 *
 * The source file's SHA-256 is checked first, so a different package version is refused rather
 * than silently giving other pixels.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const catalogDir = path.join(repoRoot, 'templates', 'catalog');

interface Photo {
  folder: string;
  file: string;
  what: string;
  /** Debian package, its version and the file's path inside it. */
  pkg: string;
  version: string;
  inside: string;
  sha256: string;
  author: string;
  /** Where the author's licence statement is, in the package. */
  statement: string;
  licence: string;
  licenceUrl: string;
  /** Output size: the whole source frame, enlarged with Lanczos to what the largest frame shows. */
  width: number;
  height: number;
  quality: number;
  changes: string;
}

const PHOTOS: Photo[] = [
  {
    folder: 'grand-opening',
    file: 'espresso.jpg',
    what: 'espresso in a red cup and saucer on a wooden café table',
    pkg: 'python3-skimage',
    version: '0.19.3-8',
    inside: 'usr/lib/python3/dist-packages/skimage/data/coffee.png',
    sha256: 'cc02f8ca188b167c775a7101b5d767d1e71792cf762c33d6fa15a4599b5a8de7',
    author: 'Rachel Michetti (courtesy of Pikolo Espresso Bar)',
    statement:
      'the docstring of `skimage.data.coffee` (in `skimage/data/_fetchers.py` of the same package) says “No copyright restrictions. CC0 by the photographer (Rachel Michetti).” Debian’s `copyright` file covers the package as a whole with BSD-3-Clause; the photograph’s own statement, from its photographer, is the CC0 dedication',
    licence: 'CC0 1.0',
    licenceUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
    width: 1200,
    height: 800,
    quality: 80,
    changes: 'enlarged from 600×400 to 1200×800 (Lanczos), saved as JPEG',
  },
  {
    folder: 'recipe-card',
    file: 'pizza.jpg',
    what: 'home-baked chicken and pesto pizza in its pan',
    pkg: 'scribus-template',
    version: '1.2.4.1-6',
    inside: 'usr/share/scribus/templates/menu2/pizza.jpg',
    sha256: '2897692e5876d0ac7b82b7e2a5e2bc0d4060bc125af227702d6e09fc63edc84b',
    author: 'Riku Leino (author of the Scribus “menu2” pizza-house flyer template it ships in)',
    statement:
      'usr/share/doc/scribus-template/copyright: "Scribus templates by Riku Leino listed above … have been placed into public domain by their author", listing “Simple A4 flyer/menu for a pizza house (menu2)”',
    licence: 'Public domain',
    licenceUrl: 'https://creativecommons.org/publicdomain/mark/1.0/',
    width: 1280,
    height: 960,
    quality: 70,
    changes: 'enlarged from 800×600 to 1280×960 (Lanczos), saved as JPEG',
  },
];

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function save(photo: Photo, sourceRoot: string): Promise<void> {
  const from = path.join(sourceRoot, photo.pkg, photo.inside);
  if (!existsSync(from)) {
    throw new Error(`${from} is missing: unpack ${photo.pkg} ${photo.version} there first`);
  }
  const bytes = readFileSync(from);
  if (sha256(bytes) !== photo.sha256) {
    throw new Error(`${from} is not the file of ${photo.pkg} ${photo.version} (SHA-256 differs)`);
  }
  const out = await sharp(bytes)
    .removeAlpha()
    .resize(photo.width, photo.height, { fit: 'fill', kernel: 'lanczos3' })
    .jpeg({ quality: photo.quality, mozjpeg: true })
    .toBuffer();
  if (out.length > 150 * 1024) throw new Error(`${photo.folder}/${photo.file} is over 150 KB`);
  writeFileSync(path.join(catalogDir, photo.folder, photo.file), out);
  console.log(`${photo.folder}/${photo.file}  ${(out.length / 1024).toFixed(1)} KB`);
}

/** CREDITS.md of one template folder: each photograph with its source, licence and changes. */
function credits(photos: Photo[]): string {
  const lines = [
    '# Credits of this template’s photographs',
    '',
    'Made by `scripts/prepare-catalog-photos.ts` from the files below, taken from Debian packages.',
    'The other images of this folder (the logo) are drawn by `scripts/generate-sample-assets.ts` and',
    'are the project’s own (CC0 1.0). Brand names and people in the sample values are invented.',
    '',
    '| File | Shows | Source | Author | Licence | Changes |',
    '|---|---|---|---|---|---|',
  ];
  for (const p of photos) {
    lines.push(
      `| \`${p.file}\` | ${p.what} | Debian package \`${p.pkg}\` ${p.version}, \`${p.inside}\` | ${p.author} | [${p.licence}](${p.licenceUrl}) | ${p.changes} |`,
    );
  }
  lines.push('', 'Licence statements, as the packages give them:', '');
  for (const p of photos) lines.push(`- \`${p.file}\`: ${p.statement}.`);
  lines.push(
    '',
    'A public-domain dedication asks for no notice; the author is named here all the same. The',
    'changed files are offered under the same terms as their sources.',
  );
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const [sourceRoot, ...slugs] = process.argv.slice(2);
  if (!sourceRoot) {
    throw new Error('usage: npx tsx scripts/prepare-catalog-photos.ts <unpacked packages> [slug…]');
  }
  const only = new Set(slugs);
  const chosen = PHOTOS.filter((p) => only.size === 0 || only.has(p.folder));
  for (const photo of chosen) await save(photo, path.resolve(sourceRoot));
  for (const folder of new Set(chosen.map((p) => p.folder))) {
    const photos = PHOTOS.filter((p) => p.folder === folder);
    writeFileSync(path.join(catalogDir, folder, 'CREDITS.md'), credits(photos));
  }
}

await main();
