import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Outputs kept by fingerprint (render-fingerprint.ts) in a folder a CI job can save and restore:
 * `<cache>/<first two hex digits>/<fingerprint>.<ext>`. Entries are written once (temp file and
 * rename, so an interrupted run leaves no half image) and made read-only, because a hit is
 * delivered as a hard link where the file system allows it.
 */
export class RenderCache {
  constructor(readonly dir: string) {}

  file(fingerprint: string, extension: string): string {
    return path.join(this.dir, fingerprint.slice(0, 2), `${fingerprint}.${extension}`);
  }

  /** The cached output, or null when this fingerprint was never rendered into this cache. */
  find(fingerprint: string, extension: string): string | null {
    const file = this.file(fingerprint, extension);
    return fs.existsSync(file) ? file : null;
  }

  /** Keeps a copy of `source` as this fingerprint's output. */
  async put(fingerprint: string, extension: string, source: string): Promise<string> {
    const file = this.file(fingerprint, extension);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${crypto.randomUUID()}.tmp`;
    try {
      await fs.promises.copyFile(source, temp, fs.constants.COPYFILE_FICLONE);
      await fs.promises.chmod(temp, 0o444);
      await fs.promises.rename(temp, file);
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    return file;
  }
}
