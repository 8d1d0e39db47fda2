import type { SourceImage } from './load-image.js';

/** What a draw context keeps decoded source images in (a Map will do). */
export interface SourceImageStore {
  get(key: string): Promise<SourceImage | null> | undefined;
  set(key: string, image: Promise<SourceImage | null>): void;
}

/**
 * Source images decoded for one PDF, least recently used first out once their pixels pass
 * `maxBytes`. A sheet of badges reuses its logo on every item (one decode, one embedded image);
 * a part of 400 rows with a photo each must not hold 400 decoded photos at once. An image
 * evicted and drawn again is decoded and embedded again: correct, only larger.
 */
export class SourceImageCache implements SourceImageStore {
  private readonly entries = new Map<
    string,
    { image: Promise<SourceImage | null>; bytes: number }
  >();
  private bytes = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string): Promise<SourceImage | null> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.image;
  }

  set(key: string, image: Promise<SourceImage | null>): void {
    const entry = { image, bytes: 0 };
    this.entries.set(key, entry);
    void image.then(
      (decoded) => {
        if (this.entries.get(key) !== entry || !decoded) return;
        entry.bytes = decoded.width * decoded.height * 4;
        this.bytes += entry.bytes;
        this.evict(key);
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
  }

  /** Pixels held now (decoded images only). */
  get size(): number {
    return this.bytes;
  }

  private evict(keep: string): void {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      if (key === keep) continue;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}
