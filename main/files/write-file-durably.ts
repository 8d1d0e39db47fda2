import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Temp file → fsync → rename: a crash leaves either the old state or the whole new file, and a
 * failed write (a full disk) leaves nothing behind.
 */
export function writeFileDurably(file: string, bytes: Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    const fd = fs.openSync(temp, 'w');
    try {
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
