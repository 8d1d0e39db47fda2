import type { DownloadItem, Session, WebContents } from 'electron';

interface PendingDownload {
  contents: WebContents;
  savePath: string;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Saves a URL of the core into a chosen file. The page hands over a signed link (downloads carry
 * no session header); the window's own web contents starts it (`downloadURL`) exactly as a click
 * in the page would, and `will-download` then gives it the path the user chose. Chromium streams
 * it to disk, so a multi-gigabyte bundle never sits in memory.
 */
export class Downloads {
  private readonly pending = new Map<string, PendingDownload[]>();

  constructor(session: Session) {
    session.on('will-download', (_event, item, contents) => this.claim(item, contents));
  }

  save(contents: WebContents, url: string, savePath: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry: PendingDownload = {
        contents,
        savePath,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.remove(url, entry);
          reject(new Error('The download did not start.'));
        }, 60_000),
      };
      this.pending.set(url, [...(this.pending.get(url) ?? []), entry]);
      contents.downloadURL(url);
    });
  }

  private remove(url: string, entry: PendingDownload): void {
    const rest = (this.pending.get(url) ?? []).filter((candidate) => candidate !== entry);
    if (rest.length) this.pending.set(url, rest);
    else this.pending.delete(url);
  }

  private claim(item: DownloadItem, contents: WebContents | undefined): void {
    const url = item.getURLChain()[0] ?? item.getURL();
    const entry = (this.pending.get(url) ?? []).find(
      (candidate) => candidate.contents === contents,
    );
    // Not ours (a plain link in the page): Chromium's own save dialog handles it.
    if (!entry) return;
    this.remove(url, entry);
    clearTimeout(entry.timer);
    item.setSavePath(entry.savePath);
    item.once('done', (_event, state) => {
      if (state === 'completed') entry.resolve();
      else
        entry.reject(
          new Error(state === 'cancelled' ? 'The download was cancelled.' : 'The download failed.'),
        );
    });
  }
}
