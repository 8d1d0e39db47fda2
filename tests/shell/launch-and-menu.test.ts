import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MenuCommand } from '../../shared/native-bridge.js';
import { buildMenuTemplate } from '../../main/shell/app-menu.js';
import {
  API_NODE_FLAGS,
  CORE_MALLOC_ENV,
  CORE_NODE_FLAGS,
  launchRole,
} from '../../main/core-process-env.js';
import { coreLaunchSpec, developmentNodePath } from '../../main/supervisor/core-launch.js';
import { parseCoreLine, redactCoreLine } from '../../main/supervisor/core-output.js';
import { coreFlag, parseLaunchArgs, withoutFlags } from '../../main/shell/launch-args.js';
import { statusPageHtml } from '../../main/shell/status-page.js';

const cwd = path.resolve('/home/lan/Documents');
const existing = new Set([path.join(cwd, 'products.xlsx'), path.resolve('/tmp/tet.csv')]);
const isFile = (candidate: string) => existing.has(candidate);

describe('command line of the app', () => {
  it('finds files to open, skipping Chromium switches and the development app folder', () => {
    const argv = [
      '/usr/bin/electron',
      '/repo',
      '--allow-file-access-from-files',
      'products.xlsx',
      '/tmp/tet.csv',
      'missing.csv',
    ];
    expect(parseLaunchArgs(argv, { packaged: false, workingDirectory: cwd, isFile }).files).toEqual(
      [path.join(cwd, 'products.xlsx'), path.resolve('/tmp/tet.csv')],
    );
    const packaged = ['/opt/Render Desk/render-desk', 'products.xlsx'];
    expect(
      parseLaunchArgs(packaged, { packaged: true, workingDirectory: cwd, isFile }).files,
    ).toEqual([path.join(cwd, 'products.xlsx')]);
  });

  it('passes the core’s own flags through and nothing else', () => {
    const argv = [
      'electron',
      '/repo',
      '--port',
      '5400',
      '--data-dir=/data/rd',
      '--inspect',
      '--workers',
      '2',
    ];
    const { coreArgs } = parseLaunchArgs(argv, { packaged: false, workingDirectory: cwd, isFile });
    expect(coreArgs).toEqual(['--port', '5400', '--data-dir', '/data/rd', '--workers', '2']);
    expect(coreFlag(coreArgs, 'data-dir')).toBe('/data/rd');
    expect(coreFlag(coreArgs, 'credits')).toBeUndefined();
    expect(withoutFlags(coreArgs, ['port', 'data-dir'])).toEqual(['--workers', '2']);
  });
});

describe('how the core is started', () => {
  const base = {
    appRoot: '/app',
    execPath: '/app/render-desk',
    nodePath: '/usr/bin/node',
    port: 0,
    dataDir: '/data',
    env: { PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' },
    supervised: true,
  };

  it('runs the TypeScript sources with tsx under plain Node in development', () => {
    const spec = coreLaunchSpec({ ...base, packaged: false, extraArgs: ['--workers', '1'] });
    expect(spec.command).toBe('/usr/bin/node');
    const afterFlags = spec.args.slice(CORE_NODE_FLAGS.length);
    expect(afterFlags.slice(0, 2)).toEqual(['--import', 'tsx']);
    expect(spec.args).toContain(path.join('/app', 'main', 'serve.ts'));
    expect(spec.args.slice(-6)).toEqual(['--port', '0', '--data-dir', '/data', '--workers', '1']);
    expect(spec.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
  });

  it('runs a compiled copy of the core as it is under plain Node in development', () => {
    const spec = coreLaunchSpec({ ...base, packaged: false, compiled: true });
    expect(spec.command).toBe('/usr/bin/node');
    expect(spec.args.join(' ')).not.toContain('tsx');
    expect(spec.args).toContain(path.join('/app', 'main', 'serve.js'));
    expect(spec.args).toContain(
      pathToFileURL(path.join('/app', 'main', 'supervisor', 'core-watchdog.js')).href,
    );
    expect(spec.args.join(' ')).not.toMatch(/\.ts\b/);
    expect(spec.env.ELECTRON_RUN_AS_NODE).toBeUndefined();
  });

  it('runs the compiled core with Electron as Node when packaged', () => {
    const spec = coreLaunchSpec({ ...base, packaged: true, env: { PATH: '/bin' } });
    expect(spec.command).toBe('/app/render-desk');
    expect(spec.env.ELECTRON_RUN_AS_NODE).toBe('1');
    expect(spec.args).toContain(path.join('/app', 'main', 'serve.js'));
    expect(spec.args.join(' ')).not.toContain('tsx');
  });

  it('loads the stdin watchdog only when a supervisor holds the pipe, in both modes', () => {
    for (const packaged of [false, true]) {
      const watchdogs = (supervised: boolean) =>
        coreLaunchSpec({ ...base, packaged, supervised }).args.filter((arg) =>
          arg.includes('core-watchdog'),
        );
      expect(watchdogs(true)).toHaveLength(1);
      // A cluster node under systemd, compose or nohup has stdin at /dev/null: no watchdog.
      expect(watchdogs(false)).toEqual([]);
    }
  });

  it("starts the core with the core's malloc settings and Node flags in both modes", () => {
    for (const packaged of [false, true]) {
      const spec = coreLaunchSpec({ ...base, packaged, env: { PATH: '/bin' } });
      expect(spec.env).toMatchObject({ ...CORE_MALLOC_ENV, PATH: '/bin' });
      // Node flags must come before the first script argument to reach Node rather than the core.
      expect(spec.args.slice(0, CORE_NODE_FLAGS.length)).toEqual([...CORE_NODE_FLAGS]);
    }
  });

  it('starts an API-only cluster node without the render-tuned heap growth, other roles with it', () => {
    const flagsOf = (extraArgs: string[], env: NodeJS.ProcessEnv = { PATH: '/bin' }) =>
      [false, true].map((packaged) => {
        const spec = coreLaunchSpec({ ...base, packaged, extraArgs, env });
        // An API node still renders single images: it keeps the malloc settings.
        expect(spec.env).toMatchObject(CORE_MALLOC_ENV);
        // The V8 flags it starts with (the rest are the entry and the core's own arguments).
        return spec.args.filter(
          (arg) => arg === '--single-threaded-gc' || arg.startsWith('--heap-growing-percent'),
        );
      });
    const api = [[...API_NODE_FLAGS], [...API_NODE_FLAGS]];
    const render = [[...CORE_NODE_FLAGS], [...CORE_NODE_FLAGS]];
    expect(API_NODE_FLAGS).not.toContain('--heap-growing-percent=300');
    // Its API thread limits a download: V8's GC helper threads take collections off it.
    expect(API_NODE_FLAGS).not.toContain('--single-threaded-gc');
    expect(flagsOf(['--cluster', '--role', 'api'])).toEqual(api);
    expect(flagsOf(['--role=api', '--workers', '1'])).toEqual(api);
    expect(flagsOf(['--cluster'], { PATH: '/bin', RENDER_DESK_ROLE: 'api' })).toEqual(api);
    expect(flagsOf(['--cluster', '--role', 'worker'])).toEqual(render);
    expect(flagsOf(['--cluster', '--role', 'all'])).toEqual(render);
    // The command line wins over the environment, and its last --role over earlier ones.
    expect(flagsOf(['--role', 'all'], { PATH: '/bin', RENDER_DESK_ROLE: 'api' })).toEqual(render);
    expect(flagsOf(['--role', 'api', '--role', 'worker'])).toEqual(render);
    // An embedded core renders batches.
    expect(flagsOf([])).toEqual(render);
  });

  it('reads the role a core will take as the core reads it', () => {
    expect(launchRole(['--port', '5317', '--role', 'api'], {})).toBe('api');
    expect(launchRole(['--role=worker'], { RENDER_DESK_ROLE: 'api' })).toBe('worker');
    expect(launchRole([], { RENDER_DESK_ROLE: 'api' })).toBe('api');
    expect(launchRole([], {})).toBe('all');
    expect(launchRole(['--role', 'API'], {})).toBe('all');
    expect(launchRole(['--role'], {})).toBe('all');
  });

  it('uses the Node that npm ran, else the one on PATH', () => {
    expect(developmentNodePath({ npm_node_execpath: '/opt/node/bin/node' })).toBe(
      '/opt/node/bin/node',
    );
    expect(developmentNodePath({})).toBe('node');
  });

  it('reads the core’s announcement lines and nothing that merely looks like them', () => {
    expect(parseCoreLine('UI: http://127.0.0.1:40123/ui/session?token=abc_DEF-1')).toEqual({
      kind: 'ui-link',
      link: 'http://127.0.0.1:40123/ui/session?token=abc_DEF-1',
      origin: 'http://127.0.0.1:40123',
      port: 40123,
    });
    expect(
      parseCoreLine('Render Desk is listening on http://127.0.0.1:40123 (data: /d, workers: 1)'),
    ).toEqual({
      kind: 'listening',
      url: 'http://127.0.0.1:40123',
    });
    for (const line of [
      'UI: https://evil.example/ui/session?token=x',
      'UI: http://127.0.0.1:40123/elsewhere?token=x',
      'UI: http://127.0.0.1:40123/ui/session',
      'row 3: UI: http://127.0.0.1:1/ui/session?token=x',
    ]) {
      expect(parseCoreLine(line).kind, line).toBe('other');
    }
    expect(parseCoreLine('render-desk: the port is in use. Choose another with --port').kind).toBe(
      'port-in-use',
    );
  });

  it('keeps secrets out of the shell’s log', () => {
    expect(redactCoreLine('UI: http://127.0.0.1:1/ui/session?token=SECRET')).toBe(
      'UI: http://127.0.0.1:1/ui/session?token=<hidden>',
    );
    expect(redactCoreLine('API key (shown once, store it now): rdk_SECRET')).not.toContain(
      'SECRET',
    );
  });
});

describe('application menu', () => {
  const commands: MenuCommand[] = [
    'open-spreadsheet',
    'new-batch',
    'show-catalog',
    'show-batches',
    'show-settings',
    'toggle-theme',
  ];

  type Item = {
    label?: string;
    role?: string;
    accelerator?: string;
    click?: () => void;
    submenu?: Item[];
  };
  const flatten = (items: Item[]): Item[] =>
    items.flatMap((item) => [item, ...flatten(item.submenu ?? [])]);

  for (const platform of ['darwin', 'win32', 'linux'] as const) {
    it(`sends every menu command exactly once and has no duplicate shortcut on ${platform}`, () => {
      const sent: MenuCommand[] = [];
      const template = buildMenuTemplate({
        platform,
        development: false,
        send: (c) => sent.push(c),
        openDataFolder: () => {},
      });
      const items = flatten(template as Item[]);
      for (const item of items) if (item.click && item.label !== 'Open Data Folder') item.click();
      expect([...sent].sort()).toEqual([...commands].sort());
      const accelerators = items.flatMap((item) => (item.accelerator ? [item.accelerator] : []));
      expect(new Set(accelerators).size).toBe(accelerators.length);
      expect(items.find((item) => item.label === 'Open Spreadsheet…')?.accelerator).toBe(
        'CmdOrCtrl+O',
      );
      expect(items.some((item) => item.role === 'toggleDevTools')).toBe(false);
    });
  }

  it('offers the DevTools in development only', () => {
    const template = buildMenuTemplate({
      platform: 'linux',
      development: true,
      send: () => {},
      openDataFolder: () => {},
    });
    expect(flatten(template as Item[]).some((item) => item.role === 'toggleDevTools')).toBe(true);
  });
});

describe('status pages', () => {
  it('say what is happening, run no script and escape the core’s message', () => {
    const reconnecting = statusPageHtml({ kind: 'reconnecting', attempt: 2, delayMs: 1000 });
    expect(reconnecting).toContain('Reconnecting…');
    expect(reconnecting).toContain("default-src 'none'");
    expect(reconnecting).not.toContain('<script');
    expect(
      statusPageHtml({ kind: 'failed', reason: '<img src=x onerror=alert(1)>' }),
    ).not.toContain('<img');
  });
});
