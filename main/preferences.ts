import { z } from 'zod';

/** Preferences the UI stores in the data directory; workers and port apply at the next start. */
export const Preferences = z
  .object({
    workers: z.number().int().min(1).max(64).nullable().default(null),
    port: z.number().int().min(0).max(65535).nullable().default(null),
    theme: z.enum(['system', 'light', 'dark']).default('system'),
    language: z.enum(['system', 'en', 'vi']).default('system'),
  })
  .strict();
export type Preferences = z.infer<typeof Preferences>;

export const PREFERENCES_KEY = 'ui.preferences';

/** Saved workers/port preferences, for the next start (flags and environment still win). */
export function savedPreferences(get: (key: string) => string | null): Preferences {
  const raw = get(PREFERENCES_KEY);
  const parsed = Preferences.safeParse(raw ? JSON.parse(raw) : {});
  return parsed.success ? parsed.data : Preferences.parse({});
}
