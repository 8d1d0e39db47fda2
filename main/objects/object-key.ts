import { AppError } from '../../shared/errors.js';

/**
 * Object keys are the app's own names for stored files (`batches/bat_x/12.png`), the same on
 * every store. The character set is the one that means the same thing as an S3 key, a POSIX path
 * and a Windows path: no percent-encoding surprises, no reserved file names to trip on.
 */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._~+=@,-]*$/;
const SEGMENT_PREFIX = /^(?:[A-Za-z0-9_][A-Za-z0-9._~+=@,-]*)?$/;

/** S3 caps keys at 1,024 bytes; file systems cap a name at 255. */
const MAX_KEY_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;

function refuse(what: string, value: string, reason: string): never {
  throw new AppError('validation-failed', `Object ${what} ${JSON.stringify(value)} ${reason}`);
}

function checkSegments(what: string, value: string, segments: string[], last: RegExp): void {
  segments.forEach((segment, index) => {
    const pattern = index === segments.length - 1 ? last : SEGMENT;
    if (segment.length > MAX_SEGMENT_LENGTH) {
      refuse(what, value, `has a part longer than ${MAX_SEGMENT_LENGTH} characters.`);
    }
    if (!pattern.test(segment)) {
      refuse(
        what,
        value,
        segment === ''
          ? 'has an empty part (a leading, trailing or doubled "/").'
          : `has an invalid part ${JSON.stringify(segment)}: parts start with a letter, digit ` +
              'or "_" and use only letters, digits and . _ ~ + = @ , -',
      );
    }
  });
}

/**
 * Checks a key and returns its parts. A part never starts with "." (so no `.` or `..`, and the
 * folder store's temporary files, which do, can never be mistaken for objects).
 */
export function objectKeySegments(key: string): string[] {
  if (typeof key !== 'string' || key === '') refuse('key', String(key), 'is empty.');
  if (key.length > MAX_KEY_LENGTH)
    refuse('key', key, `is longer than ${MAX_KEY_LENGTH} characters.`);
  const segments = key.split('/');
  checkSegments('key', key, segments, SEGMENT);
  return segments;
}

export function assertObjectKey(key: string): void {
  objectKeySegments(key);
}

/**
 * A listing prefix: whole key parts followed by the start of one (`batches/bat_1/` or
 * `batches/bat_1/1`); `''` lists everything.
 */
export function assertObjectPrefix(prefix: string): void {
  if (typeof prefix !== 'string') refuse('prefix', String(prefix), 'is not a string.');
  if (prefix === '') return;
  if (prefix.length > MAX_KEY_LENGTH) {
    refuse('prefix', prefix, `is longer than ${MAX_KEY_LENGTH} characters.`);
  }
  checkSegments('prefix', prefix, prefix.split('/'), SEGMENT_PREFIX);
}

/**
 * Deleting by prefix removes a whole "folder": the prefix must end with "/", or deleting
 * `batches/bat_1` would also delete `batches/bat_10/…`.
 */
export function assertFolderPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || !prefix.endsWith('/') || prefix === '/') {
    refuse(
      'prefix',
      String(prefix),
      'must name a folder and end with "/" (e.g. "batches/bat_1/"); without it ' +
        '"batches/bat_1" would also match "batches/bat_10/…".',
    );
  }
  assertObjectPrefix(prefix);
}
