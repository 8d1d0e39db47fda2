import { z } from 'zod';
import type { RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

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

const SystemInfo = z.object({
  version: z.string(),
  url: z.string(),
  port: z.number().int(),
  dataDir: z.string(),
  workers: z.number().int(),
  preferences: Preferences,
});

const PREFERENCES_KEY = 'ui.preferences';

export function registerSystemRoutes(
  registry: RouteRegistry,
  deps: ServerDeps & {
    system: { version: string; dataDir: string; workers: number; port: () => number };
  },
): void {
  const read = (): Preferences => {
    const raw = deps.store.settings.get(PREFERENCES_KEY);
    const parsed = Preferences.safeParse(raw ? JSON.parse(raw) : {});
    return parsed.success ? parsed.data : Preferences.parse({});
  };

  registry.add(
    {
      method: 'GET',
      url: '/v1/system',
      summary: 'This installation: version, URL, data folder, workers and preferences (UI support)',
      tags: ['ui'],
      responses: { 200: { description: 'System info', schema: SystemInfo } },
    },
    async () => ({
      version: deps.system.version,
      url: `http://127.0.0.1:${deps.system.port()}`,
      port: deps.system.port(),
      dataDir: deps.system.dataDir,
      workers: deps.system.workers,
      preferences: read(),
    }),
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/system/preferences',
      summary: 'Save preferences (workers and port apply at the next start)',
      tags: ['ui'],
      body: Preferences,
      access: { admin: true },
      responses: { 200: { description: 'Saved preferences', schema: Preferences } },
    },
    async ({ body }) => {
      deps.store.settings.set(PREFERENCES_KEY, JSON.stringify(body));
      return body;
    },
  );
}

/** Saved workers/port preferences, for the next start (flags and environment still win). */
export function savedPreferences(get: (key: string) => string | null): Preferences {
  const raw = get(PREFERENCES_KEY);
  const parsed = Preferences.safeParse(raw ? JSON.parse(raw) : {});
  return parsed.success ? parsed.data : Preferences.parse({});
}
