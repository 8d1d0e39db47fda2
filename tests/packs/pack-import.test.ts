import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deflatedEntry, repeatedEntry, writeZip } from '../helpers/zip-builder.js';
import type { ZipEntrySpec } from '../helpers/zip-builder.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import type { Json } from '../helpers/test-server.js';
import {
  editedTemplate,
  expectProblem,
  exportPack,
  importPack,
  sha,
  snapshot,
  unzip,
} from './pack-helpers.js';

let server: InjectServer;
/** The files of a good pack, to tamper with. */
let good: Map<string, Buffer>;
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  server = await buildInjectServer();
  const template = await editedTemplate(server);
  good = unzip(await exportPack(server, template.id));
});
afterAll(() => server.stop());

// Every refusal leaves the workspace as it was: same templates, no staging folder.
beforeEach(async () => {
  before = await snapshot(server);
});
afterEach(async () => {
  const after = await snapshot(server);
  expect(after).toEqual(before);
  expect(after.dirs.filter((dir) => dir.startsWith('.'))).toEqual([]);
});

const manifestOf = (files: Map<string, Buffer>): Json =>
  JSON.parse(files.get('pack.json')!.toString('utf8'));

/** The good pack with `edit` applied to its files (and its manifest, when given). */
function tampered(
  edit: (files: Map<string, Buffer>, manifest: Json) => void,
  extra: ZipEntrySpec[] = [],
): Buffer {
  const files = new Map(good);
  const manifest = manifestOf(files);
  edit(files, manifest);
  files.set('pack.json', Buffer.from(JSON.stringify(manifest)));
  return writeZip([...[...files].map(([name, bytes]) => deflatedEntry(name, bytes)), ...extra]);
}

function yazlZip(add: (zip: yazl.ZipFile) => void): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  add(zip);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

describe('names that point outside the pack (zip-slip)', () => {
  it.each(['../evil.txt', 'assets/../../evil.txt', '/abs/path', 'C:\\x', 'C:/x'])(
    'refuses an entry named %s, naming it, and writes nothing',
    async (name) => {
      const body = await expectProblem(
        await importPack(
          server,
          tampered(() => {}, [deflatedEntry(name, 'owned')]),
        ),
        422,
        'pack-invalid',
      );
      expect(body.detail).toContain(name.replace(/\\/g, '\\'));
      const root = path.join(server.dataDir, 'workspace-templates');
      expect(fs.existsSync(path.join(root, '..', 'evil.txt'))).toBe(false);
      expect(fs.existsSync(path.join(server.dataDir, '..', 'evil.txt'))).toBe(false);
    },
  );

  it('refuses a symbolic link entry', async () => {
    const zip = await yazlZip((z) => {
      for (const [name, bytes] of good) z.addBuffer(bytes, name);
      z.addBuffer(Buffer.from('/etc/passwd'), 'assets/link.png', { mode: 0o120777 });
    });
    const body = await expectProblem(await importPack(server, zip), 422, 'pack-invalid');
    expect(body.detail).toContain('assets/link.png');
    expect(body.detail).toContain('symbolic link');
  });

  it('refuses names that differ only by case or Unicode normalisation', async () => {
    const manifest = manifestOf(good);
    const asset = manifest.assets[0].path as string;
    const byCase = await importPack(
      server,
      tampered(() => {}, [deflatedEntry(asset.toUpperCase().replace('ASSETS/', 'assets/'), 'x')]),
    );
    expect((await expectProblem(byCase, 422, 'pack-invalid')).detail).toContain('twice');
    const nfc = 'assets/Đồng.png';
    const twins = writeZip([
      ...[...good].map(([name, bytes]) => deflatedEntry(name, bytes)),
      deflatedEntry(nfc.normalize('NFC'), 'a'),
      deflatedEntry(nfc.normalize('NFD'), 'b'),
    ]);
    expect(
      (await expectProblem(await importPack(server, twins), 422, 'pack-invalid')).detail,
    ).toContain('twice');
  });
});

describe('limits', () => {
  it('refuses a bomb (1 GiB of zeros in a 1 MiB zip) before inflating it', async () => {
    const bomb = await repeatedEntry('assets/big.png', '', '\0'.repeat(1 << 20), 1024, '');
    expect(bomb.compressed.length).toBeLessThan(2 * 1024 * 1024);
    const body = await expectProblem(
      await importPack(
        server,
        tampered(() => {}, [bomb]),
      ),
      422,
      'archive-limits-exceeded',
    );
    expect(body.detail).toContain('assets/big.png');
  });

  it('refuses an entry compressed suspiciously well even under the size limits', async () => {
    const bomb = await repeatedEntry('assets/zeros.png', '', '\0'.repeat(1 << 20), 50, '');
    const body = await expectProblem(
      await importPack(
        server,
        tampered(() => {}, [bomb]),
      ),
      422,
      'archive-limits-exceeded',
    );
    expect(body.detail).toMatch(/expands \d+:1/);
  });

  it('refuses an entry that inflates past the size its header declares', async () => {
    const liar = { ...deflatedEntry('assets/liar.png', Buffer.alloc(5 * 1024 * 1024, 7)) };
    liar.declaredSize = 4096;
    const zip = tampered(
      (_files, manifest) => {
        manifest.assets.push({
          path: 'assets/liar.png',
          sha256: sha(Buffer.alloc(4096)),
          size: 4096,
        });
      },
      [liar],
    );
    await expectProblem(await importPack(server, zip), 422, 'archive-limits-exceeded');
  });

  it('refuses more than 2,000 entries', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => deflatedEntry(`assets/f${i}.png`, 'x'));
    const body = await expectProblem(
      await importPack(
        server,
        tampered(() => {}, many),
      ),
      422,
      'archive-limits-exceeded',
    );
    expect(body.detail).toContain('2000');
  });
});

describe('what the pack holds', () => {
  it('refuses a pack of a newer format as pack-unsupported-version', async () => {
    const body = await expectProblem(
      await importPack(
        server,
        tampered((_files, manifest) => {
          manifest.packFormat = 2;
          manifest.somethingNew = { fromTheFuture: true };
        }),
      ),
      422,
      'pack-unsupported-version',
    );
    expect(body.detail).toContain('format 2');
  });

  it('refuses a template of a newer template format as pack-unsupported-version', async () => {
    const files = new Map(good);
    const template = JSON.parse(files.get('template.json')!.toString('utf8')) as Json;
    template.schemaVersion = 3;
    const bytes = Buffer.from(JSON.stringify(template));
    files.set('template.json', bytes);
    const manifest = manifestOf(files);
    manifest.template = {
      ...manifest.template,
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    };
    files.set('pack.json', Buffer.from(JSON.stringify(manifest)));
    const zip = writeZip([...files].map(([name, bytes]) => deflatedEntry(name, bytes)));
    const body = await expectProblem(
      await importPack(server, zip),
      422,
      'pack-unsupported-version',
    );
    expect(body.detail).toContain('template format 3');
  });

  it('refuses a zip without pack.json as not a pack', async () => {
    const zip = writeZip([deflatedEntry('hello.txt', 'hello')]);
    const body = await expectProblem(await importPack(server, zip), 422, 'pack-invalid');
    expect(body.detail).toContain('pack.json');
  });

  it('refuses a pack.json that is not a manifest, with the path of each problem', async () => {
    const body = await expectProblem(
      await importPack(
        server,
        tampered((_files, manifest) => {
          manifest.assets[0].sha256 = 'nope';
          delete manifest.template;
        }),
      ),
      422,
      'pack-invalid',
    );
    expect(body.errors!.map((e) => e.path).sort()).toEqual([
      'pack.json.assets[0].sha256',
      'pack.json.template',
    ]);
  });

  it('refuses a pack without template.json', async () => {
    const body = await expectProblem(
      await importPack(
        server,
        tampered((files) => files.delete('template.json')),
      ),
      422,
      'pack-invalid',
    );
    expect(body.detail).toContain('template.json');
  });

  it('refuses a template.json that fails validation, with the path of each problem', async () => {
    const template = JSON.parse(good.get('template.json')!.toString('utf8'));
    template.layouts.square.layers[0].width = -5;
    template.layouts.square.layers.push({
      id: 'ghost',
      kind: 'image',
      x: 0,
      y: 0,
      width: 10,
      height: 10,
      source: { asset: 'missing.png' },
    });
    const bytes = Buffer.from(JSON.stringify(template));
    const zip = tampered((files, manifest) => {
      files.set('template.json', bytes);
      manifest.template.sha256 = sha(bytes);
    });
    const body = await expectProblem(await importPack(server, zip), 422, 'pack-invalid');
    expect(body.detail).toContain('template.json');
    expect(body.errors!.map((e) => e.path)).toContain('layouts.square.layers[0].width');
    const missing = await importPack(
      server,
      tampered((files, manifest) => {
        template.layouts.square.layers[0].width = 10;
        const fixed = Buffer.from(JSON.stringify(template));
        files.set('template.json', fixed);
        manifest.template.sha256 = sha(fixed);
      }),
    );
    const problem = await expectProblem(missing, 422, 'pack-invalid');
    expect(problem.errors).toEqual([
      {
        path: `layouts.square.layers[${template.layouts.square.layers.length - 1}].source.asset`,
        message: 'the template has no asset "missing.png"',
      },
    ]);
  });

  it('refuses an asset whose sha256 does not match pack.json, naming it', async () => {
    const asset = manifestOf(good).assets[0].path as string;
    const body = await expectProblem(
      await importPack(
        server,
        tampered((files) => {
          const bytes = Buffer.from(files.get(asset)!);
          bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
          files.set(asset, bytes);
        }),
      ),
      422,
      'pack-invalid',
    );
    expect(body.detail).toContain(asset);
    expect(body.detail).toContain('sha256');
  });

  it('refuses an edited template.json whose sha256 no longer matches', async () => {
    const body = await expectProblem(
      await importPack(
        server,
        tampered((files) => files.set('template.json', Buffer.from('{"edited":true}'))),
      ),
      422,
      'pack-invalid',
    );
    expect(body.detail).toContain('template.json');
  });

  it('refuses a file pack.json does not list, naming it', async () => {
    const body = await expectProblem(
      await importPack(
        server,
        tampered(() => {}, [deflatedEntry('assets/extra.png', 'x')]),
      ),
      422,
      'pack-invalid',
    );
    expect(body.detail).toContain('assets/extra.png');
  });

  it('refuses a listed file that the zip does not hold, naming it', async () => {
    const asset = manifestOf(good).assets[0].path as string;
    const body = await expectProblem(
      await importPack(
        server,
        tampered((files) => files.delete(asset)),
      ),
      422,
      'pack-invalid',
    );
    expect(body.detail).toContain(asset);
  });

  it('refuses a password-protected entry', async () => {
    const zip = tampered(() => {});
    // Set the "encrypted" flag of the first central directory entry.
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(zip.readUInt16LE(central + 8) | 1, central + 8);
    const body = await expectProblem(await importPack(server, zip), 422, 'invalid-archive');
    expect(body.detail).toContain('password');
  });

  it('still imports the untampered pack (the tampering above is what was refused)', async () => {
    const res = await importPack(
      server,
      tampered(() => {}),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await res.json();
    // The one success of this file: let the afterEach compare against the new state.
    before = { ...before, ids: [...before.ids, created.id].sort() };
    before.dirs = [...before.dirs, created.id].sort();
  });
});
