import { Preferences } from '../shared/system-schemas.js';

export const PREFERENCES_KEY = 'ui.preferences';

/** Saved workers/port preferences, for the next start (flags and environment still win). */
export function savedPreferences(get: (key: string) => string | null): Preferences {
  const raw = get(PREFERENCES_KEY);
  const parsed = Preferences.safeParse(raw ? JSON.parse(raw) : {});
  return parsed.success ? parsed.data : Preferences.parse({});
}
