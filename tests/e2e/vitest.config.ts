import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Browser tests: real cores (compiled once per run) and real Chromium. Three files at a time on
 * two cores: a browser test spends about half its time waiting on the page (debounces, network
 * idle, toasts, polls), and the files share nothing but the thumbnail cache (each test has its
 * own core, data folder and browser context).
 */
export default defineConfig({
  root,
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/global-setup.ts', 'tests/e2e/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 3,
    // expect.poll waits for something the page or a server does; vitest's default 1 s is a
    // guess about speed that a loaded machine breaks. A condition that never holds still fails.
    expect: { poll: { timeout: 15_000 } },
    // Each test's core runs in the test's process from the compiled copy (harness.ts): loaded
    // by Node itself, not passed through vitest's transform like the test files.
    server: { deps: { external: [/\/dist\/cli\//] } },
  },
});
