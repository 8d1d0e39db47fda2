import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the browser tests find Chromium and the repository (no test hooks here: see harness). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`, built from the same sources as
 * `chromium`): the build Playwright itself drives for headless runs. The same Blink draws the
 * pages; without the full browser's window and UI layers it spends about a fifth less CPU per
 * test, and the browser tests are CPU-bound on two cores.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

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

/**
 * Where the harness leaves the close of its worker's Chromium for the worker's environment
 * (browser-environment.ts), which loads its own copy of these modules: a registered symbol is the
 * same in both.
 */
export const CLOSE_WORKER_BROWSER = Symbol.for('render-desk.e2e.close-worker-browser');

/** Fails loudly, with the fix, when the browser the suite drives is not installed. */
export function requireChromium(): void {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM}. The browser tests drive a real Chromium: install it ` +
        '(Debian/Ubuntu: `sudo apt-get install -y chromium-headless-shell`; `npm test` does this itself) or set CHROMIUM_PATH to its binary.',
    );
  }
}
