// `npm test`: everything the project checks, on a bare machine, in one command.
//
//   1. The system programs the tests drive (test-prerequisites.mjs) and Electron's type
//      definitions (electron-types.mjs): installed when missing, or one message naming the command
//      to run, before anything starts.
//   2. Lint, format and type-check start at once; beside them, while apt-get installs what is
//      missing (mostly waiting on the network and the disk), the UI the browser tests open is
//      built and the core compiled to JavaScript, which every spawned process (CLI, serve, cluster
//      nodes, browser-test cores) runs instead of transpiling the TypeScript at each start.
//   3. The unit and API tests, beside the checks that are still running; then the browser tests.
//   4. One summary: files, tests, skipped, browser tests, checks, and the wall time.
//
// Plain JavaScript: nothing has to be compiled before it runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { provideElectronTypes } from './electron-types.mjs';
import { prerequisitesPlan } from './test-prerequisites.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);

// Decided at once: a user who cannot install what is missing hears so in the first seconds.
const prerequisites = prerequisitesPlan();
if (prerequisites.message) {
  console.error(prerequisites.message);
  process.exit(1);
}
if (!provideElectronTypes(ROOT)) process.exit(1);

/** The commands still running: stopped when the run cannot go on. */
const running = new Set();

/** Runs a command to the end; output is kept (and printed only when `show` or it fails). */
function run(name, command, args, { show = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', show ? 'inherit' : 'pipe', show ? 'inherit' : 'pipe'],
    });
    running.add(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ name, ok: code === 0, code: code ?? signal, output, ms: Date.now() - t0 });
    });
  });
}

// 2. Checks from the start, beside everything else: they mostly wait on files while the tests
// wait on servers. Lint and format remember the files that passed, by content (node_modules/.cache), as tsc -b
// does its build: a run after a small change checks what changed. No rule reads types, so a
// file's result depends on its own text and the config only.
const cacheFlags = (file) => [
  '--cache',
  '--cache-strategy',
  'content',
  '--cache-location',
  path.join(ROOT, 'node_modules', '.cache', file),
];
const checks = Promise.all([
  run('lint', process.execPath, [
    bin('eslint', 'bin/eslint.js'),
    ...cacheFlags(path.join('eslint', '.eslintcache')),
    '.',
  ]),
  run('format', process.execPath, [
    bin('prettier', 'bin/prettier.cjs'),
    '--check',
    ...cacheFlags(path.join('prettier', '.prettier-cache')),
    '.',
  ]),
  run('type-check', process.execPath, [bin('typescript', 'bin/tsc'), '-b', 'tsconfig.build.json']),
]);

// Built once, beside the checks and the install. The compiled core is reused by every spawned
// process that runs the core (bin/compiled-core.mjs keys it by the sources, so a changed file
// means a new build).
const built = (async () => {
  const ui = await run('building the UI', process.execPath, [
    '--import',
    'tsx',
    path.join('scripts', 'ensure-ui-build.ts'),
  ]);
  if (!ui.ok) return ui;
  const core = await run('compiling the core', process.execPath, [
    path.join('bin', 'compiled-core.mjs'),
  ]);
  return core.ok ? null : core;
})();
/** Ends the run at once: the commands still running are stopped. */
function stop() {
  for (const child of running) child.kill();
  process.exit(1);
}
const installed = prerequisites.install?.() ?? Promise.resolve(true);
// An install that fails ends the run when it fails (its message is printed), not after the builds.
void installed.then((ok) => ok || stop());
const failedBuild = await built;
if (failedBuild) {
  console.error(failedBuild.output.trim());
  console.error(`npm test: ${failedBuild.name} failed (exit ${failedBuild.code}).`);
  stop();
}
await installed;

// 3. The tests.
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'render-desk-tests-'));
const vitest = bin('vitest', 'vitest.mjs');
const unitReport = path.join(reports, 'unit.json');
const unit = await run(
  'unit and API tests',
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unitReport}`],
  { show: true },
);
const e2eReport = path.join(reports, 'e2e.json');
const e2e = await run(
  'browser tests',
  process.execPath,
  [
    vitest,
    'run',
    '-c',
    'tests/e2e/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${e2eReport}`,
  ],
  { show: true },
);
const checked = await checks;

// 4. The summary.
function firstLine(message) {
  return (message ?? '').trim().split('\n')[0].slice(0, 300);
}
function counts(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    const skippedNames = report.testResults.flatMap((result) =>
      result.assertionResults
        .filter(
          (test) =>
            test.status === 'pending' || test.status === 'skipped' || test.status === 'todo',
        )
        .map((test) => `${path.relative(ROOT, result.name)} › ${test.title}`),
    );
    // A failure is named in the summary with its first line, so the end of a long log says what broke.
    const failedNames = report.testResults.flatMap((result) => {
      const tests = result.assertionResults.filter((test) => test.status === 'failed');
      if (tests.length === 0 && result.status === 'failed')
        return [`${path.relative(ROOT, result.name)}: ${firstLine(result.message)}`];
      return tests.map(
        (test) =>
          `${path.relative(ROOT, result.name)} › ${test.title}: ${firstLine(test.failureMessages?.[0])}`,
      );
    });
    return {
      files: report.testResults.length,
      tests: report.numTotalTests,
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
      skippedNames,
      failedNames,
    };
  } catch {
    return null;
  }
}
for (const check of checked) {
  if (!check.ok) {
    console.error(`\n── ${check.name} failed ──`);
    console.error(check.output.trim());
  }
}
const lines = [];
const describe = (label, result, file) => {
  const c = counts(file);
  lines.push(
    c
      ? `${label.padEnd(20)} ${c.files} files, ${c.tests} tests: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (${seconds(result.ms)})`
      : `${label.padEnd(20)} did not report (exit ${result.code}, ${seconds(result.ms)})`,
  );
  return c;
};
const unitCounts = describe('unit and API tests', unit, unitReport);
const e2eCounts = describe('browser tests', e2e, e2eReport);
for (const check of checked)
  lines.push(`${check.name.padEnd(20)} ${check.ok ? 'passed' : 'FAILED'} (${seconds(check.ms)})`);
const ok =
  unit.ok &&
  e2e.ok &&
  checked.every((check) => check.ok) &&
  unitCounts !== null &&
  e2eCounts !== null;
// Only tests of what this machine cannot do skip (not root: no tmpfs to fill; not Linux): the
// README lists them. Each is named, so a skip never passes unseen.
for (const name of [...(unitCounts?.skippedNames ?? []), ...(e2eCounts?.skippedNames ?? [])])
  lines.push(`skipped: ${name}`);
for (const name of [...(unitCounts?.failedNames ?? []), ...(e2eCounts?.failedNames ?? [])])
  lines.push(`failed: ${name}`);
lines.push(`${ok ? 'PASSED' : 'FAILED'} in ${seconds(Date.now() - started)} wall time`);
console.log(`\n── npm test ──\n${lines.join('\n')}`);
fs.rmSync(reports, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
