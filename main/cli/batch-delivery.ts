import fs from 'node:fs';
import path from 'node:path';
import type { BatchService } from '../batch/batch-service.js';
import { createBundleStream } from '../batch/bundle-writer.js';
import { sheetPartName } from '../batch/output-address.js';
import { csvLine } from '../batch/spreadsheet-safety.js';
import { replaceFile } from '../files/replace-file.js';
import type { SheetPlace } from '../../shared/sheet-plan.js';

/** One image of a batch's result: its name in the folder or zip, and where its bytes are. */
export interface Deliverable {
  name: string;
  file: string;
  /** A cache entry (read-only, never changed): a folder may hard-link it instead of copying. */
  cached: boolean;
}

export interface ManifestLine {
  rowIndex: number;
  status: 'rendered' | 'unchanged' | 'failed';
  file: string;
  error: string;
  /** Sheet runs: where the row is printed (absent for a failed row). */
  sheet?: SheetPlace | undefined;
}

/** The manifest; a sheet run's has the app's sheet columns too, so both read alike. */
export function manifestCsv(lines: readonly ManifestLine[], sheets = false): Buffer {
  const header = ['rowIndex', 'status', 'file', 'error'];
  if (sheets) header.push('sheetFile', 'sheet', 'page', 'backPage', 'position');
  const text = [csvLine(header)];
  for (const line of lines) {
    const cells: (string | number)[] = [line.rowIndex, line.status, line.file, line.error];
    const place = line.sheet;
    if (sheets && place)
      cells.push(
        sheetPartName(place.part),
        place.sheet,
        place.page,
        place.backPage ?? '',
        place.position,
      );
    else if (sheets) cells.push('', '', '', '', '');
    text.push(csvLine(cells));
  }
  // The BOM makes spreadsheet apps read it as UTF-8.
  return Buffer.from(`\ufeff${text.join('')}`, 'utf8');
}

/** True for `--out something.zip`: the result is one zip; anything else names a folder. */
export function isZipTarget(out: string): boolean {
  return path.extname(out).toLowerCase() === '.zip';
}

/**
 * Writes the images and manifest.csv into `out`: a zip (stored entries, as the app's bundle) or a
 * folder. In a folder, cache entries are hard-linked where the file system allows (no bytes
 * copied: a second CI run over 500 unchanged images costs no disk writes) and copied elsewhere.
 */
export async function deliver(
  out: string,
  images: readonly Deliverable[],
  manifest: Buffer,
): Promise<void> {
  if (isZipTarget(out)) {
    await fs.promises.mkdir(path.dirname(out), { recursive: true });
    const sizes = await Promise.all(images.map((image) => fs.promises.stat(image.file)));
    await replaceFile(
      out,
      createBundleStream(
        images.map((image, i) => ({ name: image.name, file: image.file, size: sizes[i]!.size })),
        [{ name: 'manifest.csv', content: manifest }],
      ),
    );
    return;
  }
  // Synchronous calls: this is the command's last step, with nothing else for the thread to do,
  // and a round trip through the thread pool per file made a thousand links 5 times slower.
  fs.mkdirSync(out, { recursive: true });
  let linking = true;
  for (const image of images) {
    const target = path.join(out, image.name);
    if (image.cached && linking) {
      try {
        linkReplacing(image.file, target);
        continue;
      } catch {
        // Another file system, or one without hard links: copy this one and the rest.
        linking = false;
      }
    }
    fs.rmSync(target, { force: true });
    fs.copyFileSync(image.file, target, fs.constants.COPYFILE_FICLONE | fs.constants.COPYFILE_EXCL);
  }
  // Never through a link an earlier run (or a downloaded folder) left at the name.
  await replaceFile(path.join(out, 'manifest.csv'), manifest);
}

/**
 * Writes a batch's own bundle into `out`: into a zip, the very bytes the API serves for it; into
 * a folder, its entries (images or sheets, and manifest.csv) as files. A plain run of the
 * command line gives the same result as the app and a cluster for the same input.
 */
export async function deliverBundle(
  batches: Pick<BatchService, 'bundle' | 'bundleContents'>,
  batchId: string,
  out: string,
): Promise<void> {
  if (isZipTarget(out)) {
    await fs.promises.mkdir(path.dirname(out), { recursive: true });
    const { stream } = await batches.bundle(batchId, true);
    await replaceFile(out, stream);
    return;
  }
  const { entries, extras } = await batches.bundleContents(batchId, true);
  await fs.promises.mkdir(out, { recursive: true });
  for (const entry of entries) {
    const source = entry.open
      ? await entry.open()
      : entry.file
        ? fs.createReadStream(entry.file)
        : null;
    if (source) await replaceFile(path.join(out, entry.name), source);
  }
  for (const extra of extras) await replaceFile(path.join(out, extra.name), extra.content);
}

/** A hard link at `target`, replacing a file of an earlier run there. */
function linkReplacing(file: string, target: string): void {
  try {
    fs.linkSync(file, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    fs.rmSync(target, { force: true });
    fs.linkSync(file, target);
  }
}
