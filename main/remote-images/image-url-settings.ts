import { ImageUrlSettings } from '../../shared/image-url-schemas.js';

/** Where the setting is kept: the data's settings (PostgreSQL in a cluster, so workers see it). */
export const IMAGE_URL_SETTINGS_KEY = 'image-urls';

interface SettingsPort {
  get(key: string): Promise<string | null> | string | null;
}

export async function readImageUrlSettings(settings: SettingsPort): Promise<ImageUrlSettings> {
  const raw = await settings.get(IMAGE_URL_SETTINGS_KEY);
  let parsed: unknown = {};
  try {
    parsed = raw ? JSON.parse(raw) : {};
  } catch {
    parsed = {};
  }
  const result = ImageUrlSettings.safeParse(parsed);
  return result.success ? result.data : ImageUrlSettings.parse({});
}

/**
 * The setting as renders read it: re-read at most every `ttlMs` (a batch asks once a row; in a
 * cluster that is a PostgreSQL query), so a change applies within a second or two. `override`
 * is the command line's `--allow-image-urls`, which turns them on for that command.
 */
export function imageUrlSettingsSource(
  settings: SettingsPort,
  options: { ttlMs?: number; override?: Partial<ImageUrlSettings> } = {},
): { read: () => Promise<ImageUrlSettings>; invalidate: () => void } {
  const ttl = options.ttlMs ?? 2000;
  let cached: { at: number; value: Promise<ImageUrlSettings> } | undefined;
  return {
    read: () => {
      if (!cached || Date.now() - cached.at > ttl) {
        const value = readImageUrlSettings(settings).then((saved) => ({
          ...saved,
          ...options.override,
        }));
        cached = { at: Date.now(), value };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    },
    invalidate: () => (cached = undefined),
  };
}
