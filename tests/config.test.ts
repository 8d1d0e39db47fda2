import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  defaultDataDir,
  resolveCommandSettings,
  resolveConfig,
} from '../main/config.js';

describe('the default data folder', () => {
  const home = os.homedir();

  it('follows XDG_DATA_HOME on Linux when it is an absolute path', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/srv/data' }, 'linux')).toBe(
      path.join('/srv/data', 'render-desk'),
    );
    expect(defaultDataDir({}, 'linux')).toBe(path.join(home, '.local', 'share', 'render-desk'));
  });

  it('ignores an empty or relative XDG_DATA_HOME instead of using the current folder', () => {
    const standard = path.join(home, '.local', 'share', 'render-desk');
    expect(defaultDataDir({ XDG_DATA_HOME: '' }, 'linux')).toBe(standard);
    expect(defaultDataDir({ XDG_DATA_HOME: 'data' }, 'linux')).toBe(standard);
  });

  it('uses APPDATA on Windows and Application Support on macOS', () => {
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\an\\AppData\\Roaming' }, 'win32')).toBe(
      'C:\\Users\\an\\AppData\\Roaming\\Render Desk',
    );
    expect(defaultDataDir({ APPDATA: '' }, 'win32')).toBe(
      path.win32.join(home, 'AppData', 'Roaming', 'Render Desk'),
    );
    expect(defaultDataDir({}, 'darwin')).toBe(
      path.join(home, 'Library', 'Application Support', 'Render Desk'),
    );
  });
});

describe('the settings of a render-desk command', () => {
  const env = { RENDER_DESK_DATA_DIR: '/srv/rd' };

  it('reads the environment variables the server reads, with the same defaults', () => {
    const server = resolveConfig([], env);
    const command = resolveCommandSettings({}, env);
    for (const key of ['dataDir', 'openingCredits', 'workers', 'subscription', 'renderTimeoutMs'])
      expect(command[key as keyof typeof command], key).toEqual(server[key as keyof typeof server]);
    expect(command.explicit).toEqual({ workers: false });

    const set = {
      ...env,
      RENDER_DESK_WORKERS: '3',
      RENDER_DESK_CREDITS: '250',
      RENDER_DESK_SUBSCRIPTION: 'lapsed',
      RENDER_DESK_RENDER_TIMEOUT: '2.5',
    };
    expect(resolveCommandSettings({}, set)).toMatchObject({
      workers: 3,
      openingCredits: 250,
      subscription: 'lapsed',
      renderTimeoutMs: 2500,
      explicit: { workers: true },
    });
    expect(resolveConfig([], set)).toMatchObject({
      workers: 3,
      openingCredits: 250,
      subscription: 'lapsed',
      renderTimeoutMs: 2500,
    });
  });

  it('lets its flags win over the environment', () => {
    const settings = resolveCommandSettings(
      { 'data-dir': 'here', workers: '2', 'render-timeout': '0.5', 'allow-image-urls': true },
      { ...env, RENDER_DESK_WORKERS: '6', RENDER_DESK_RENDER_TIMEOUT: '30' },
    );
    expect(settings).toMatchObject({
      dataDir: path.resolve('here'),
      workers: 2,
      renderTimeoutMs: 500,
      allowImageUrls: true,
    });
  });

  it('refuses a bad value, naming the flag or variable a command user sets', () => {
    expect(() => resolveCommandSettings({ workers: '0' }, env)).toThrow(
      /--workers must be a whole number from 1 to 64; got "0"/,
    );
    expect(() => resolveCommandSettings({}, { ...env, RENDER_DESK_CREDITS: 'lots' })).toThrow(
      /RENDER_DESK_CREDITS must be a whole number/,
    );
    expect(() =>
      resolveCommandSettings({}, { ...env, RENDER_DESK_SUBSCRIPTION: 'paused' }),
    ).toThrow(/RENDER_DESK_SUBSCRIPTION must be "active" or "lapsed"/);
    expect(() => resolveCommandSettings({ 'render-timeout': '0' }, env)).toThrow(ConfigError);
  });
});
