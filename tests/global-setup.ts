import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCompiledCore, buildDirOf, currentBuild, useBuild } from '../bin/compiled-core.mjs';
import { useRamTempDir } from './helpers/ram-temp-dir.js';
import { stopSharedServices } from './helpers/services/shared-services-teardown.js';

/**
 * Once per run, before any test file:
 * - the run's temporary folder, on a RAM disk where there is one (helpers/ram-temp-dir.ts);
 * - the core compiled to JavaScript, which every process the tests spawn runs
 *   (tests/helpers/compiled-core.ts), marked as used by this process so that no newer build
 *   removes it while the run lasts;
 * - the folder where the run's shared PostgreSQL, Redis and S3 servers are recorded as test files
 *   start them (tests/helpers/services/shared-services.ts); the teardown stops them.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const removeTempDir = useRamTempDir();
  let entry = currentBuild();
  if (!entry || !useBuild(entry)) {
    entry = await buildCompiledCore();
    if (!useBuild(entry))
      throw new Error(`The compiled core at ${entry} went away while starting.`);
  }
  // Handed to every test file (helpers/compiled-core.ts), which would otherwise read
  // current.json again in each.
  project.provide('compiledCoreDir', buildDirOf(entry));
  const servicesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-shared-services-'));
  project.provide('sharedServicesDir', servicesDir);
  return async () => {
    await stopSharedServices(servicesDir);
    removeTempDir?.();
  };
}
