import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import { SafeZip, type ZipProfile } from './zip/safe-zip.js';
import { ZIP_LIMITS, type ArchiveLimits } from './zip/zip-limits.js';
import type { ZipRefusal } from './zip/zip-refusal.js';

const IMAGE_FILE = /\.(png|jpe?g|webp|gif|svg|avif|tiff?)$/i;

/** The files of an images zip that are unpacked: images, not the Finder's `__MACOSX/` shadows. */
function isImageFile(name: string): boolean {
  return !name.startsWith('__MACOSX/') && IMAGE_FILE.test(name);
}

function invalid(reason: string): AppError {
  return new AppError('invalid-archive', `The images zip cannot be used: ${reason}`);
}

function tooLarge(reason: string): AppError {
  return new AppError('archive-limits-exceeded', `The images zip cannot be used: ${reason}`);
}

/** A refusal of the safe-zip reader, worded for a zip of images. */
function imageZipRefusal(refusal: ZipRefusal): AppError {
  switch (refusal.reason) {
    case 'too-many-entries':
      return tooLarge(`it holds more than ${refusal.limit} files.`);
    case 'entry-too-large':
      return tooLarge(`"${refusal.name}" unpacks to more than ${refusal.limit / 1024 / 1024} MiB.`);
    case 'ratio':
      return tooLarge(`"${refusal.name}" is compressed suspiciously well (a zip bomb?).`);
    case 'total-too-large':
    case 'inflates-past-declared':
    case 'inflates-past-total':
      return tooLarge('The images unpack to more than the allowed size.');
    case 'damaged':
      return invalid(refusal.detail);
    case 'unsafe-name':
      return refusal.problem === 'reserved'
        ? invalid(`"${refusal.name}" has a name that is not allowed for a file.`)
        : refusal.problem === 'backslash'
          ? invalid(`invalid characters in fileName: ${refusal.name}`)
          : invalid(`${refusal.problem}: ${refusal.name}`);
    case 'symlink':
      return invalid(`"${refusal.name}" is a symbolic link.`);
    case 'duplicate':
      return invalid(`"${refusal.name}" appears twice in the zip.`);
    case 'encrypted':
      return invalid(`"${refusal.name}" is password-protected; zip the images without a password.`);
    case 'compression-method':
      return invalid(`"${refusal.name}" uses compression method ${refusal.method}.`);
    case 'missing':
      return invalid(`"${refusal.name}" is not in the zip.`);
    case 'part-too-large':
      return tooLarge(`"${refusal.name}" is larger than allowed.`);
  }
}

/**
 * Unpacks an uploaded zip of images into `destination` (a folder the batch owns) so relative
 * paths in cells resolve against it. The one safe-zip reader checks every name and size before
 * anything is written; only image files are unpacked (others are listed and checked, never
 * inflated). Everything goes to a staging folder renamed into place only when complete.
 */
export async function unpackImageZip(
  zipFile: string,
  destination: string,
  limits: ArchiveLimits = ZIP_LIMITS.images,
): Promise<string> {
  const profile: ZipProfile = {
    limits,
    backslashes: 'refuse',
    reads: isImageFile,
    wording: imageZipRefusal,
  };
  const zip = await SafeZip.open(zipFile, profile);
  const staging = `${destination}.staging-${process.pid}-${Date.now()}`;
  try {
    fs.mkdirSync(staging, { recursive: true });
    for (const name of zip.names.filter(isImageFile)) {
      const target = path.resolve(staging, name);
      // The reader refused every name that could leave the folder; this says so at the write.
      if (!target.startsWith(staging + path.sep)) {
        throw invalid(`"${name}" points outside the archive.`);
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      await zip.extract(name, target);
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
