import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

/** The import-rule messages ESLint gives `code` as if it were the file at `file`. */
async function importErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  if (!result) throw new Error(`ESLint returned nothing for ${file}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal).toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const typeImport = (from: string) => `import type { X } from '${from}';\nexport type Y = X;\n`;
const valueImport = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;

describe('eslint.config.js: the "never" arrows inside main/', () => {
  it.each([
    ['main/engine/x.ts', '../store/ledger-repository.js'],
    ['main/engine/layers/x.ts', '../../data/core-data.js'],
    ['main/engine/x.ts', '../server/build-server.js'],
    ['main/engine/x.ts', '../batch/batch-runner.js'],
    ['main/engine/x.ts', '../render/render-pool.js'],
  ])('refuses %s importing %s', async (file, from) => {
    expect(await importErrors(file, valueImport(from))).toEqual([
      expect.stringMatching(/main\/engine/),
    ]);
  });

  it('refuses a type-only import against the direction too', async () => {
    expect(
      await importErrors('main/engine/x.ts', typeImport('../store/batches-repository.js')),
    ).toHaveLength(1);
  });

  it('lets the engine import the render protocol, its fonts and shared/', async () => {
    const code =
      typeImport('../render/render-protocol.js') +
      "import { FontFileError } from '../fonts/font-container.js';\n" +
      "import type { Template } from '../../shared/template-format.js';\n" +
      'export const z: [typeof FontFileError, Template | null] = [FontFileError, null];\n';
    expect(await importErrors('main/engine/x.ts', code)).toEqual([]);
  });

  it.each([
    ['main/store/x.ts', '../server/credit-reservations.js'],
    ['main/store/x.ts', '../render/render-protocol.js'],
    ['main/store/x.ts', '../cluster/leader.js'],
    ['main/data/x.ts', '../batch/batch-runner.js'],
    ['main/data/postgres/x.ts', '../../batch/batch-service.js'],
    ['main/data/postgres/x.ts', '../../render/render-pool.js'],
  ])('refuses %s importing %s', async (file, from) => {
    expect(await importErrors(file, typeImport(from))).toEqual([
      expect.stringMatching(/main\/store and main\/data/),
    ]);
  });

  it('lets the store and the data ports import the row-queue port they implement', async () => {
    expect(
      await importErrors('main/data/postgres/x.ts', typeImport('../../batch/batch-queue.js')),
    ).toEqual([]);
    expect(await importErrors('main/store/x.ts', typeImport('../batch/batch-queue.js'))).toEqual(
      [],
    );
  });

  it.each([
    ['main/render/render-worker.ts', '../store/open-database.js'],
    ['main/render/render-worker.ts', '../data/core-data.js'],
    ['main/render/render-worker-entry.mjs', '../data/sqlite-core-data.js'],
    ['main/render/render-protocol.ts', '../store/renders-repository.js'],
  ])('refuses the render worker file %s importing %s', async (file, from) => {
    expect(await importErrors(file, valueImport(from))).toEqual([
      expect.stringMatching(/render worker never touches/),
    ]);
  });

  it.each([
    ['main/render/single-render-service.ts', '../server/server-deps.js'],
    ['main/batch/batch-service.ts', '../cluster/cluster-batch-work.js'],
  ])('refuses the service %s importing %s', async (file, from) => {
    expect(await importErrors(file, typeImport(from))).toEqual([
      expect.stringMatching(/Services .* never import the HTTP layer or the cluster/),
    ]);
  });

  it('keeps electron in main/shell and shared/ free of the other layers', async () => {
    expect(await importErrors('main/server/x.ts', valueImport('electron'))).toEqual([
      expect.stringMatching(/Only main\/shell/),
    ]);
    expect(await importErrors('main/shell/x.ts', valueImport('electron'))).toEqual([]);
    expect(await importErrors('shared/x.ts', typeImport('../main/app.js'))).toEqual([
      expect.stringMatching(/shared\/ imports nothing/),
    ]);
  });
});

/** Relative imports of a module (static, re-exports and `import()`), as files of the repository. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      const target = path.resolve(path.dirname(file), specifier);
      const typescript = target.replace(/\.js$/, '.ts');
      if (fs.existsSync(typescript) && fs.statSync(typescript).isFile()) return typescript;
      return target;
    })
    .filter((target) => fs.existsSync(target) && fs.statSync(target).isFile());
}

/** Every repository file `entry` reaches through imports, as paths relative to the repository. */
function reachableFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [path.join(repoRoot, entry)];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    const relative = path.relative(repoRoot, file).split(path.sep).join('/');
    if (seen.has(relative)) continue;
    seen.add(relative);
    queue.push(...importsOf(file));
  }
  return seen;
}

describe('the render worker', () => {
  // The lint rules see one file's own imports; a render thread loads everything its entry reaches.
  it('reaches neither the store, the data ports, the server, batches nor the cluster', () => {
    const reached = [...reachableFrom('main/render/render-worker-entry.mjs')];
    expect(reached).toContain('main/render/render-worker.ts');
    expect(reached).toContain('main/engine/render-template.ts');
    expect(
      reached.filter((file) => /^main\/(store|data|server|batch|cluster)\//.test(file)),
    ).toEqual([]);
  });
});
