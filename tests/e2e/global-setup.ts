import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { requireChromium, ROOT } from './chromium.js';

/** The suite needs Chromium and a built UI; build it (only if stale) before any test starts. */
export default function setup(): void {
  requireChromium();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join('scripts', 'ensure-ui-build.ts')],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('building the UI failed');
}
