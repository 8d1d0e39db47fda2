import crypto from 'node:crypto';

/** Where the signing secret of preview links is kept (apart from other signed links'). */
export const PREVIEW_SECRET_KEY = 'preview-link-secret';

interface SettingsPort {
  getOrCreate(key: string, create: () => string): Promise<string> | string;
  set(key: string, value: string): Promise<void> | void;
}

/**
 * The preview links' signing secret, read at most every `ttlMs` (other API nodes of a cluster
 * see a rotation within that time), and its rotation.
 */
export function previewSecret(
  settings: SettingsPort,
  ttlMs = 5000,
): { current: () => Promise<string>; rotate: () => Promise<void> } {
  let cached: { at: number; value: Promise<string> } | undefined;
  const fresh = () => crypto.randomBytes(32).toString('hex');
  return {
    current: () => {
      if (!cached || Date.now() - cached.at > ttlMs) {
        const value = Promise.resolve(settings.getOrCreate(PREVIEW_SECRET_KEY, fresh));
        cached = { at: Date.now(), value };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    },
    rotate: async () => {
      const next = fresh();
      await settings.set(PREVIEW_SECRET_KEY, next);
      cached = { at: Date.now(), value: Promise.resolve(next) };
    },
  };
}
