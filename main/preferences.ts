import { Preferences } from '../shared/system-schemas.js';
import type { CoreSettings } from './config.js';

export const PREFERENCES_KEY = 'ui.preferences';

/** Saved workers/port preferences, for the next start (flags and environment still win). */
export function savedPreferences(get: (key: string) => string | null): Preferences {
  const raw = get(PREFERENCES_KEY);
  const parsed = Preferences.safeParse(raw ? JSON.parse(raw) : {});
  return parsed.success ? parsed.data : Preferences.parse({});
}

/**
 * Workers and port chosen in the app's Settings apply from the next start, unless a flag or the
 * environment sets them (scripts and CI keep control). A command line core has no port.
 */
export function withSavedPreferences<T extends CoreSettings & { port?: number }>(
  config: T,
  settings: { get(key: string): string | null },
): T {
  const saved = savedPreferences((key) => settings.get(key));
  return {
    ...config,
    ...(saved.workers !== null && !config.explicit?.workers ? { workers: saved.workers } : {}),
    ...(saved.port !== null && config.port !== undefined && !config.explicit?.port
      ? { port: saved.port }
      : {}),
  };
}
