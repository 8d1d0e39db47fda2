import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreLaunchSpec } from '../../main/supervisor/core-launch.js';
import { CoreSupervisor } from '../../main/supervisor/core-supervisor.js';
import { build } from '../../scripts/build-shell.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { openUiSession } from '../helpers/ui-session.js';

/**
 * What Electron would load, checked without Electron: the bundles' run-time requirements, and
 * the compiled core laid out as electron-builder lays it out (resources/app/), started the way
 * a packaged app starts it (here with plain Node standing in for Electron's).
 */

let appRoot: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-packaged-data-'));

beforeAll(async () => {
  appRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-packaged-app-'));
  await build({ outDir: path.join(appRoot, 'dist') });
  // electron-builder.yml: `from: dist/core, to: .`, plus package.json, templates and node_modules.
  for (const folder of ['main', 'shared']) {
    fs.renameSync(path.join(appRoot, 'dist', 'core', folder), path.join(appRoot, folder));
  }
  fs.writeFileSync(path.join(appRoot, 'package.json'), JSON.stringify({ type: 'module' }));
  for (const link of ['node_modules', 'templates', 'renderer']) {
    fs.symlinkSync(path.join(REPO_ROOT, link), path.join(appRoot, link), 'junction');
  }
}, 120_000);

afterAll(() => {
  fs.rmSync(appRoot, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function requires(file: string): string[] {
  const code = fs.readFileSync(file, 'utf8');
  return [
    ...new Set([...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1] ?? '')),
  ].sort();
}

describe('npm run build:shell', () => {
  it('bundles the sandboxed preload into one CommonJS file that requires only electron', () => {
    const preload = path.join(appRoot, 'dist', 'shell', 'preload.cjs');
    expect(requires(preload)).toEqual(['electron']);
    const code = fs.readFileSync(preload, 'utf8');
    expect(code).toContain('exposeInMainWorld');
    // Named channels only: no way for the page to pick a channel.
    expect(code).not.toMatch(/invoke\(\s*channel/);
  });

  it('bundles the main process with nothing external but electron and Node built-ins', () => {
    const external = requires(path.join(appRoot, 'dist', 'shell', 'electron-main.cjs'));
    expect(external).toContain('electron');
    expect(external.filter((name) => name !== 'electron' && !name.startsWith('node:'))).toEqual([]);
  });

  it('compiles the core into JavaScript with a worker entry that needs no TypeScript loader', () => {
    expect(fs.existsSync(path.join(appRoot, 'main', 'serve.js'))).toBe(true);
    expect(fs.existsSync(path.join(appRoot, 'main', 'shell'))).toBe(false);
    const entry = fs.readFileSync(
      path.join(appRoot, 'main', 'render', 'render-worker-entry.mjs'),
      'utf8',
    );
    expect(entry).not.toContain('tsx');
    // A render thread loads one bundled file, not the engine's modules one by one.
    expect(entry).toContain('./render-worker.bundle.js');
    expect(fs.existsSync(path.join(appRoot, 'main', 'render', 'render-worker.bundle.js'))).toBe(
      true,
    );
  });

  it('starts the compiled core as a packaged app would and renders an image with the UI session', async () => {
    const supervisor = new CoreSupervisor({
      launchSpec: (port) =>
        coreLaunchSpec({
          appRoot,
          packaged: true,
          execPath: process.execPath,
          nodePath: process.execPath,
          port,
          dataDir,
          extraArgs: ['--workers', '1'],
          env: process.env,
          supervised: true,
        }),
    });
    try {
      const ready = await supervisor.start();
      const session = await openUiSession(ready.uiLink);
      const api = (pathname: string, init: RequestInit = {}) =>
        fetch(`${ready.origin}${pathname}`, {
          ...init,
          headers: { ...session, 'content-type': 'application/json' },
        });

      const catalog = (await (await api('/v1/catalog')).json()) as { id: string }[];
      const templateId = catalog[0]?.id;
      expect(templateId).toBeTruthy();
      const detail = (await (await api(`/v1/catalog/${templateId}`)).json()) as {
        sampleValues: Record<string, unknown>;
      };
      const render = await api('/v1/render', {
        method: 'POST',
        body: JSON.stringify({ templateId, values: detail.sampleValues }),
      });
      expect(render.status, await render.clone().text()).toBe(200);
      expect(render.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await render.arrayBuffer());
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await supervisor.stop();
    }
  }, 120_000);
});
