import fs from 'node:fs';

/** The app's version from package.json (packs say `Render Desk <version>`). */
export function appVersion(): string {
  const manifest = JSON.parse(
    fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}
