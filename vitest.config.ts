import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The core compiled once for the processes tests spawn (tests/helpers/compiled-core.ts).
    globalSetup: ['tests/global-setup.ts'],
    // Threads the core starts in a test's process run that compiled copy too.
    setupFiles: ['tests/threads-from-compiled-core.ts'],
    // Real servers, real SQLite files and real canvas renders: give them time on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // A test file reuses its worker's loaded modules instead of importing the core again (that
    // was ~200 s of the run's CPU). Files restore what they change in the process (process.env),
    // and none mocks modules.
    isolate: false,
    // expect.poll waits for something the page or a server does; vitest's default 1 s is a
    // guess about speed that a loaded machine breaks. A condition that never holds still fails.
    expect: { poll: { timeout: 15_000 } },
  },
});
