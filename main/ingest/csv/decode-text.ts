import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import iconv from 'iconv-lite';
import { SpreadsheetError } from '../spreadsheet-error.js';
import type { EncodingChoice } from './text-encoding.js';

/**
 * Bytes in, NFC text out, one chunk at a time so a 256 MiB file is never held whole.
 * UTF-8 is decoded with `fatal: true` (a bad byte is an error with its line and byte offset,
 * never a silent U+FFFD); the legacy code pages go through iconv-lite. NFC is applied per chunk,
 * holding back the tail from the last ASCII character: a combining mark after the chunk edge can
 * only attach to what follows that character, so nothing before it can change.
 */
export function createTextDecoder(choice: EncodingChoice): Transform {
  const decodeBytes = byteDecoder(choice.encoding);
  let skip = choice.bomLength;
  let byteOffset = 0;
  let lines = 1;
  let heldText = '';
  let firstText = true;

  const emit = (stream: Transform, text: string, final: boolean): void => {
    let all = heldText + text;
    if (firstText && all.length > 0) {
      // A BOM the byte-level skip did not catch (e.g. explicit encoding) must not reach the header.
      if (all.charCodeAt(0) === 0xfeff) all = all.slice(1);
      firstText = false;
    }
    let cut = all.length;
    if (!final) {
      cut = lastAsciiIndex(all);
      if (cut <= 0) {
        heldText = all;
        return;
      }
    }
    heldText = all.slice(cut);
    const ready = all.slice(0, cut).normalize('NFC');
    lines += countNewlines(ready);
    if (ready.length > 0) stream.push(ready);
  };

  return new Transform({
    decodeStrings: true,
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      let bytes = chunk;
      if (skip > 0) {
        const dropped = Math.min(skip, bytes.length);
        bytes = bytes.subarray(dropped);
        skip -= dropped;
        byteOffset += dropped;
      }
      try {
        emit(
          this,
          decodeBytes(bytes, false, { byteOffset, lines: () => lines + countNewlines(heldText) }),
          false,
        );
        byteOffset += bytes.length;
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback: TransformCallback) {
      try {
        emit(this, decodeBytes(Buffer.alloc(0), true, { byteOffset, lines: () => lines }), true);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

interface Position {
  byteOffset: number;
  lines: () => number;
}

type ByteDecoder = (bytes: Buffer, final: boolean, at: Position) => string;

function byteDecoder(encoding: string): ByteDecoder {
  if (encoding === 'utf-8') return utf8Decoder();
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return utf16Decoder(encoding);
  return (bytes, _final, at) => {
    const text = iconv.decode(bytes, encoding, { stripBOM: false });
    const bad = text.indexOf('\uFFFD');
    // Only a byte the code page leaves undefined decodes to U+FFFD: refuse rather than hide it.
    if (bad !== -1) {
      const line = at.lines() + countNewlines(text.slice(0, bad));
      const byteOffset = at.byteOffset + bad;
      throw new SpreadsheetError(
        'unsupported-encoding',
        `The file is not valid ${encoding}: line ${line}, byte ${byteOffset} holds a byte that encoding does not define. ` +
          'Choose another encoding or save the file as "CSV UTF-8".',
        { line, byteOffset },
      );
    }
    return text;
  };
}

/** Decodes whole sequences only, keeping a cut-off tail for the next chunk, so a failure can be located exactly. */
function utf8Decoder(): ByteDecoder {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let tail = Buffer.alloc(0);
  return (bytes, final, at) => {
    const all = tail.length > 0 ? Buffer.concat([tail, bytes]) : bytes;
    const complete = final ? all.length : completeUtf8Length(all);
    tail = Buffer.from(all.subarray(complete));
    const startOffset = at.byteOffset - (all.length - bytes.length);
    try {
      return decoder.decode(all.subarray(0, complete));
    } catch {
      const bad = firstInvalidUtf8(all.subarray(0, complete));
      const prefix = all.subarray(0, Math.max(0, bad)).toString('utf8');
      const line = at.lines() + countNewlines(prefix);
      const byteOffset = startOffset + Math.max(0, bad);
      throw new SpreadsheetError(
        'unsupported-encoding',
        `The file is not valid UTF-8: line ${line}, byte ${byteOffset} holds a byte that does not belong there. ` +
          'Save it again as "CSV UTF-8", or choose its encoding explicitly.',
        { line, byteOffset },
      );
    }
  };
}

function utf16Decoder(encoding: 'utf-16le' | 'utf-16be'): ByteDecoder {
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  return (bytes, final, at) => {
    try {
      return decoder.decode(bytes, { stream: !final });
    } catch {
      throw new SpreadsheetError(
        'unsupported-encoding',
        `The file is not valid ${encoding.toUpperCase()} (a broken character near byte ${at.byteOffset}, line ${at.lines()}). ` +
          'Save it again as "CSV UTF-8".',
        { line: at.lines(), byteOffset: at.byteOffset },
      );
    }
  };
}

/** Length of the prefix that ends on a character boundary (at most 3 bytes are held back). */
export function completeUtf8Length(bytes: Buffer): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(3, end); back += 1) {
    const byte = bytes[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation: keep looking for the lead
    const width = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return width > back ? end - back : end;
  }
  return end;
}

/** Index of the first byte that starts an invalid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i] as number;
    const width =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0;
    if (width === 0) return i;
    const sequence = bytes.subarray(i, i + width);
    if (sequence.length < width) return i;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(sequence);
    } catch {
      return i;
    }
    i += width;
  }
  return -1;
}

function lastAsciiIndex(text: string): number {
  for (let i = text.length - 1; i >= 0; i -= 1) {
    if (text.charCodeAt(i) < 0x80) return i;
  }
  return -1;
}

export function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}
