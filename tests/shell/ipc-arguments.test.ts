import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chooseFolderArguments,
  IpcArgumentError,
  openFilesArguments,
  revealArguments,
  safeSuggestedName,
  saveFileArguments,
} from '../../main/shell/ipc-arguments.js';

const context = {
  pageUrl: 'http://127.0.0.1:5317/ui/batches/b1',
  coreOrigin: 'http://127.0.0.1:5317',
};

describe('arguments the UI sends to the shell', () => {
  it('accepts open dialog options and defaults to a single file', () => {
    expect(
      openFilesArguments({
        title: 'Spreadsheet',
        filters: [{ name: 'Sheets', extensions: ['csv', 'xlsx'] }],
      }),
    ).toEqual({
      title: 'Spreadsheet',
      filters: [{ name: 'Sheets', extensions: ['csv', 'xlsx'] }],
      multiple: false,
    });
    expect(openFilesArguments(undefined)).toEqual({ multiple: false });
    expect(openFilesArguments({ multiple: true })).toEqual({ multiple: true });
    expect(chooseFolderArguments({ title: 'Images' })).toEqual({ title: 'Images' });
  });

  it('refuses malformed dialog options', () => {
    for (const bad of [
      'csv',
      [],
      { multiple: 'yes' },
      { title: 'x'.repeat(501) },
      { filters: [{ name: 'Bad', extensions: ['../etc'] }] },
      { filters: 'csv' },
    ]) {
      expect(() => openFilesArguments(bad), JSON.stringify(bad)).toThrow(IpcArgumentError);
    }
  });

  it('resolves a download URL against the page and keeps it on the core’s origin', () => {
    expect(
      saveFileArguments(
        { suggestedName: 'bundle.zip', url: '/v1/batches/b1/bundle?sig=x' },
        context,
      ),
    ).toEqual({
      suggestedName: 'bundle.zip',
      url: 'http://127.0.0.1:5317/v1/batches/b1/bundle?sig=x',
    });
    for (const url of [
      'https://example.com/x.zip',
      'http://127.0.0.1:9999/x',
      'file:///etc/passwd',
      '//example.com/x',
    ]) {
      expect(() => saveFileArguments({ suggestedName: 'x', url }, context), url).toThrow(
        /app’s own server/,
      );
    }
    expect(() => saveFileArguments({ suggestedName: 'x' }, context)).toThrow(/url is required/);
  });

  it('reduces a suggested file name to a safe last segment', () => {
    expect(safeSuggestedName('../../.bashrc')).toBe('bashrc');
    expect(safeSuggestedName('C:\\Windows\\evil.exe')).toBe('evil.exe');
    expect(safeSuggestedName('Tết: "khuyến mãi" <1>.zip')).toBe('Tết_ _khuyến mãi_ _1_.zip');
    expect(safeSuggestedName('')).toBe('download');
  });

  it('reveals absolute paths only', () => {
    const absolute = path.resolve('outputs', 'b1');
    expect(revealArguments(absolute)).toBe(absolute);
    expect(() => revealArguments('outputs/b1')).toThrow(/absolute/);
    expect(() => revealArguments(42)).toThrow(IpcArgumentError);
    expect(() => revealArguments(`${absolute}\0.png`)).toThrow(IpcArgumentError);
  });
});
