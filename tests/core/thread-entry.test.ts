import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../main/core/install-paths.js';
import { threadEntry } from '../../main/core/thread-entry.js';
import { compiledCoreDir } from '../helpers/compiled-core.js';

describe('where a thread the core starts in a test process begins', () => {
  it('starts a TypeScript thread module from its compiled twin, which exists', () => {
    const source = path.join(REPO_ROOT, 'main', 'ingest', 'xlsx', 'xlsx-worker.ts');
    const entry = threadEntry(source);
    expect(entry).toBe(path.join(compiledCoreDir(), 'main', 'ingest', 'xlsx', 'xlsx-worker.js'));
    expect(fs.existsSync(entry)).toBe(true);
  });

  it("starts the render threads from the compiled copy's bundled entry", () => {
    const entry = threadEntry(path.join(REPO_ROOT, 'main', 'render', 'render-worker-entry.mjs'));
    expect(entry).toBe(path.join(compiledCoreDir(), 'main', 'render', 'render-worker-entry.mjs'));
    expect(fs.readFileSync(entry, 'utf8')).toContain('render-worker.bundle.js');
  });

  it('leaves a module outside the sources as it is', () => {
    const fixture = path.join(os.tmpdir(), 'echo-worker.mjs');
    expect(threadEntry(fixture)).toBe(fixture);
  });
});
