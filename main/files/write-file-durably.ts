import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Temp file → fsync → rename: a crash leaves either the old state or the whole new file, and a
 * failed write (a full disk) leaves nothing behind. Asynchronous, because an fsync can take
 * milliseconds and the event loop serves the API meanwhile.
 */
export async function writeFileDurably(file: string, bytes: Uint8Array): Promise<void> {
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  try {
    const handle = await openCreatingFolder(temp);
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

/**
 * Opens a new file, making its folder only when it is missing: a batch writes thousands of files
 * into one folder, and a recursive mkdir per file is a needless round trip through the thread pool.
 */
async function openCreatingFolder(file: string): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return fs.promises.open(file, 'wx');
  }
}
