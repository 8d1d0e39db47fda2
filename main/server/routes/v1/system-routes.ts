import { ImageUrlSettings } from '../../../../shared/image-url-schemas.js';
import { Preferences, SystemInfo } from '../../../../shared/system-schemas.js';
import { PREFERENCES_KEY, savedPreferences } from '../../../preferences.js';
import {
  IMAGE_URL_SETTINGS_KEY,
  readImageUrlSettings,
} from '../../../remote-images/image-url-settings.js';
import { problem, type RouteRegistry } from '../../route-registry.js';
import type { ServerDeps } from '../../server-deps.js';

export function registerSystemRoutes(
  registry: RouteRegistry,
  deps: ServerDeps & {
    system: { version: string; dataDir: string; workers: number; port: () => number };
  },
): void {
  const read = async (): Promise<Preferences> => {
    const raw = await deps.data.settings.get(PREFERENCES_KEY);
    return savedPreferences(() => raw);
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
      mode: deps.mode,
      preferences: await read(),
    }),
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/system/preferences',
      summary: 'Save preferences (workers and port apply at the next start)',
      tags: ['ui'],
      body: Preferences,
      access: { scope: 'admin' },
      responses: { 200: { description: 'Saved preferences', schema: Preferences } },
    },
    async ({ body }) => {
      await deps.data.settings.set(PREFERENCES_KEY, JSON.stringify(body));
      return body;
    },
  );

  registry.add(
    {
      method: 'GET',
      url: '/v1/system/image-urls',
      summary: 'Image URLs in data: whether http(s) image values are fetched, and from which hosts',
      tags: ['system'],
      responses: { 200: { description: 'The setting', schema: ImageUrlSettings } },
    },
    async () => readImageUrlSettings(deps.data.settings),
  );

  registry.add(
    {
      method: 'PUT',
      url: '/v1/system/image-urls',
      summary:
        'Turn image URLs on or off and set the allow-list of hosts (`*.cdn.example.com` for subdomains; empty: any public host)',
      tags: ['system'],
      body: ImageUrlSettings,
      access: { scope: 'admin' },
      responses: {
        200: { description: 'The saved setting', schema: ImageUrlSettings },
        422: problem('validation-failed: a host is not a host name'),
      },
    },
    async ({ body }) => {
      await deps.data.settings.set(IMAGE_URL_SETTINGS_KEY, JSON.stringify(body));
      deps.imageUrlSettingsChanged?.();
      return body;
    },
  );
}
