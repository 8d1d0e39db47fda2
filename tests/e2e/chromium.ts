import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the browser tests find Chromium and the repository (no test hooks here: see harness). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails loudly, with the fix, when the browser the suite drives is not installed. */
export function requireChromium(): void {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM}. The browser tests drive a real Chromium: install it ` +
        '(Debian/Ubuntu: `sudo apt-get install -y chromium`; `npm test` does this itself) or set CHROMIUM_PATH to its binary.',
    );
  }
}
