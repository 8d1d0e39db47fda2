import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Writes `file` without ever writing through what is already there: the bytes go to a new temp
 * file beside it (created exclusively, so no link can be followed) and are renamed over the
 * name. A symbolic link at `file` is replaced by the file, never followed; its target, and the
 * target of a dangling link, are left untouched. Where a folder is the boundary of what may be
 * written (MCP's --allow), this keeps every write inside it once the folder itself is checked.
 */
export async function replaceFile(
  file: string,
  content: Uint8Array | Readable | NodeJS.ReadableStream,
  mode = 0o644,
): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomUUID()}.tmp`);
  try {
    // 'wx' is O_CREAT | O_EXCL: it fails on anything already at the name, a link included.
    if (content instanceof Uint8Array)
      await fs.promises.writeFile(temp, content, { flag: 'wx', mode });
    else await pipeline(content, fs.createWriteStream(temp, { flags: 'wx', mode }));
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}
