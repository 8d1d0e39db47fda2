import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTSERRAT, testFont } from '../fonts/fixtures/sfnt-fixtures.js';
import { spawnServe, type SpawnedServe } from '../helpers/spawn-serve.js';
import { testFetch, type Json } from '../helpers/test-server.js';

/**
 * A full disk under every folder the API writes to: each is a small tmpfs filled to the last
 * byte (mounting needs root, as CI has; the test fails, not skips, without it). Uploads, an
 * idempotent single render and font, pack and asset uploads once answered 500 `internal` with
 * nothing logged; batches already said "disk is full".
 */

const KEY = 'rdk_disk_full_key_0123456789abc';
const FOLDERS = ['outputs', 'uploads', 'fonts', 'workspace-templates'] as const;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-disk-full-'));
const mounted: string[] = [];
let server: SpawnedServe;
let forkId: string;
let pack: Buffer;

function mountSmallDisk(dir: string, size: string): void {
  fs.mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(
      `These tests need a small tmpfs to fill, and mounting one needs root: ${(error as Error).message}`,
    );
  }
  mounted.push(dir);
}

/** Writes until the disk under `dir` is full; returns the filler to delete for space again. */
function fill(dir: string): string {
  const filler = path.join(dir, 'filler.bin');
  try {
    fs.writeFileSync(filler, Buffer.alloc(16 * 1024 * 1024));
  } catch (error) {
    expect((error as { code?: string }).code).toBe('ENOSPC');
    return filler;
  }
  throw new Error(`${dir} did not fill up`);
}

const api = (pathname: string, init: RequestInit & { json?: unknown } = {}) =>
  testFetch(server.url + pathname, {
    ...init,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });

async function expectDiskFull(response: Response): Promise<void> {
  expect(response.status).toBe(507);
  expect(await response.json()).toMatchObject({
    code: 'disk-full',
    detail: expect.stringMatching(/disk holding the data folder is full.*Free some space/),
  });
}

beforeAll(async () => {
  for (const folder of FOLDERS) mountSmallDisk(path.join(dataDir, folder), '4m');
  server = await spawnServe(dataDir, { RENDER_DESK_API_KEY: KEY, RENDER_DESK_CREDITS: '100' }, 1);
  const fork = await api('/v1/catalog/tmpl_product_promo/fork', { method: 'POST', json: {} });
  expect(fork.status).toBe(201);
  forkId = (await fork.json()).id;
  pack = Buffer.from(await (await api(`/v1/templates/${forkId}/pack`)).arrayBuffer());
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited();
  for (const dir of mounted.reverse()) execFileSync('umount', [dir]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a full disk', () => {
  it('answers 507 disk-full to an idempotent render, charges nothing, and the retry works once there is space', async () => {
    const detail: Json = await (await api('/v1/catalog/tmpl_product_promo')).json();
    const body = { templateId: detail.id, values: detail.sampleValues };
    const before = (await (await api('/v1/account')).json()).balance;
    const filler = fill(path.join(dataDir, 'outputs'));
    const headers = { 'idempotency-key': 'disk-full-render-1' };
    await expectDiskFull(await api('/v1/render', { method: 'POST', headers, json: body }));
    expect((await (await api('/v1/account')).json()).balance).toBe(before);

    fs.rmSync(filler);
    const retried = await api('/v1/render', { method: 'POST', headers, json: body });
    expect(retried.status).toBe(200);
    expect((await (await api('/v1/account')).json()).balance).toBe(before - 1);
  });

  it('answers 507 disk-full to an upload and leaves no partial file', async () => {
    const filler = fill(path.join(dataDir, 'uploads'));
    const csv =
      'sku,headline\n' + Array.from({ length: 2000 }, (_, i) => `${i},Mug ${i}`).join('\n');
    await expectDiskFull(
      await api('/v1/uploads?filename=products.csv', {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: csv,
      }),
    );
    expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toEqual(['filler.bin']);
    fs.rmSync(filler);
  });

  it('answers 507 disk-full to font, pack and template asset uploads', async () => {
    const font = testFont(MONTSERRAT, 'Disk Full Sans');
    const fontFiller = fill(path.join(dataDir, 'fonts'));
    await expectDiskFull(
      await api('/v1/fonts?name=disk-full.ttf', {
        method: 'POST',
        headers: { 'content-type': 'font/ttf' },
        body: font,
      }),
    );
    fs.rmSync(fontFiller);

    const workspaceFiller = fill(path.join(dataDir, 'workspace-templates'));
    await expectDiskFull(
      await api('/v1/templates/import', {
        method: 'POST',
        headers: { 'content-type': 'application/zip' },
        body: pack,
      }),
    );
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#3366FF' },
    })
      .png()
      .toBuffer();
    await expectDiskFull(
      await api(`/v1/templates/${forkId}/assets`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: png,
      }),
    );
    fs.rmSync(workspaceFiller);
  });

  it('logs each of those 507s to stderr with the request and the stack, with logging off', () => {
    const output = server.output();
    expect(output).toMatch(/render-desk: 507 on POST \/v1\/render: Error: ENOSPC/);
    expect(output).toMatch(/render-desk: 507 on POST \/v1\/uploads\?filename=products\.csv: /);
    expect(output).toMatch(/render-desk: 507 on POST \/v1\/fonts\?name=disk-full\.ttf: /);
    expect(output).toMatch(/render-desk: 507 on POST \/v1\/templates\/import: /);
    expect(output).toMatch(/render-desk: 507 on POST \/v1\/templates\/wtpl_[\w-]+\/assets: /);
    expect(output).toMatch(/\n\s+at /);
    expect(server.child.exitCode).toBeNull();
  });
});
