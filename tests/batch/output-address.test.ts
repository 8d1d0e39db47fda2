import { describe, expect, it } from 'vitest';
import {
  batchObjectPrefix,
  contentTypeOf,
  parseOutputKey,
  rowObjectKey,
  rowOutputKey,
  sheetPartKey,
  sheetPartOutputKey,
  singleRenderKey,
} from '../../main/batch/output-address.js';
import type { OutputFormat } from '../../main/render/render-protocol.js';

describe('output addresses', () => {
  it('read a row output key back to the object key the runners write it under', () => {
    for (const format of ['png', 'jpeg', 'webp', 'avif', 'pdf'] as OutputFormat[]) {
      const key = rowOutputKey('bat_abc', 12, format);
      expect(parseOutputKey(key)).toEqual({
        kind: 'batch-row',
        batchId: 'bat_abc',
        objectKey: rowObjectKey('bat_abc', 12, format),
        contentType: contentTypeOf(key.split('.').at(-1)!),
      });
    }
    expect(rowOutputKey('bat_abc', 12, 'jpeg')).toBe('bat_abc.12.jpg');
    expect(rowObjectKey('bat_abc', 12, 'jpeg')).toBe('batches/bat_abc/12.jpg');
    expect(contentTypeOf('jpg')).toBe('image/jpeg');
  });

  it("keep a batch's rows and sheet parts under its one prefix", () => {
    const prefix = batchObjectPrefix('bat_x');
    expect(rowObjectKey('bat_x', 0, 'png').startsWith(prefix)).toBe(true);
    expect(sheetPartKey('bat_x', 2)).toBe('batches/bat_x/sheets-2.pdf');
  });

  it("read a sheet part's output key back to the object the runners write it under", () => {
    expect(sheetPartOutputKey('bat_x', 2)).toBe('bat_x.sheets-2.pdf');
    expect(parseOutputKey('bat_x.sheets-2.pdf')).toEqual({
      kind: 'sheet-part',
      batchId: 'bat_x',
      part: 2,
      objectKey: sheetPartKey('bat_x', 2),
      contentType: 'application/pdf',
    });
  });

  it('read a single render key back to its object, zip included', () => {
    const objectKey = singleRenderKey('rnd_q', 'png', 'application/zip');
    expect(objectKey).toBe('renders/rnd_q.zip');
    expect(parseOutputKey('rnd_q.zip')).toEqual({
      kind: 'single-render',
      renderId: 'rnd_q',
      objectKey,
      contentType: 'application/zip',
    });
  });

  it('name nothing for keys this app never makes', () => {
    for (const key of [
      'bat_x.1.gif',
      '../etc/passwd',
      'bat_x.-1.png',
      'rnd_.png',
      'bat_x.1.png/..',
      'bat_x.sheets-1.png',
      'bat_x.sheets-.pdf',
    ])
      expect(parseOutputKey(key)).toBeNull();
  });
});
