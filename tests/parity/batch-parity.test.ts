import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBatch, waitForBatch } from '../helpers/batch-helpers.js';
import { runCli } from '../helpers/run-cli.js';
import type { ApiClient, Json } from '../helpers/test-server.js';
import {
  BADGES,
  QUOTES,
  batchThroughApi,
  bundleOf,
  cliBatch,
  describeZip,
  expectSameBundles,
  quoteRows,
  throughApi,
  throughCli,
  useParityModes,
  type ParityCase,
} from './parity-harness.js';

/**
 * One product, three ways to run a batch: the same request through the API of an embedded server,
 * through `render-desk batch` on a data folder, and through a cluster of one API node and two
 * workers on real PostgreSQL, Redis and S3 must give the same result, byte for byte: the same
 * bundle (images, names, manifest.csv). Each batch feature is one case here, run in all three.
 */

const modes = useParityModes();

const SERIAL_BINDINGS = {
  authorRole: { serial: { start: 1001, step: 5, pad: 6, prefix: 'TIX-', suffix: '' } },
  author: { generated: 'total' },
};

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
    // 60 rows: two chunks in the cluster, so each worker numbers rows it did not count. What
    // this case follows is the numbering, not the drawing (the cases above draw at full size):
    // its rows are drawn at a quarter of the size in every mode, still compared to the byte.
    name: 'bindings: a serial number and the row count, across chunks',
    templateId: QUOTES,
    rows: quoteRows(60, 'Serial').map(({ quote }) => ({ quote: quote! })),
    source: 'csv',
    options: { bindings: SERIAL_BINDINGS, scale: 0.25 },
    flags: ['--bindings', JSON.stringify(SERIAL_BINDINGS), '--scale', '0.25'],
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
    name: 'badges on A4 sheets, duplex, cut and stack',
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
      sheets: { preset: 'a6-on-a4', duplex: 'long-edge', cutAndStack: true },
    },
    flags: ['--sheets', 'a6-on-a4', '--duplex', 'long-edge', '--cut-and-stack'],
  },
  {
    name: 'codes read back from the pixels (verifyCodes)',
    templateId: BADGES,
    rows: Array.from({ length: 3 }, (_, i) => ({
      eventName: 'ProductConf 2026',
      firstName: `Guest ${i + 1}`,
      attendeeType: 'attendee',
      profileUrl: `https://productconf.example/p/guest-${i + 1}`,
    })),
    source: 'csv',
    options: { verifyCodes: true },
    flags: ['--verify-codes'],
  },
  {
    // A print PDF's codes are read from a raster of only the layers around them, and a long
    // one-word first name is kept whole at a smaller size: engine work every mode's threads do.
    name: 'print badges as PDF, codes read back, long names kept whole',
    templateId: BADGES,
    rows: ['Bartholomew', 'Maximilianová', 'Linh'].map((firstName, i) => ({
      eventName: 'ProductConf 2026',
      firstName,
      attendeeType: 'speaker',
      profileUrl: `https://productconf.example/p/badge-${i + 1}`,
      attendeeId: `PC26-0${i + 100}`,
    })),
    source: 'json',
    options: { format: 'pdf', target: 'badge', verifyCodes: true },
    flags: ['--format', 'pdf', '--target', 'badge', '--verify-codes'],
  },
];

describe('a batch feature gives the same bundle from the API, the command line and a cluster', () => {
  for (const test of CASES) {
    it(
      test.name,
      async () => {
        const [fromEmbedded, fromCli, fromCluster] = await Promise.all([
          throughApi(modes.embedded, test),
          throughCli(modes, test),
          throughApi(modes.cluster, test),
        ]);
        expectSameBundles(fromEmbedded, fromCli, fromCluster);
        // The same, and made: no case here is meant to fail a row.
        expect(describeZip(fromEmbedded)).not.toMatch(/,failed,/);
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
    const [fromEmbedded, fromCluster] = await Promise.all([
      viaApi(modes.embedded),
      viaApi(modes.cluster),
    ]);
    for (const batch of [fromEmbedded, fromCluster]) {
      expect(batch.status).toBe('degraded');
      expect(batch.stoppedReason).toMatch(/10 rows in a row failed/);
      expect(batch.succeeded).toBe(0);
      // Stopped early: far from every row was tried.
      expect(batch.failed).toBeLessThan(rows.length);
    }
    expect(fromCluster.stoppedReason).toBe(fromEmbedded.stoppedReason);

    const cli = await cliBatch(modes.caseDir('breaker-'), test, { args: ['--json'] });
    expect(cli.code).toBe(1);
    const summary = JSON.parse(cli.stdout) as { stoppedReason?: string; rendered: number };
    expect(summary.stoppedReason).toBe(fromEmbedded.stoppedReason);
    expect(summary.rendered).toBe(0);
  }, 300_000);
});

/**
 * The name badge with its QR code in an ink each row gives (`qrInk`), made through the API as a
 * designer makes one. Its id.
 */
async function inkedBadge(client: ApiClient): Promise<string> {
  const fork = await client.api(`/v1/catalog/${BADGES}/fork`, {
    method: 'POST',
    json: { name: 'Inked badge' },
  });
  const forked: Json = await fork.json();
  expect(fork.status, JSON.stringify(forked)).toBe(201);
  const { layouts, variables } = forked.template;
  const saved = await client.api(`/v1/templates/${forked.id}`, {
    method: 'PATCH',
    json: {
      baseVersion: forked.version,
      variables: [...variables, { name: 'qrInk', type: 'colour', default: '#0F172A' }],
      layouts: {
        ...layouts,
        square: {
          ...layouts.square,
          layers: layouts.square.layers.map((layer: Json) =>
            layer.id === 'profile-qr' ? { ...layer, foreground: { var: 'qrInk' } } : layer,
          ),
        },
      },
    },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return forked.id as string;
}

describe('a code that does not scan fails its row the same way in every mode', () => {
  it('verifyCodes fails the row whose QR code is too pale, naming its value', async () => {
    const [embeddedId, clusterId] = await Promise.all([
      inkedBadge(modes.embedded),
      inkedBadge(modes.cluster),
    ]);
    // The command line's data folder gets the template as a pack: the app's export, imported.
    const dir = modes.caseDir('pale-code-');
    const pack = path.join(dir, 'inked-badge.zip');
    const exported = await modes.embedded.api(`/v1/templates/${embeddedId}/pack`);
    expect(exported.status).toBe(200);
    fs.writeFileSync(pack, Buffer.from(await exported.arrayBuffer()));
    const imported = await runCli([
      'templates',
      'import',
      pack,
      '--data-dir',
      path.join(dir, 'data'),
      '--json',
    ]);
    expect(imported.code, imported.stderr + imported.stdout).toBe(0);
    const cliId = (JSON.parse(imported.stdout) as { id: string }).id;

    const rows = [1, 2, 3].map((i) => ({
      eventName: 'ProductConf 2026',
      firstName: `Guest ${i}`,
      attendeeType: 'attendee',
      profileUrl: `https://productconf.example/p/guest-${i}`,
      // Row 2's code is barely darker than the paper: no reader finds it.
      qrInk: i === 2 ? '#F3F3F3' : '',
    }));
    const test = (templateId: string): ParityCase => ({
      name: 'pale code',
      templateId,
      rows,
      source: 'csv',
      options: { verifyCodes: true },
      flags: ['--verify-codes'],
    });
    const viaApi = async (client: ApiClient, templateId: string) => {
      const batch = await batchThroughApi(client, test(templateId));
      expect(batch).toMatchObject({ status: 'partial', succeeded: 2, failed: 1 });
      return bundleOf(client, batch.id);
    };
    const [fromEmbedded, fromCluster, cli] = await Promise.all([
      viaApi(modes.embedded, embeddedId),
      viaApi(modes.cluster, clusterId),
      cliBatch(dir, test(cliId)),
    ]);
    expect(cli.code, cli.stderr).toBe(1);
    expectSameBundles(fromEmbedded, fs.readFileSync(cli.out), fromCluster);
    expect(describeZip(fromEmbedded)).toContain(
      'values.profileUrl: the QR code ""profile-qr"" does not scan',
    );
  }, 300_000);
});
