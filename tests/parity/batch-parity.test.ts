import { describe, expect, it } from 'vitest';
import { createBatch, waitForBatch } from '../helpers/batch-helpers.js';
import type { ApiClient } from '../helpers/test-server.js';
import {
  BADGES,
  QUOTES,
  cliBatch,
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
