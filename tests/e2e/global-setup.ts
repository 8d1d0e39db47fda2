import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { requireChromium, ROOT } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The thumbnail cache every browser-test core of the run shares (harness.ts). */
    sharedThumbnailsDir: string;
  }
}

/**
 * The suite needs Chromium and a built UI; build it (only if stale) before any test starts. The
 * cores of the run share one thumbnail cache, as one app's restarts do: its files are keyed by
 * the template drawn and written whole (temp file and rename), so cores can share it safely, and
 * the catalog most tests open is drawn once per run instead of once per test.
 */
export default function setup(project: TestProject): () => void {
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
  const thumbnails = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-e2e-thumbnails-'));
  project.provide('sharedThumbnailsDir', thumbnails);
  return () => fs.rmSync(thumbnails, { recursive: true, force: true });
}
