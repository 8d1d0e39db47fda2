import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../main/app.js';
import { compiledCoreUrl } from '../helpers/compiled-core.js';

const run = promisify(execFile);
const FIXTURE = path.join(REPO_ROOT, 'tests', 'engine', 'fixtures', 'catalog-render-hashes.mjs');

interface Line {
  id: string;
  sha256: string;
  deferred: boolean;
}

async function hashes(mode: 'deferred' | 'eager'): Promise<Map<string, Line>> {
  const { stdout } = await run(process.execPath, [FIXTURE, compiledCoreUrl(), mode], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
  return new Map(lines.map((line) => [line.id, line]));
}

describe('the colour emoji font registered only when a job needs it', () => {
  it('draws every catalog template and emoji headline byte for byte as with every font registered first', async () => {
    // Fresh processes: fonts registered with the canvas stay registered for the process.
    const [deferred, eager] = await Promise.all([hashes('deferred'), hashes('eager')]);
    expect([...deferred.keys()].sort()).toEqual([...eager.keys()].sort());
    expect(deferred.size).toBeGreaterThan(40);
    for (const [id, line] of deferred)
      expect({ id, sha256: line.sha256 }).toEqual({ id, sha256: eager.get(id)!.sha256 });
    // Most were drawn before the emoji font was registered; the emoji headlines registered it.
    const drawnWithout = [...deferred.values()].filter((line) => line.deferred);
    expect(drawnWithout.length).toBeGreaterThan(30);
    expect(deferred.get('headline/latin')!.deferred).toBe(true);
    for (const name of ['emoji', 'keycap', 'dingbat', 'zwj'])
      expect(deferred.get(`headline/${name}`)!.deferred).toBe(false);
  }, 180_000);
});
