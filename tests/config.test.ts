import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../main/config.js';

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
