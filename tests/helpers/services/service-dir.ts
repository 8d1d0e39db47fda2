import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Whether a user other than the folder's owner can pass through every folder of `dir`. */
function traversableByOthers(dir: string, uid: number): boolean {
  for (let current = fs.realpathSync(dir); ; current = path.dirname(current)) {
    const stat = fs.statSync(current);
    const passable = stat.uid === uid ? (stat.mode & 0o100) !== 0 : (stat.mode & 0o001) !== 0;
    if (!passable) return false;
    if (current === path.dirname(current)) return true;
  }
}

/**
 * A new temporary folder for one service. When the service runs as another user (PostgreSQL
 * under root), every parent must let that user through: the system's temp folder usually does;
 * otherwise a dedicated world-traversable parent is made.
 */
export function makeServiceDir(name: string, runAsUid?: number): string {
  if (runAsUid === undefined) return fs.mkdtempSync(path.join(os.tmpdir(), `render-desk-${name}-`));
  let parent = os.tmpdir();
  if (!traversableByOthers(parent, runAsUid)) {
    parent = '/var/tmp/render-desk-services';
    fs.mkdirSync(parent, { recursive: true, mode: 0o755 });
    fs.chmodSync(parent, 0o755);
    if (!traversableByOthers(parent, runAsUid)) {
      throw new Error(
        `No temporary folder that user ${runAsUid} can reach (tried ${os.tmpdir()} and ${parent}).`,
      );
    }
  }
  const dir = fs.mkdtempSync(path.join(parent, `render-desk-${name}-`));
  // Others may pass through (to the data folder they own) but not list or write.
  fs.chmodSync(dir, 0o711);
  return dir;
}

/** An executable named `name` on PATH, or undefined. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The last `bytes` of a log file, for messages about a service that failed. */
export function logTail(file: string, bytes = 4000): string {
  try {
    const handle = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(handle).size;
      const length = Math.min(size, bytes);
      const buffer = Buffer.alloc(length);
      fs.readSync(handle, buffer, 0, length, size - length);
      return buffer.toString('utf8');
    } finally {
      fs.closeSync(handle);
    }
  } catch (error) {
    return `(no log: ${(error as Error).message})`;
  }
}
