import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createStore } from '../../main/store/create-store.js';
import type { Store } from '../../main/store/create-store.js';
import type { OpenDatabaseOptions } from '../../main/store/open-database.js';

/**
 * A fresh temp folder per call, removed after the test (with any store opened in it), so tests
 * share no files and can run in parallel.
 */
export function useTempDirs(): {
  tempDir: () => string;
  tempStore: (options?: OpenDatabaseOptions) => Store;
} {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-store-'));
    dirs.push(dir);
    return dir;
  };
  return {
    tempDir,
    tempStore(options = {}) {
      const store = createStore(tempDir(), options);
      stores.push(store);
      return store;
    },
  };
}
