import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import {
  checkDeclaredSizes,
  checkEntryCount,
  createInflateMeter,
  DEFAULT_ARCHIVE_LIMITS,
  refuse,
} from './archive-limits.js';
import type { ArchiveLimits, InflateMeter } from './archive-limits.js';
import { SpreadsheetError } from './spreadsheet-error.js';

/**
 * A zip opened through its central directory (yauzl), never through local headers, with the
 * bomb limits applied before any entry is inflated and every inflated byte counted. Streams
 * come out as UTF-8 text decoded across chunk edges.
 */
export interface ZipArchive {
  readonly names: string[];
  has(name: string): boolean;
  /** Reads a small part whole, refusing it past `maxBytes`. */
  readText(name: string, maxBytes?: number): Promise<string>;
  /** Streams a part as UTF-8 text, counted against the archive limits. */
  openText(name: string): Promise<Readable>;
  close(): void;
}

export class NotAZipError extends SpreadsheetError {}

const SMALL_PART_LIMIT = 16 * 1024 * 1024;

function openZipFile(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (error, zip) => {
        if (error || !zip) {
          reject(damaged(error));
          return;
        }
        resolve(zip);
      },
    );
  });
}

function damaged(error: unknown): SpreadsheetError {
  const reason = error instanceof Error ? error.message : String(error);
  return new NotAZipError(
    'invalid-spreadsheet',
    `This is not a readable .xlsx file (the zip archive is damaged: ${reason}). ` +
      'Open it in the spreadsheet application and save it again as .xlsx.',
  );
}

function readCentralDirectory(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      // Directory entries hold no data; OOXML part names are case-insensitive.
      if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: unknown) => reject(damaged(error)));
    zip.readEntry();
  });
}

export async function openZip(
  file: string,
  limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS,
): Promise<ZipArchive> {
  const zip = await openZipFile(file);
  try {
    // The declared count first: a million-entry archive is refused before it is listed.
    checkEntryCount(zip.entryCount, limits);
    const entries = await readCentralDirectory(zip);
    checkDeclaredSizes(
      [...entries.values()].map((entry) => ({
        name: entry.fileName,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
      })),
      limits,
    );
    return createArchive(zip, entries, createInflateMeter(limits));
  } catch (error) {
    zip.close();
    throw error;
  }
}

function createArchive(zip: ZipFile, entries: Map<string, Entry>, meter: InflateMeter): ZipArchive {
  const byLowerName = new Map<string, Entry>();
  for (const [name, entry] of entries) byLowerName.set(name.toLowerCase(), entry);
  const find = (name: string): Entry | undefined =>
    entries.get(name) ?? byLowerName.get(name.toLowerCase());

  async function openRaw(name: string): Promise<{ entry: Entry; stream: Readable }> {
    const entry = find(name);
    if (!entry) throw damaged(new Error(`missing part ${name}`));
    if (entry.isEncrypted()) {
      throw new SpreadsheetError(
        'invalid-spreadsheet',
        'The workbook is password-protected. Remove the password in the spreadsheet application and upload it again.',
      );
    }
    const raw = await new Promise<Readable>((resolve, reject) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) reject(damaged(error));
        else resolve(stream);
      });
    });
    const counted = meter.meter({
      name: entry.fileName,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
    });
    raw.on('error', (error: unknown) => {
      // yauzl notices the lie first when an entry inflates past its declared size.
      const lied = error instanceof Error && /too many bytes in the stream/.test(error.message);
      counted.destroy(
        error instanceof SpreadsheetError
          ? error
          : lied
            ? refuse(
                `${entry.fileName} inflates past the ${entry.uncompressedSize} bytes it declares`,
              )
            : damaged(error),
      );
    });
    return { entry, stream: raw.pipe(counted) };
  }

  return {
    names: [...entries.keys()],
    has: (name) => find(name) !== undefined,
    async readText(name, maxBytes = SMALL_PART_LIMIT) {
      const { entry, stream } = await openRaw(name);
      if (entry.uncompressedSize > maxBytes) {
        stream.destroy();
        throw damaged(new Error(`${name} is larger than ${maxBytes} bytes`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          stream.destroy();
          throw damaged(new Error(`${name} is larger than ${maxBytes} bytes`));
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    async openText(name) {
      const { stream } = await openRaw(name);
      stream.setEncoding('utf8');
      return stream;
    },
    close: () => zip.close(),
  };
}
