import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { afterAll, beforeAll, expect } from 'vitest';
import { createBatch, upload, waitForBatch } from '../helpers/batch-helpers.js';
import {
  callNode,
  sharedInitialisedCluster,
  startClusterNode,
  type ClusterEnvironment,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';
import { runCli, tempDir, writeCsv, type CliResult } from '../helpers/run-cli.js';
import {
  startTestServer,
  testFetch,
  type ApiClient,
  type Json,
  type TestServer,
} from '../helpers/test-server.js';
import { workbookZip } from '../ingest/xlsx/workbook-fixture.js';

/**
 * The three ways to run a batch, side by side, for the parity tests: an embedded server's API,
 * `render-desk batch` on a data folder of its own, and a cluster of one API node and two workers
 * on real PostgreSQL, Redis and S3. A parity test file calls `useParityModes()` once.
 */

export const QUOTES = 'tmpl_quote_card';
export const BADGES = 'tmpl_name_badge';

export type Row = Record<string, string>;

/** A case: the request as the API takes it, and the same as command-line flags and a file. */
export interface ParityCase {
  name: string;
  templateId: string;
  rows: Row[];
  /** How the rows travel: inline records, or an uploaded CSV or XLSX file. */
  source: 'json' | 'csv' | 'xlsx';
  /** More of POST /v1/render-batches (format, targets, bindings, sheets, fileNamePattern). */
  options?: Record<string, unknown>;
  /** The same options as `render-desk batch` flags. */
  flags?: string[];
}

export const quoteRows = (n: number, tag: string): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    quote: `${tag} ${i + 1}: simplicity is the presence of care in every small decision.`,
    author: `Nguyễn Văn ${String.fromCharCode(65 + i)}`,
    authorRole: i % 2 === 0 ? 'Founder' : '',
  }));

/** The running modes of one test file. */
export interface ParityModes {
  /** The embedded server (its own data folder). */
  readonly embedded: TestServer;
  /** The cluster's API node as a client of the helpers (its own key). */
  readonly cluster: ApiClient;
  readonly env: ClusterEnvironment;
  readonly api: ClusterNodeProcess;
  readonly workers: ClusterNodeProcess[];
  /** A fresh folder for one case's files. */
  caseDir(prefix?: string): string;
}

/** Starts the embedded server and the cluster before the file's tests, stops them after. */
export function useParityModes(): ParityModes {
  let embedded: TestServer | undefined;
  let env: ClusterEnvironment | undefined;
  let api: ClusterNodeProcess | undefined;
  let workers: ClusterNodeProcess[] = [];
  let temp: ReturnType<typeof tempDir> | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the parity modes start in beforeAll');
    return value;
  };
  const cluster: ApiClient = {
    api: (pathname, init = {}) =>
      callNode(started(env), started(api), pathname, {
        ...(init.method ? { method: init.method } : {}),
        ...(init.headers ? { headers: init.headers } : {}),
        ...(init.json !== undefined ? { json: init.json } : {}),
        ...(init.body !== undefined ? { body: init.body as RequestInit['body'] } : {}),
      }),
  };

  beforeAll(async () => {
    temp = tempDir('rd-parity-');
    env = await sharedInitialisedCluster();
    [embedded, api, ...workers] = await Promise.all([
      startTestServer({ workers: 1, openingCredits: 10_000 }),
      startClusterNode(env, 'api'),
      startClusterNode(env, 'worker'),
      startClusterNode(env, 'worker'),
    ]);
  }, 300_000);

  afterAll(async () => {
    await Promise.allSettled([embedded?.stop(), api?.stop(), ...workers.map((w) => w.stop())]);
    temp?.remove();
  }, 120_000);

  return {
    get embedded() {
      return started(embedded);
    },
    cluster,
    get env() {
      return started(env);
    },
    get api() {
      return started(api);
    },
    get workers() {
      return workers;
    },
    caseDir: (prefix = 'case-') => fs.mkdtempSync(path.join(started(temp).dir, prefix)),
  };
}

export function csvOf(rows: Row[]): string {
  const fields = Object.keys(rows[0] ?? {});
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return [fields.join(','), ...rows.map((row) => fields.map((f) => cell(row[f] ?? '')).join(','))]
    .map((line) => `${line}\r\n`)
    .join('');
}

export function xlsxOf(rows: Row[]): Buffer {
  const fields = Object.keys(rows[0] ?? {});
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const cells = (values: string[], r: number) =>
    values
      .map(
        (value, c) =>
          `<c r="${String.fromCharCode(65 + c)}${r}" t="inlineStr"><is><t>${escape(value)}</t></is></c>`,
      )
      .join('');
  const sheet = [fields, ...rows.map((row) => fields.map((f) => row[f] ?? ''))]
    .map((values, i) => `<row r="${i + 1}">${cells(values, i + 1)}</row>`)
    .join('');
  return workbookZip({ sheet });
}

/** The case as a batch through an API (embedded or cluster), waited for: its record. */
export async function batchThroughApi(client: ApiClient, test: ParityCase): Promise<Json> {
  let source: Record<string, unknown>;
  let sourceType: string;
  if (test.source === 'json') {
    source = { records: test.rows };
    sourceType = 'json-array';
  } else {
    const bytes = test.source === 'csv' ? Buffer.from(csvOf(test.rows), 'utf8') : xlsxOf(test.rows);
    const uploaded = await upload(client, bytes, `rows.${test.source}`);
    const body: Json = await uploaded.json();
    expect(uploaded.status, JSON.stringify(body)).toBe(201);
    source = { sourceRef: body.id };
    sourceType = test.source;
  }
  const batch = await createBatch(client, {
    templateId: test.templateId,
    sourceType,
    source,
    ...test.options,
  });
  return waitForBatch(client, batch.id, 240_000);
}

/** A finished batch's bundle with manifest.csv, as served: its signed link fetched over HTTP. */
export async function bundleOf(client: ApiClient, batchId: string): Promise<Buffer> {
  const link: Json = await (
    await client.api(`/v1/render-batches/${batchId}/bundle?manifest=true`)
  ).json();
  const zip = await testFetch(link.url);
  expect(zip.status).toBe(200);
  return Buffer.from(await zip.arrayBuffer());
}

/** The case through an API (embedded or cluster), expected to succeed: its bundle. */
export async function throughApi(client: ApiClient, test: ParityCase): Promise<Buffer> {
  const done = await batchThroughApi(client, test);
  expect(done.status, JSON.stringify(done)).toBe('succeeded');
  return bundleOf(client, done.id);
}

/** `render-desk batch` with the case's file and flags, on a data folder in `dir`. */
export async function cliBatch(
  dir: string,
  test: ParityCase,
  more: { args?: string[]; env?: Record<string, string> } = {},
): Promise<CliResult & { out: string }> {
  const file = path.join(dir, `rows.${test.source}`);
  if (test.source === 'json') fs.writeFileSync(file, JSON.stringify(test.rows));
  else if (test.source === 'csv') writeCsv(file, test.rows);
  else fs.writeFileSync(file, xlsxOf(test.rows));
  const out = path.join(dir, 'out.zip');
  const result = await runCli(
    [
      'batch',
      '--template',
      test.templateId,
      '--source',
      file,
      '--out',
      out,
      '--data-dir',
      path.join(dir, 'data'),
      '--workers',
      '1',
      ...(test.flags ?? []),
      ...(more.args ?? []),
    ],
    { RENDER_DESK_CREDITS: '10000', ...more.env },
  );
  return { ...result, out };
}

/** The case through `render-desk batch` on a data folder of its own: the zip it writes. */
export async function throughCli(modes: ParityModes, test: ParityCase): Promise<Buffer> {
  const result = await cliBatch(modes.caseDir(), test);
  expect(result.code, result.stderr).toBe(0);
  return fs.readFileSync(result.out);
}

/** A bundle as text for a readable difference: its entry names and sizes, and manifest.csv. */
export function describeZip(bytes: Buffer): string {
  const zip = new AdmZip(bytes);
  return zip
    .getEntries()
    .map((entry) =>
      entry.entryName === 'manifest.csv'
        ? `manifest.csv:\n${zip.readAsText(entry)}`
        : `${entry.entryName} ${entry.header.size}`,
    )
    .join('\n');
}

/** The three bundles of one case are the same: readable first (names, sizes, manifest), then to the byte. */
export function expectSameBundles(
  fromEmbedded: Buffer,
  fromCli: Buffer,
  fromCluster: Buffer,
): void {
  expect(describeZip(fromEmbedded)).toContain('manifest.csv');
  expect(describeZip(fromCli)).toBe(describeZip(fromEmbedded));
  expect(describeZip(fromCluster)).toBe(describeZip(fromEmbedded));
  expect(fromCli.equals(fromEmbedded)).toBe(true);
  expect(fromCluster.equals(fromEmbedded)).toBe(true);
}
