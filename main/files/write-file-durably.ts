import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Temp file → fsync → rename: a crash leaves either the old state or the whole new file, and a
 * failed write (a full disk) leaves nothing behind. Asynchronous, because an fsync can take
 * milliseconds and the event loop serves the API meanwhile.
 */
export async function writeFileDurably(file: string, bytes: Uint8Array): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    const handle = await fs.promises.open(temp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}
