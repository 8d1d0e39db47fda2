import { describe, expect, it } from 'vitest';
import { createStore } from '../../main/store/create-store.js';
import { useTempDirs } from './temp-dir.js';

const { tempDir, tempStore } = useTempDirs();

describe('settings repository', () => {
  it('reads null for a missing key, then the value that was set, replacing older values', () => {
    const { settings } = tempStore();
    expect(settings.get('theme')).toBeNull();
    settings.set('theme', 'dark');
    settings.set('theme', 'light');
    expect(settings.get('theme')).toBe('light');
    expect(settings.remove('theme')).toBe(true);
    expect(settings.remove('theme')).toBe(false);
    expect(settings.get('theme')).toBeNull();
  });

  it('creates a value once and returns the stored one afterwards, across reopen', () => {
    const dir = tempDir();
    const first = createStore(dir);
    let calls = 0;
    const make = (): string => `secret-${++calls}`;
    expect(first.settings.getOrCreate('url-signing-secret', make)).toBe('secret-1');
    expect(first.settings.getOrCreate('url-signing-secret', make)).toBe('secret-1');
    first.close();
    const second = createStore(dir);
    expect(second.settings.getOrCreate('url-signing-secret', make)).toBe('secret-1');
    second.close();
    expect(calls).toBe(1);
  });
});
