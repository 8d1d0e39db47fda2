import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Browser tests: real cores (compiled once per run) and real Chromium. Three files at a time on
 * two cores: a browser test spends about half its time waiting on the page (debounces, network
 * idle, toasts, polls), and the files share nothing but the thumbnail cache and their worker's
 * Chromium (each test has its own core, data folder and browser context).
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
    // A worker runs file after file with the modules it loaded (playwright-core, the harness,
    // the compiled core) and the Chromium it launched, instead of a new process, imports and
    // launch per file. The files change nothing in the process (no process.env, no mocks, no
    // globals) and close what they open; a file's tests already shared those modules as tests of
    // different files now do. The browser is closed with the worker (browser-environment.ts),
    // contexts a file left open after it (setup-file.ts).
    isolate: false,
    environment: './tests/e2e/browser-environment.ts',
    setupFiles: ['tests/e2e/setup-file.ts'],
    // expect.poll waits for something the page or a server does; vitest's default 1 s is a
    // guess about speed that a loaded machine breaks. A condition that never holds still fails.
    expect: { poll: { timeout: 15_000 } },
    // Each test's core runs in the test's process from the compiled copy (harness.ts): loaded
    // by Node itself, not passed through vitest's transform like the test files.
    server: { deps: { external: [/\/dist\/cli\//] } },
  },
});
