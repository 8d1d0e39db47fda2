import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { afterAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, waitForBatch } from '../helpers/batch-helpers.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { solidPng } from '../helpers/image-host.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnServe, type SpawnedServe } from '../helpers/spawn-serve.js';
import { testFetch, type ApiClient, type Json } from '../helpers/test-server.js';
import {
  QUOTES,
  bundleOf,
  cliBatch,
  describeZip,
  expectSameBundles,
  quoteRows,
  throughApi,
  useParityModes,
  type ParityCase,
} from './parity-harness.js';

/**
 * A batch's life after it is created — cancelled, its failed rows replayed, deleted, its process
 * killed with SIGKILL halfway — means the same from the API of an embedded server, from
 * `render-desk batch` on a data folder and in a cluster of one API node and two workers. The
 * command line has no replay, delete or resume of its own: its batch is an ordinary batch of the
 * data folder (docs/cli.md), which the app (here `serve` on that folder) shows, replays, deletes
 * and resumes.
 */

const modes = useParityModes();

const KEY = 'rdk_parity_lifecycle_key_0123456789';
const CREDITS = 10_000;
/** Long enough to interrupt halfway: two chunks in the cluster, seconds of rendering anywhere. */
const LONG = quoteRows(120, 'Long');
/**
 * What these tests follow is a batch's life, not its drawing: the long batch is drawn at a
 * quarter of the size in every mode (the API's scale, the command line's --scale), its images
 * still compared to the byte.
 */
const SCALE = 0.25;
const long: ParityCase = {
  name: 'long',
  templateId: QUOTES,
  rows: LONG,
  source: 'json',
  options: { scale: SCALE },
  flags: ['--scale', String(SCALE)],
};

const servers: SpawnedServe[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGKILL');
    await server.exited();
  }
});

/** `serve` on a data folder (the app opening it), with a client of its API. */
async function serveOn(dataDir: string): Promise<ApiClient & { server: SpawnedServe }> {
  const server = await spawnServe(
    dataDir,
    { RENDER_DESK_API_KEY: KEY, RENDER_DESK_CREDITS: String(CREDITS) },
    1,
  );
  servers.push(server);
  return {
    server,
    api: (pathname, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${KEY}`);
      let body = init.body as RequestInit['body'];
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return testFetch(server.url + pathname, { ...init, headers, body });
    },
  };
}

async function killed(server: SpawnedServe): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited();
  servers.splice(servers.indexOf(server), 1);
}

/** Polls `read` until `done` holds of its value, at most `ms`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const batchOf = async (client: ApiClient, id: string): Promise<Json> =>
  (await client.api(`/v1/render-batches/${id}`)).json();

/**
 * The batch's id once it has `rows` rows done, checked to be still running then: what the test
 * does next (a cancel, a kill) must meet a batch in progress, or it would test nothing.
 */
async function startedLong(client: ApiClient, rows = 10): Promise<string> {
  const { id } = await createBatch(client, {
    templateId: QUOTES,
    sourceType: 'json-array',
    source: { records: LONG },
    ...long.options,
  });
  const batch = await until(
    () => batchOf(client, id),
    (state) => state.succeeded >= rows,
  );
  expect(batch.succeeded, 'the batch ended before the test could interrupt it').toBeLessThan(
    LONG.length,
  );
  return id as string;
}

/** The only batch of a data folder (the command line's), as the app lists it. */
async function onlyBatch(client: ApiClient): Promise<Json> {
  const list: Json[] = await (await client.api('/v1/render-batches')).json();
  expect(list).toHaveLength(1);
  return list[0];
}

/**
 * Every row exactly once in the manifest, the debits of the batch equal its succeeded rows, no
 * credit still held: the money side of a batch, whatever happened to it.
 */
async function expectExactCredits(client: ApiClient, batchId: string, opening: number) {
  const batch = await batchOf(client, batchId);
  const rows = await fullManifest(client, batchId);
  expect(rows.map((row) => row.rowIndex)).toEqual([...Array(batch.total).keys()]);
  const succeeded = rows.filter((row) => row.status === 'succeeded');
  expect(succeeded).toHaveLength(batch.succeeded);
  expect(new Set(succeeded.map((row) => row.renderId)).size).toBe(succeeded.length);
  const ledger: Json = await (
    await client.api('/v1/account/ledger?kind=debit&group=batch&limit=500')
  ).json();
  const debits = (ledger.entries as Json[]).find((line) => line.batchId === batchId);
  expect(debits?.entryCount ?? 0, JSON.stringify(debits)).toBe(batch.succeeded);
  expect(Math.abs(debits?.amount ?? 0)).toBe(batch.succeeded);
  // Rows still committing after a cancel: the holds are released within moments.
  const account = await until(
    async () => (await client.api('/v1/account')).json() as Promise<Json>,
    (value) => value.heldCredits === 0,
    30_000,
  );
  if (opening >= 0) expect(account.balance).toBe(opening - batch.succeeded);
  return { batch, rows };
}

/** The images of a bundle by name. */
function imagesOf(bundle: Buffer): Map<string, Buffer> {
  return new Map(
    new AdmZip(bundle)
      .getEntries()
      .filter((entry) => entry.entryName !== 'manifest.csv')
      .map((entry) => [entry.entryName, entry.getData()]),
  );
}

/** The uninterrupted embedded bundle of the long case, made once. */
let reference: Promise<Buffer> | undefined;
const longReference = () => (reference ??= throughApi(modes.embedded, long));

/** `render-desk batch` of the long case as a child process, for tests that interrupt it. */
function startCliBatch(dir: string): { child: ChildProcess; exit: Promise<number | null> } {
  const source = path.join(dir, 'rows.json');
  fs.writeFileSync(source, JSON.stringify(LONG));
  const child = spawn(
    process.execPath,
    [
      path.join(REPO_ROOT, 'bin', 'render-desk.mjs'),
      'batch',
      '--template',
      QUOTES,
      '--source',
      source,
      '--out',
      path.join(dir, 'out.zip'),
      '--data-dir',
      path.join(dir, 'data'),
      '--workers',
      '1',
      ...(long.flags ?? []),
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, RENDER_DESK_CREDITS: String(CREDITS) },
      stdio: ['ignore', 'ignore', 'ignore'],
    },
  );
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  return { child, exit };
}

/** Rows the command line's batch has written so far (its outputs folder, as the app keeps it). */
function renderedFiles(dir: string): number {
  const batches = path.join(dir, 'data', 'outputs', 'batches');
  if (!fs.existsSync(batches)) return 0;
  return fs
    .readdirSync(batches)
    .flatMap((id) => fs.readdirSync(path.join(batches, id)))
    .filter((name) => name.endsWith('.png')).length;
}

describe('cancel', () => {
  it('stops a long batch as cancelled: rendered rows kept and charged, the rest cancelled and free', async () => {
    const full = imagesOf(await longReference());
    const expectCancelled = async (client: ApiClient, id: string, opening: number) => {
      const { batch, rows } = await expectExactCredits(client, id, opening);
      expect(batch.status).toBe('cancelled');
      expect(batch.failed).toBe(0);
      expect(batch.succeeded).toBeGreaterThan(0);
      expect(batch.succeeded).toBeLessThan(LONG.length);
      expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['succeeded', 'cancelled']));
      // What was rendered is in the bundle, each image the uninterrupted batch's to the byte.
      const kept = imagesOf(await bundleOf(client, id));
      expect(kept.size).toBe(batch.succeeded);
      for (const [name, bytes] of kept) expect(bytes.equals(full.get(name)!), name).toBe(true);
    };

    const viaApi = async (client: ApiClient) => {
      const opening = (await (await client.api('/v1/account')).json()).balance as number;
      const id = await startedLong(client, 5);
      const cancelled = await client.api(`/v1/render-batches/${id}/cancel`, { method: 'POST' });
      expect(cancelled.status).toBe(200);
      await waitForBatch(client, id, 60_000);
      await expectCancelled(client, id, opening);
    };
    await Promise.all([viaApi(modes.embedded), viaApi(modes.cluster)]);

    // The command line: Ctrl-C (SIGINT) cancels the rows not yet rendered, exit 130.
    const dir = modes.caseDir('cancel-');
    const cli = startCliBatch(dir);
    await until(
      async () => renderedFiles(dir),
      (n) => n >= 5,
    );
    cli.child.kill('SIGINT');
    expect(await cli.exit).toBe(130);
    const app = await serveOn(path.join(dir, 'data'));
    await expectCancelled(app, (await onlyBatch(app)).id, CREDITS);
  }, 300_000);
});

describe('replay', () => {
  it("re-queues a batch's failed rows once their cause is fixed: the same bundle as a batch that never failed", async () => {
    const photo = await solidPng('#6b8e23');
    const asset = `upload-${crypto.createHash('sha256').update(photo).digest('hex').slice(0, 24)}.png`;
    // Every other row shows a photo the template does not have yet.
    const rows = quoteRows(4, 'Replay').map((row, i) =>
      i % 2 === 1 ? { ...row, authorPhoto: `asset:${asset}` } : row,
    );
    const addPhoto = async (client: ApiClient, templateId: string) => {
      const res = await client.api(`/v1/templates/${templateId}/assets`, {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: photo,
      });
      expect(res.status).toBe(201);
      expect((await res.json()).asset).toBe(asset);
    };
    const fork = async (client: ApiClient) => {
      const res = await client.api(`/v1/catalog/${QUOTES}/fork`, { method: 'POST', json: {} });
      expect(res.status).toBe(201);
      return (await res.json()).id as string;
    };
    /** The first run: rows 1 and 3 fail, naming the missing photo; then fixed and replayed. */
    const replayed = async (client: ApiClient, id: string, templateId: string) => {
      const first = await waitForBatch(client, id, 120_000);
      expect(first).toMatchObject({ status: 'partial', succeeded: 2, failed: 2 });
      const before = await fullManifest(client, id);
      expect(before[1].error).toMatch(/^values\.authorPhoto: /);
      await addPhoto(client, templateId);
      const replay = await client.api(`/v1/render-batches/${id}/replay`, { method: 'POST' });
      expect(replay.status, await replay.clone().text()).toBe(202);
      const done = await waitForBatch(client, id, 120_000);
      expect(done).toMatchObject({ status: 'succeeded', succeeded: 4, failed: 0 });
      const after = await fullManifest(client, id);
      // Succeeded rows keep their identity across the replay.
      for (const i of [0, 2]) expect(after[i].renderId).toBe(before[i].renderId);
      await expectExactCredits(client, id, -1);
      return { bundle: await bundleOf(client, id), firstRun: lines(before) };
    };
    const lines = (manifest: Json[]) =>
      manifest.map((row) => `${row.rowIndex},${row.status},${row.error ?? ''}`);
    const viaApi = async (client: ApiClient) => {
      const templateId = await fork(client);
      const { id } = await createBatch(client, {
        templateId,
        sourceType: 'json-array',
        source: { records: rows },
      });
      return { ...(await replayed(client, id, templateId)), templateId };
    };
    const viaCli = async () => {
      const dir = modes.caseDir('replay-');
      const forked = await runCli([
        'templates',
        'fork',
        QUOTES,
        '--data-dir',
        path.join(dir, 'data'),
        '--json',
      ]);
      expect(forked.code, forked.stderr).toBe(0);
      const templateId = (JSON.parse(forked.stdout) as { id: string }).id;
      const cli = await cliBatch(dir, { name: 'replay', templateId, rows, source: 'json' });
      expect(cli.code, cli.stderr).toBe(1);
      const app = await serveOn(path.join(dir, 'data'));
      return replayed(app, (await onlyBatch(app)).id, templateId);
    };
    const [embedded, cluster, fromCli] = await Promise.all([
      viaApi(modes.embedded),
      viaApi(modes.cluster),
      viaCli(),
    ]);
    // The first run failed the same rows with the same words everywhere.
    expect(fromCli.firstRun).toEqual(embedded.firstRun);
    expect(cluster.firstRun).toEqual(embedded.firstRun);
    expectSameBundles(embedded.bundle, fromCli.bundle, cluster.bundle);
    // …and the bundle of a batch that had the photo from the start.
    const fresh = await throughApi(modes.embedded, {
      name: 'never failed',
      templateId: embedded.templateId,
      rows,
      source: 'json',
    });
    expect(describeZip(embedded.bundle)).toBe(describeZip(fresh));
    expect(embedded.bundle.equals(fresh)).toBe(true);
  }, 300_000);
});

describe('delete', () => {
  it('removes a batch and its outputs: the batch, its manifest, bundle and every output answer 404', async () => {
    const rows = quoteRows(3, 'Delete');
    const expectDeleted = async (client: ApiClient, id: string, files?: string) => {
      const keys = (await fullManifest(client, id)).map((row) => row.outputKey as string);
      expect(keys).toHaveLength(3);
      expect((await client.api(`/v1/outputs/${keys[0]}`)).status).toBe(200);
      const removed = await client.api(`/v1/render-batches/${id}`, { method: 'DELETE' });
      expect(removed.status).toBe(204);
      for (const pathname of [
        `/v1/render-batches/${id}`,
        `/v1/render-batches/${id}/renders?cursor=0`,
        `/v1/render-batches/${id}/bundle`,
        ...keys.map((key) => `/v1/outputs/${key}`),
      ])
        expect((await client.api(pathname)).status, pathname).toBe(404);
      expect((await client.api(`/v1/render-batches/${id}`, { method: 'DELETE' })).status).toBe(404);
      if (files !== undefined) expect(fs.existsSync(files)).toBe(false);
    };
    const viaApi = async (client: ApiClient, files: (id: string) => string | undefined) => {
      const { id } = await createBatch(client, {
        templateId: QUOTES,
        sourceType: 'json-array',
        source: { records: rows },
      });
      expect((await waitForBatch(client, id)).status).toBe('succeeded');
      await expectDeleted(client, id, files(id));
    };
    const dir = modes.caseDir('delete-');
    const cli = await cliBatch(dir, { name: 'delete', templateId: QUOTES, rows, source: 'json' });
    expect(cli.code, cli.stderr).toBe(0);
    const app = await serveOn(path.join(dir, 'data'));
    const cliBatchId = (await onlyBatch(app)).id as string;
    await Promise.all([
      viaApi(modes.embedded, (id) =>
        path.join(modes.embedded.core.dataDir, 'outputs', 'batches', id),
      ),
      viaApi(modes.cluster, () => undefined),
      expectDeleted(app, cliBatchId, path.join(dir, 'data', 'outputs', 'batches', cliBatchId)),
    ]);
  }, 300_000);
});

describe('resume after kill -9', () => {
  it('finishes with the uninterrupted bundle, every row once, credits exact: a server, the command line, a cluster worker', async () => {
    const full = await longReference();

    // An embedded server killed halfway and started again on its data folder.
    const serveDir = modes.caseDir('serve-');
    const serveOnce = async () => {
      const first = await serveOn(serveDir);
      const id = await startedLong(first);
      await killed(first.server);
      const again = await serveOn(serveDir);
      expect((await waitForBatch(again, id, 240_000)).status).toBe('succeeded');
      await expectExactCredits(again, id, CREDITS);
      return bundleOf(again, id);
    };

    // The command line killed halfway; the app resumes its batch when it next opens the folder.
    const cliDir = modes.caseDir('cli-');
    const cliOnce = async () => {
      const cli = startCliBatch(cliDir);
      await until(
        async () => renderedFiles(cliDir),
        (n) => n >= 10,
      );
      cli.child.kill('SIGKILL');
      // Killed, not finished before the kill: the app has a batch halfway to resume.
      expect(await cli.exit).toBe(-1);
      const app = await serveOn(path.join(cliDir, 'data'));
      const { id } = await onlyBatch(app);
      expect((await waitForBatch(app, id, 240_000)).status).toBe('succeeded');
      await expectExactCredits(app, id, CREDITS);
      return bundleOf(app, id);
    };

    // A cluster worker killed halfway: its chunks go to the other worker.
    const clusterOnce = async () => {
      const opening = (await (await modes.cluster.api('/v1/account')).json()).balance as number;
      const id = await startedLong(modes.cluster);
      modes.workers[0]!.signal('SIGKILL');
      expect((await waitForBatch(modes.cluster, id, 240_000)).status).toBe('succeeded');
      await expectExactCredits(modes.cluster, id, opening);
      return bundleOf(modes.cluster, id);
    };

    const [fromServe, fromCli, fromCluster] = await Promise.all([
      serveOnce(),
      cliOnce(),
      clusterOnce(),
    ]);
    expectSameBundles(full, fromCli, fromCluster);
    expect(describeZip(fromServe)).toBe(describeZip(full));
    expect(fromServe.equals(full)).toBe(true);
  }, 420_000);
});
