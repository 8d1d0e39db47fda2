import yauzl from 'yauzl';
import type { Entry } from 'yauzl';
import type { ZipRefusal } from './zip-refusal.js';

/**
 * The checks every entry of every zip passes before anything is inflated: a safe name (no
 * zip-slip, no reserved characters or device names), not a symbolic link, not encrypted, a
 * compression method we read, and no other entry with the same name once compared the way
 * Windows and macOS file systems compare (NFC, case folded).
 */

/** How backslashes in names are taken: as separators (Windows tools that break the spec) or refused. */
export type BackslashPolicy = 'separator' | 'refuse';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const STORED = 0;
const DEFLATED = 8;

/** The entry's name as the zip means it: UTF-8 when flagged (or an Info-ZIP Unicode path), else CP437. */
export function entryName(entry: Entry, backslashes: BackslashPolicy): string {
  // The reader opens zips with decodeStrings off so that names are checked here, not by yauzl.
  return yauzl.getFileNameLowLevel(
    entry.generalPurposeBitFlag,
    entry.fileNameRaw,
    entry.extraFields,
    backslashes === 'refuse',
  );
}

export function checkEntryName(name: string): ZipRefusal | undefined {
  if (name.includes('\\')) return { reason: 'unsafe-name', name, problem: 'backslash' };
  if (/^[a-zA-Z]:/.test(name) || name.startsWith('/')) {
    return { reason: 'unsafe-name', name, problem: 'absolute path' };
  }
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.includes('..'))
    return { reason: 'unsafe-name', name, problem: 'invalid relative path' };
  if (
    parts.some((part) => part === '' || part === '.') ||
    // eslint-disable-next-line no-control-regex -- control characters are what this refuses
    /[\u0000-\u001f\u007f:*?"<>|]/.test(name) ||
    parts.some((part) => /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(part))
  ) {
    return { reason: 'unsafe-name', name, problem: 'reserved' };
  }
  return undefined;
}

export function isSymlink(entry: Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

/** Whether we can inflate the entry: not encrypted, stored or deflated. */
export function checkReadable(entry: Entry, name: string): ZipRefusal | undefined {
  if (entry.isEncrypted()) return { reason: 'encrypted', name };
  if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED) {
    return { reason: 'compression-method', name, method: entry.compressionMethod };
  }
  return undefined;
}

/** Two names that would land on one file on a case-insensitive, normalising file system. */
export function collisionKey(name: string): string {
  return name.replace(/\/$/, '').normalize('NFC').toLowerCase();
}
