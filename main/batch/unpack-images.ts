import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { AppError } from '../../shared/errors.js';

export interface ImageZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Refuse entries that inflate more than this many times their compressed size. */
  maxRatio: number;
}

export const DEFAULT_IMAGE_ZIP_LIMITS: ImageZipLimits = {
  maxEntries: 20_000,
  maxEntryBytes: 100 * 1024 * 1024,
  maxTotalBytes: 4 * 1024 * 1024 * 1024,
  maxRatio: 200,
};

const IMAGE_FILE = /\.(png|jpe?g|webp|gif|svg|avif|tiff?)$/i;

/**
 * Unpacks an uploaded zip of images into `destination` (a folder the batch owns) so relative
 * paths in cells resolve against it. Names are checked before anything is written: no absolute
 * paths, no `..`, no symlinks, no duplicates; sizes are counted as bytes inflate, because headers
 * can lie. Everything goes to a staging folder that is renamed into place only when complete.
 */
export async function unpackImageZip(
  zipFile: string,
  destination: string,
  limits: ImageZipLimits = DEFAULT_IMAGE_ZIP_LIMITS,
): Promise<string> {
  const staging = `${destination}.staging-${process.pid}-${Date.now()}`;
  fs.mkdirSync(staging, { recursive: true });
  const zip = await open(zipFile);
  try {
    const entries = await listEntries(zip, limits);
    let total = 0;
    const seen = new Set<string>();
    for (const entry of entries) {
      const name = entry.fileName;
      if (name.endsWith('/') || name.startsWith('__MACOSX/') || !IMAGE_FILE.test(name)) continue;
      const key = name.normalize('NFC').toLowerCase();
      if (seen.has(key)) throw invalid(`"${name}" appears twice in the zip.`);
      seen.add(key);
      if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000)
        throw invalid(`"${name}" is a symbolic link.`);
      if (entry.isEncrypted())
        throw invalid(`"${name}" is password-protected; zip the images without a password.`);
      if (entry.uncompressedSize > limits.maxEntryBytes)
        throw tooLarge(`"${name}" unpacks to more than ${limits.maxEntryBytes / 1024 / 1024} MiB.`);
      if (
        entry.compressedSize > 0 &&
        entry.uncompressedSize / entry.compressedSize > limits.maxRatio &&
        entry.uncompressedSize > 1024 * 1024
      ) {
        throw tooLarge(`"${name}" is compressed suspiciously well (a zip bomb?).`);
      }
      const target = path.resolve(staging, name);
      if (!target.startsWith(staging + path.sep))
        throw invalid(`"${name}" points outside the archive.`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      let written = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          total += chunk.length;
          if (written > limits.maxEntryBytes || total > limits.maxTotalBytes) {
            callback(tooLarge('The images unpack to more than the allowed size.'));
            return;
          }
          callback(null, chunk);
        },
      });
      await pipeline(
        await openEntry(zip, entry),
        meter,
        fs.createWriteStream(target, { flags: 'wx' }),
      );
    }
    fs.rmSync(destination, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(destination), { recursive: true });
    fs.renameSync(staging, destination);
    return destination;
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    zip.close();
  }
}

function invalid(reason: string): AppError {
  return new AppError('invalid-archive', `The images zip cannot be used: ${reason}`);
}

function tooLarge(reason: string): AppError {
  return new AppError('archive-limits-exceeded', `The images zip cannot be used: ${reason}`);
}

function open(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip)
          reject(invalid(error instanceof Error ? error.message : 'not a zip file'));
        else resolve(zip);
      },
    );
  });
}

function listEntries(zip: ZipFile, limits: ImageZipLimits): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      if (entries.length > limits.maxEntries) {
        reject(tooLarge(`it holds more than ${limits.maxEntries} files.`));
        return;
      }
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: Error) => reject(invalid(error.message)));
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream)
        reject(invalid(error instanceof Error ? error.message : 'unreadable entry'));
      else resolve(stream);
    });
  });
}
