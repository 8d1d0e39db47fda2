import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadService } from '../../main/ingest/upload-service.js';
import { createStore, type Store } from '../../main/store/create-store.js';
import { sqliteCoreData } from '../../main/data/sqlite-core-data.js';

let dataDir: string;
let store: Store;
let uploads: UploadService;
const uploadsDir = () => path.join(dataDir, 'uploads');

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-uploads-'));
  store = createStore(dataDir);
  uploads = new UploadService(sqliteCoreData(store), uploadsDir());
});
afterAll(() => {
  store.db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const meta = { filename: 'a.csv', contentType: 'text/csv', apiKeyId: null };

describe('receiving an upload', () => {
  it('leaves no partial file behind when the body fails before its file is even open', async () => {
    for (let i = 0; i < 20; i++) {
      const body = new Readable({
        read() {
          this.destroy(new Error('the client went away'));
        },
      });
      await expect(uploads.receive(body, meta)).rejects.toThrow('the client went away');
    }
    // An open still in flight would create its file after the failure was handled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.readdirSync(uploadsDir())).toEqual([]);
  });

  it('refuses an SVG image that references a file, at upload rather than at its first render', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><image href="upl_someone_else.png"/></svg>';
    await expect(uploads.receive(Readable.from([Buffer.from(svg)]), meta)).rejects.toMatchObject({
      code: 'svg-external-reference',
      status: 422,
    });
    expect(fs.readdirSync(uploadsDir())).toEqual([]);
  });

  it('keeps bidi controls, zero-width and control characters out of the name it shows', async () => {
    const names = {
      'invoice\u202egnp.csv': 'invoicegnp.csv',
      'a\u200bb\u2066c\u2069.csv': 'abc.csv',
      '\u200f\u0085': 'upload',
      [`${'😀'.repeat(150)}x\ud800.csv`]: '😀'.repeat(150) + 'x.csv',
      '../../etc/passwd.csv': 'passwd.csv',
    };
    for (const [raw, shown] of Object.entries(names)) {
      const upload = await uploads.receive(Readable.from([Buffer.from('name\nx\n')]), {
        ...meta,
        filename: raw,
      });
      expect(upload.filename).toBe(shown);
    }
  });
});
