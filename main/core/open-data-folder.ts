import fs from 'node:fs';
import type { CoreSettings } from '../config.js';
import { withSavedPreferences } from '../preferences.js';
import type { RenderPool } from '../render/render-pool.js';
import { createStore, type Store } from '../store/create-store.js';
import { startRenderPool, type RenderPoolFactory } from './render-pool-factory.js';

export interface OpenedDataFolder<T> {
  /** The settings asked for, with the folder's saved preferences applied (workers, port). */
  config: T;
  store: Store;
  pool: RenderPool;
}

/**
 * A data folder opened for a core (the app's, the headless server's or a command's): its SQLite
 * store, the settings with its saved preferences, and the render pool started first, so that its
 * threads load the engine while the rest of the core is made. On failure nothing stays open.
 */
export function openDataFolder<T extends CoreSettings & { port?: number }>(
  requested: T,
  makePool: RenderPoolFactory,
  log?: (message: string) => void,
): OpenedDataFolder<T> {
  fs.mkdirSync(requested.dataDir, { recursive: true });
  const store = createStore(requested.dataDir);
  try {
    const config = withSavedPreferences(requested, store.settings);
    return { config, store, pool: startRenderPool(config, makePool, log) };
  } catch (error) {
    store.close();
    throw error;
  }
}
