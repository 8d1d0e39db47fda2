import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The core compiled once for the processes tests spawn (tests/helpers/compiled-core.ts).
    globalSetup: ['tests/global-setup.ts'],
    // Real servers, real SQLite files and real canvas renders: give them time on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
