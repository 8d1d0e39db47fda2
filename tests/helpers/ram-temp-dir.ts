import fs from 'node:fs';
import path from 'node:path';

const RAM_DISK = '/dev/shm';
/** Below this much free room the run stays on the disk: a batch test writes a few hundred MB. */
const MIN_FREE_BYTES = 4 * 1024 ** 3;

/**
 * Points the run's temporary folder (TMPDIR, which every test file, spawned core, Chromium
 * profile and shared service inherits) at a RAM disk where the machine has one. The tests commit
 * SQLite with synchronous=FULL and PostgreSQL with fsync on, as the product does; on a disk each
 * commit waits for an fsync (30,000 row claims took 100 s instead of 13), on a RAM disk it does not.
 * What the tests check is unchanged: a process killed mid-write loses what it loses on a disk, and
 * the disk-full tests mount their own small filesystems.
 *
 * Returns the teardown that removes the folder, or undefined where the run keeps its temporary
 * folder: a TMPDIR the user set, no RAM disk, or too little room on it.
 */
export function useRamTempDir(): (() => void) | undefined {
  if (process.env.TMPDIR) return undefined;
  let free = 0;
  try {
    fs.accessSync(RAM_DISK, fs.constants.W_OK);
    const stats = fs.statfsSync(RAM_DISK);
    free = stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
  if (free < MIN_FREE_BYTES) return undefined;
  const dir = fs.mkdtempSync(path.join(RAM_DISK, 'render-desk-tests-'));
  // Services that run as another user (PostgreSQL under root) pass through to their own folders.
  fs.chmodSync(dir, 0o711);
  process.env.TMPDIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
