import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, upload, waitForBatch } from '../helpers/batch-helpers.js';
import {
  callNode,
  sharedInitialisedCluster,
  startClusterNode,
  type ClusterEnvironment,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';
import { runCli, tempDir, writeCsv } from '../helpers/run-cli.js';
import {
  startTestServer,
  testFetch,
  type ApiClient,
  type Json,
  type TestServer,
} from '../helpers/test-server.js';
import { workbookZip } from '../ingest/xlsx/workbook-fixture.js';

/**
 * One product, three ways to run a batch: the same request through the API of an embedded server,
 * through `render-desk batch` on a data folder, and through a cluster of one API node and two
 * workers on real PostgreSQL, Redis and S3 must give the same result, byte for byte: the same
 * bundle (images, names, manifest.csv). Each batch feature is one case here, run in all three.
 */

const QUOTES = 'tmpl_quote_card';
const BADGES = 'tmpl_name_badge';

type Row = Record<string, string>;

/** A case: the request as the API takes it, and the same as command-line flags and a file. */
interface ParityCase {
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

const quoteRows = (n: number, tag: string): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    quote: `${tag} ${i + 1}: simplicity is the presence of care in every small decision.`,
    author: `Nguyễn Văn ${String.fromCharCode(65 + i)}`,
    authorRole: i % 2 === 0 ? 'Founder' : '',
  }));

const CASES: ParityCase[] = [
  { name: 'json-array records', templateId: QUOTES, rows: quoteRows(4, 'JSON'), source: 'json' },
  {
    name: 'a CSV upload, named from a column',
    templateId: QUOTES,
    rows: quoteRows(4, 'CSV'),
    source: 'csv',
    options: { fileNamePattern: '{author}' },
    flags: ['--name-pattern', '{author}'],
  },
  { name: 'an XLSX upload', templateId: QUOTES, rows: quoteRows(3, 'XLSX'), source: 'xlsx' },
  {
    name: 'bindings: a column, a constant, a brand value and a generated row number',
    templateId: QUOTES,
    rows: quoteRows(3, 'Bound').map((row) => ({ 'Câu nói': row.quote!, 'Tác giả': row.author! })),
    source: 'csv',
    options: {
      bindings: {
        quote: { field: 'Câu nói' },
        author: { field: 'Tác giả' },
        authorRole: { generated: 'rowNumber' },
        background: { constant: '#1E3A5F' },
        accent: { profile: 'brand.accentColor' },
      },
    },
    flags: [
      '--bindings',
      JSON.stringify({
        quote: { field: 'Câu nói' },
        author: { field: 'Tác giả' },
        authorRole: { generated: 'rowNumber' },
        background: { constant: '#1E3A5F' },
        accent: { profile: 'brand.accentColor' },
      }),
    ],
  },
  {
    name: 'several sizes (targets)',
    templateId: QUOTES,
    rows: quoteRows(2, 'Sizes'),
    source: 'csv',
    options: { targets: ['square', 'story'] },
    flags: ['--targets', 'square,story'],
  },
  {
    name: 'badges on A4 sheets, duplex',
    templateId: BADGES,
    rows: Array.from({ length: 5 }, (_, i) => ({
      eventName: 'ProductConf 2026',
      firstName: `Guest ${i + 1}`,
      attendeeType: 'speaker',
      company: 'Acme Robotics',
    })),
    source: 'json',
    options: {
      format: 'pdf',
      target: 'badge',
      sheets: { preset: 'a6-on-a4', duplex: 'long-edge' },
    },
    flags: ['--sheets', 'a6-on-a4', '--duplex', 'long-edge'],
  },
];

let embedded: TestServer;
let env: ClusterEnvironment;
let api: ClusterNodeProcess;
let workers: ClusterNodeProcess[] = [];
let temp: ReturnType<typeof tempDir>;

/** The cluster's API node as a client of the helpers (its own key). */
const cluster: ApiClient = {
  api: (pathname, init = {}) =>
    callNode(env, api, pathname, {
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

function csvOf(rows: Row[]): string {
  const fields = Object.keys(rows[0] ?? {});
  const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return [fields.join(','), ...rows.map((row) => fields.map((f) => cell(row[f] ?? '')).join(','))]
    .map((line) => `${line}\r\n`)
    .join('');
}

function xlsxOf(rows: Row[]): Buffer {
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

/** The case through an API (embedded or cluster): its bundle with manifest.csv. */
async function throughApi(client: ApiClient, test: ParityCase): Promise<Buffer> {
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
  const done = await waitForBatch(client, batch.id, 240_000);
  expect(done.status, JSON.stringify(done)).toBe('succeeded');
  // The zip as served: its signed link fetched over HTTP (no zip library re-writes it).
  const link: Json = await (
    await client.api(`/v1/render-batches/${batch.id}/bundle?manifest=true`)
  ).json();
  const zip = await testFetch(link.url);
  expect(zip.status).toBe(200);
  return Buffer.from(await zip.arrayBuffer());
}

/** The case through `render-desk batch` on a data folder of its own: the zip it writes. */
async function throughCli(test: ParityCase): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(temp.dir, 'case-'));
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
    ],
    { RENDER_DESK_CREDITS: '10000' },
  );
  expect(result.code, result.stderr).toBe(0);
  return fs.readFileSync(out);
}

/** A bundle as text for a readable difference: its entry names and sizes, and manifest.csv. */
function describeZip(bytes: Buffer): string {
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

describe('a batch feature gives the same bundle from the API, the command line and a cluster', () => {
  for (const test of CASES) {
    it(
      test.name,
      async () => {
        const [fromEmbedded, fromCli, fromCluster] = await Promise.all([
          throughApi(embedded, test),
          throughCli(test),
          throughApi(cluster, test),
        ]);
        expect(describeZip(fromEmbedded)).toContain('manifest.csv');
        // Readable first (names, sizes, manifest), then to the byte.
        expect(describeZip(fromCli)).toBe(describeZip(fromEmbedded));
        expect(describeZip(fromCluster)).toBe(describeZip(fromEmbedded));
        expect(fromCli.equals(fromEmbedded)).toBe(true);
        expect(fromCluster.equals(fromEmbedded)).toBe(true);
      },
      300_000,
    );
  }
});

describe("a batch's circuit breaker means the same in every mode", () => {
  it('stops a batch whose rows all fail as degraded, after 10 in a row, wherever its rows ran', async () => {
    // 120 rows: two chunks in the cluster, drawn by both workers; every photo is missing.
    const rows = quoteRows(120, 'Broken').map((row) => ({
      ...row,
      authorPhoto: '/no/such/folder/photo.png',
    }));
    const test: ParityCase = { name: 'breaker', templateId: QUOTES, rows, source: 'json' };
    const viaApi = async (client: ApiClient) => {
      const batch = await createBatch(client, {
        templateId: QUOTES,
        sourceType: 'json-array',
        source: { records: rows },
      });
      return waitForBatch(client, batch.id, 240_000);
    };
    const [fromEmbedded, fromCluster] = await Promise.all([viaApi(embedded), viaApi(cluster)]);
    for (const batch of [fromEmbedded, fromCluster]) {
      expect(batch.status).toBe('degraded');
      expect(batch.stoppedReason).toMatch(/10 rows in a row failed/);
      expect(batch.succeeded).toBe(0);
      // Stopped early: far from every row was tried.
      expect(batch.failed).toBeLessThan(rows.length);
    }
    expect(fromCluster.stoppedReason).toBe(fromEmbedded.stoppedReason);

    const dir = fs.mkdtempSync(path.join(temp.dir, 'breaker-'));
    fs.writeFileSync(path.join(dir, 'rows.json'), JSON.stringify(test.rows));
    const cli = await runCli(
      [
        'batch',
        '--template',
        QUOTES,
        '--source',
        path.join(dir, 'rows.json'),
        '--out',
        path.join(dir, 'out.zip'),
        '--data-dir',
        path.join(dir, 'data'),
        '--json',
      ],
      { RENDER_DESK_CREDITS: '10000' },
    );
    expect(cli.code).toBe(1);
    const summary = JSON.parse(cli.stdout) as { stoppedReason?: string; rendered: number };
    expect(summary.stoppedReason).toBe(fromEmbedded.stoppedReason);
    expect(summary.rendered).toBe(0);
  }, 300_000);
});
