import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ledgerBalance, productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';
import { pdfBoxes, poppler } from '../helpers/poppler.js';
import { runCli, tempDir, writeCsv } from '../helpers/run-cli.js';

describe('render-desk batch', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  beforeEach(() => {
    temp = tempDir('rd-cli-batch-');
    dataDir = path.join(temp.dir, 'data');
  });
  afterEach(() => temp.remove());

  const batch = (...args: string[]) =>
    runCli(['batch', '--template', REFERENCE, '--data-dir', dataDir, '--workers', '2', ...args]);

  // Node reports every worker thread it starts under NODE_DEBUG=worker; render threads run
  // piscina's worker script.
  const batchWatchingThreads = (...args: string[]) =>
    runCli(['batch', '--template', REFERENCE, '--data-dir', dataDir, '--workers', '2', ...args], {
      NODE_DEBUG: 'worker',
    });
  const renderThreadsStarted = (stderr: string) =>
    stderr.match(/create new worker \S*piscina\S*worker\.js/g)?.length ?? 0;

  it('renders every CSV row into a folder with manifest.csv, one credit per row, and a summary', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    writeCsv(source, [0, 1, 2, 3].map(productRow));
    const out = path.join(temp.dir, 'out');
    const result = await batch('--source', source, '--out', out, '--name-pattern', '{headline}');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/rendered 4, failed 0/);
    expect(result.stdout).toMatch(/credits: 4 charged, 96 left/);
    const pngs = fs
      .readdirSync(out)
      .filter((name) => name.endsWith('.png'))
      .sort();
    expect(pngs).toEqual([0, 1, 2, 3].map((i) => `Vitamin C Glow Serum #${i}.png`));
    for (const name of pngs) {
      const meta = await sharp(path.join(out, name)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1080]);
    }
    expect(fs.readFileSync(path.join(out, 'manifest.csv'), 'utf8')).toMatch(
      /0,succeeded,Vitamin C Glow Serum #0\.png,/,
    );
    expect(ledgerBalance(dataDir)).toEqual({ balance: 96, debited: 4 });
  });

  it('writes a zip from JSON records, and a failed row exits 1 uncharged and is named', async () => {
    const source = path.join(temp.dir, 'rows.json');
    fs.writeFileSync(
      source,
      JSON.stringify([productRow(0), { ...productRow(1), price: 'free!' }, productRow(2)]),
    );
    const out = path.join(temp.dir, 'images.zip');
    const result = await batch('--source', source, '--out', out, '--json');
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as {
      rendered: number;
      failed: number;
      failures: { rowIndex: number; error: string }[];
    };
    expect(summary.rendered).toBe(2);
    expect(summary.failed).toBe(1);
    expect(summary.failures[0]).toMatchObject({ rowIndex: 1 });
    expect(summary.failures[0]!.error).toMatch(/price/);
    const zip = new AdmZip(out);
    const names = zip
      .getEntries()
      .map((entry) => entry.entryName)
      .sort();
    expect(names).toEqual(['1.png', '3.png', 'manifest.csv']);
    const meta = await sharp(zip.readFile('3.png')!).metadata();
    expect([meta.format, meta.width]).toEqual(['png', 1080]);
    expect(ledgerBalance(dataDir)).toEqual({ balance: 98, debited: 2 });
  });

  it('with --cache, a second run renders and charges only the changed rows', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    const cache = path.join(temp.dir, '.render-cache');
    const rows = [0, 1, 2, 3, 4].map(productRow);
    writeCsv(source, rows);
    const first = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'first'),
      '--cache',
      cache,
    );
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/rendered 5, unchanged 0, failed 0/);

    rows[1] = { ...rows[1]!, headline: 'A new headline' };
    rows[3] = { ...rows[3]!, price: 99 };
    writeCsv(source, rows);
    const firstBytes = (name: string) => fs.readFileSync(path.join(temp.dir, 'first', name));
    const [changedBefore, unchangedBefore] = [firstBytes('2.png'), firstBytes('3.png')];
    // Into the first run's folder: its images are replaced.
    const out = path.join(temp.dir, 'first');
    const second = await batchWatchingThreads('--source', source, '--out', out, '--cache', cache);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/rendered 2, unchanged 3, failed 0/);
    // Two changed rows need one render thread, not the two configured.
    expect(renderThreadsStarted(second.stderr)).toBe(1);
    expect(ledgerBalance(dataDir)).toEqual({ balance: 93, debited: 7 });
    // Every row is delivered, the changed ones with their new content.
    expect(fs.readFileSync(path.join(out, '2.png')).equals(changedBefore)).toBe(false);
    expect(fs.readFileSync(path.join(out, '3.png')).equals(unchangedBefore)).toBe(true);
    expect(fs.readdirSync(out).filter((name) => name.endsWith('.png'))).toHaveLength(5);

    const third = await batchWatchingThreads(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'third'),
      '--cache',
      cache,
    );
    expect(third.stdout).toMatch(/rendered 0, unchanged 5, failed 0/);
    // The one thread a cached run starts at once (to have the engine loaded by the first changed
    // row) is closed unused; no other is started.
    expect(renderThreadsStarted(third.stderr)).toBe(1);
    expect(ledgerBalance(dataDir).debited).toBe(7);
  });

  it('renders every row at --scale, keeps cached outputs apart by scale, and refuses a scale outside 0.25–4', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    const cache = path.join(temp.dir, '.render-cache');
    writeCsv(source, [0, 1].map(productRow));
    const run = (out: string, ...more: string[]) =>
      batch('--source', source, '--out', path.join(temp.dir, out), '--cache', cache, ...more);
    const sizes = async (out: string) =>
      Promise.all(
        ['1.png', '2.png'].map(async (name) => {
          const meta = await sharp(path.join(temp.dir, out, name)).metadata();
          return [meta.width, meta.height];
        }),
      );

    const half = await run('half', '--scale', '0.5');
    expect(half.code, half.stderr).toBe(0);
    expect(half.stdout).toMatch(/rendered 2, unchanged 0, failed 0/);
    expect(await sizes('half')).toEqual([
      [540, 540],
      [540, 540],
    ]);
    // The same rows at the default scale are other images: rendered, not taken from the cache.
    const full = await run('full');
    expect(full.stdout).toMatch(/rendered 2, unchanged 0, failed 0/);
    expect(await sizes('full')).toEqual([
      [1080, 1080],
      [1080, 1080],
    ]);
    const again = await run('again', '--scale', '0.5');
    expect(again.stdout).toMatch(/rendered 0, unchanged 2, failed 0/);
    expect(await sizes('again')).toEqual(await sizes('half'));

    const refused = await run('never', '--scale', '4.5');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--scale must be a number from 0.25 to 4');
    expect(fs.existsSync(path.join(temp.dir, 'never'))).toBe(false);
    expect(ledgerBalance(dataDir)).toEqual({ balance: 96, debited: 4 });
  });

  it('resolves relative image paths against the source file folder, with and without --cache', async () => {
    const site = path.join(temp.dir, 'site');
    fs.mkdirSync(path.join(site, 'photos'), { recursive: true });
    fs.copyFileSync(
      path.join(REPO_ROOT, 'templates', 'catalog', 'product-promo', 'product.jpg'),
      path.join(site, 'photos', 'serum.jpg'),
    );
    const source = path.join(site, 'rows.csv');
    writeCsv(source, [{ ...productRow(0), photo: 'photos/serum.jpg' }]);
    const plain = await batch('--source', source, '--out', path.join(temp.dir, 'plain'));
    expect(plain.stdout).toMatch(/rendered 1, failed 0/);
    const cached = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'cached'),
      '--cache',
      path.join(temp.dir, 'cache'),
    );
    expect(cached.stdout).toMatch(/rendered 1, unchanged 0, failed 0/);
    expect(
      fs
        .readFileSync(path.join(temp.dir, 'cached', '1.png'))
        .equals(fs.readFileSync(path.join(temp.dir, 'plain', '1.png'))),
    ).toBe(true);

    writeCsv(source, [{ ...productRow(0), photo: '../outside.jpg' }]);
    const outside = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'outside'),
      '--images',
      path.join(site, 'photos'),
    );
    expect(outside.code).toBe(1);
    expect(outside.stdout).toMatch(/outside the images folder/);
  });

  it('renders every row in each of --targets, named {name}-{layout}, with --bindings mapping a column', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    // The headline comes from a column of another name, as the API's bindings map it.
    writeCsv(
      source,
      [0, 1].map((i) => {
        const { headline, ...rest } = productRow(i);
        return { ...rest, 'Tiêu đề': headline! };
      }),
    );
    const out = path.join(temp.dir, 'sizes');
    const result = await batch(
      '--source',
      source,
      '--out',
      out,
      '--targets',
      'square,story',
      '--bindings',
      JSON.stringify({ headline: { field: 'Tiêu đề' } }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/rendered 4, failed 0/);
    const pngs = fs
      .readdirSync(out)
      .filter((name) => name.endsWith('.png'))
      .sort();
    expect(pngs).toEqual(['1-square.png', '1-story.png', '2-square.png', '2-story.png']);
    const story = await sharp(path.join(out, '1-story.png')).metadata();
    expect(story.height!).toBeGreaterThan(story.width!);
    expect(ledgerBalance(dataDir).debited).toBe(4);

    const cache = path.join(temp.dir, '.render-cache');
    const cached = (...extra: string[]) =>
      batch(
        '--source',
        source,
        '--out',
        path.join(temp.dir, 'cached'),
        '--targets',
        'square,story',
        '--bindings',
        JSON.stringify({ headline: { field: 'Tiêu đề' } }),
        '--cache',
        cache,
        ...extra,
      );
    expect((await cached()).stdout).toMatch(/rendered 4, unchanged 0, failed 0/);
    const again = await cached();
    expect(again.stdout).toMatch(/rendered 0, unchanged 4, failed 0/);
    // The cached images are the ones a plain run draws.
    for (const name of pngs)
      expect(
        fs
          .readFileSync(path.join(temp.dir, 'cached', name))
          .equals(fs.readFileSync(path.join(out, name))),
        name,
      ).toBe(true);
  });

  it('refuses --cache with a row number, serial, row count or uuid generated per batch, and --target with --targets', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    writeCsv(source, [productRow(0)]);
    const generated = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'o'),
      '--cache',
      path.join(temp.dir, 'c'),
      '--bindings',
      JSON.stringify({ subtitle: { generated: 'rowNumber' } }),
    );
    expect(generated.code).toBe(2);
    expect(generated.stderr).toMatch(/subtitle is generated per batch/);
    // A serial is the row's position in the batch: a cached run's batch of changed rows has others.
    const serial = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'o'),
      '--cache',
      path.join(temp.dir, 'c'),
      '--bindings',
      JSON.stringify({
        subtitle: { serial: { prefix: 'No. ' } },
        headline: { generated: 'total' },
      }),
    );
    expect(serial.code).toBe(2);
    expect(serial.stderr).toMatch(/subtitle, headline are generated per batch/);
    const both = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'o'),
      '--target',
      'square',
      '--targets',
      'square,story',
    );
    expect(both.code).toBe(2);
    const badBinding = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'o'),
      '--bindings',
      JSON.stringify({ headline: { column: 'x' } }),
    );
    expect(badBinding.code).toBe(2);
    expect(badBinding.stderr).toMatch(/--bindings: headline/);
    expect(ledgerBalance(dataDir).debited).toBe(0);
  });

  it('renders again, never delivers, a cache entry replaced by a link, emptied or altered', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    const cache = path.join(temp.dir, '.render-cache');
    writeCsv(source, [0, 1, 2].map(productRow));
    const first = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'a.zip'),
      '--cache',
      cache,
    );
    expect(first.stdout).toMatch(/rendered 3, unchanged 0, failed 0/);
    const entries = fs
      .readdirSync(cache, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.png'))
      .map((name) => path.join(cache, name))
      .sort();
    expect(entries).toHaveLength(3);
    for (const entry of entries) expect(fs.existsSync(`${entry}.sha256`)).toBe(true);
    const secret = path.join(temp.dir, 'secret.txt');
    fs.writeFileSync(secret, 'private key material');
    // A link to another file, an emptied entry, and an entry whose bytes were altered.
    fs.rmSync(entries[0]!);
    fs.symlinkSync(secret, entries[0]!);
    fs.chmodSync(entries[1]!, 0o644);
    fs.truncateSync(entries[1]!, 0);
    fs.chmodSync(entries[2]!, 0o644);
    const altered = fs.readFileSync(entries[2]!);
    altered[altered.length - 20] = altered[altered.length - 20]! ^ 0xff;
    fs.writeFileSync(entries[2]!, altered);

    const zip = path.join(temp.dir, 'b.zip');
    const second = await batch('--source', source, '--out', zip, '--cache', cache);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/rendered 3, unchanged 0, failed 0/);
    for (const entry of new AdmZip(zip).getEntries()) {
      if (!entry.entryName.endsWith('.png')) continue;
      const meta = await sharp(entry.getData()).metadata();
      expect([meta.format, meta.width]).toEqual(['png', 1080]);
    }
    // The entries are whole files again, and the third run takes them from the cache.
    for (const entry of entries) expect(fs.lstatSync(entry).isFile()).toBe(true);
    expect(fs.readFileSync(secret, 'utf8')).toBe('private key material');
    const third = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'c'),
      '--cache',
      cache,
    );
    expect(third.stdout).toMatch(/rendered 0, unchanged 3, failed 0/);
  });

  it('renders again a row whose cache shard folder is a link out of the cache', async () => {
    const source = path.join(temp.dir, 'rows.csv');
    const cache = path.join(temp.dir, '.render-cache');
    writeCsv(source, [productRow(0)]);
    await batch('--source', source, '--out', path.join(temp.dir, 'a'), '--cache', cache);
    const [shard] = fs.readdirSync(cache);
    const elsewhere = path.join(temp.dir, 'elsewhere');
    fs.cpSync(path.join(cache, shard!), elsewhere, { recursive: true });
    fs.rmSync(path.join(cache, shard!), { recursive: true, force: true });
    fs.symlinkSync(elsewhere, path.join(cache, shard!));

    const second = await batch(
      '--source',
      source,
      '--out',
      path.join(temp.dir, 'b'),
      '--cache',
      cache,
    );
    expect(second.stdout).toMatch(/rendered 1, unchanged 0, failed 0/);
    expect(fs.lstatSync(path.join(cache, shard!)).isDirectory()).toBe(true);
  });

  it('replaces, never writes through, links a downloaded output folder holds at its file names', async () => {
    const source = path.join(temp.dir, 'rows.json');
    fs.writeFileSync(source, JSON.stringify([productRow(0)]));
    const victim = path.join(temp.dir, 'victim.txt');
    for (const cached of [false, true]) {
      fs.writeFileSync(victim, 'precious');
      const out = path.join(temp.dir, cached ? 'out-cached' : 'out');
      fs.mkdirSync(out);
      for (const name of ['1.png', 'manifest.csv']) fs.symlinkSync(victim, path.join(out, name));
      const zip = path.join(temp.dir, cached ? 'cached.zip' : 'plain.zip');
      fs.symlinkSync(victim, zip);
      const cache = cached ? ['--cache', path.join(temp.dir, 'cache')] : [];
      for (const target of [out, zip]) {
        const result = await batch('--source', source, '--out', target, ...cache);
        expect(result.code, result.stderr).toBe(0);
      }
      expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
      for (const file of [path.join(out, '1.png'), path.join(out, 'manifest.csv'), zip])
        expect(fs.lstatSync(file).isFile(), file).toBe(true);
      expect(fs.readFileSync(path.join(out, 'manifest.csv'), 'utf8')).toMatch(/^\uFEFF?rowIndex/);
    }
  });

  it('refuses a FIFO as --source at once with exit 2', async () => {
    const fifo = path.join(temp.dir, 'rows.csv');
    execFileSync('mkfifo', [fifo]);
    const result = await batch('--source', fifo, '--out', path.join(temp.dir, 'o'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not a regular file/);
  });

  it('exits 2 when the source cannot be read', async () => {
    const result = await batch(
      '--source',
      path.join(temp.dir, 'missing.csv'),
      '--out',
      path.join(temp.dir, 'o'),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot read/);
  });
});

describe('render-desk batch --sheets', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  let source: string;
  beforeEach(() => {
    temp = tempDir('rd-cli-sheets-');
    dataDir = path.join(temp.dir, 'data');
    source = path.join(temp.dir, 'badges.json');
    const badge = (i: number) => ({
      eventName: 'ProductConf 2026',
      firstName: `Guest ${i}`,
      attendeeType: 'speaker',
      company: 'Acme Robotics',
    });
    fs.writeFileSync(source, JSON.stringify([0, 1, 2, 3, 4].map(badge)));
  });
  afterEach(() => temp.remove());

  const badges = (...args: string[]) =>
    runCli([
      'batch',
      '--template',
      'tmpl_name_badge',
      '--source',
      source,
      '--data-dir',
      dataDir,
      '--workers',
      '2',
      ...args,
    ]);
  const A4_PTS = 'Page size:       595.276 x 841.89 pts (A4)';

  it('places badge rows 4 to an A4 sheet as PDF of the print layout, with each row placed in manifest.csv', async () => {
    const out = path.join(temp.dir, 'out');
    const result = await badges('--out', out, '--sheets', 'a6-on-a4');
    expect(result.code).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['manifest.csv', 'sheets-1.pdf']);
    const info = poppler('pdfinfo', fs.readFileSync(path.join(out, 'sheets-1.pdf')));
    // Five badges at four a sheet: two sheets, one side each.
    expect(info).toMatch(/Pages:\s+2\n/);
    expect(info).toContain(A4_PTS);
    const manifest = fs.readFileSync(path.join(out, 'manifest.csv'), 'utf8');
    expect(manifest).toContain('rowIndex,status,file,error,sheetFile,sheet,page,backPage,position');
    expect(manifest).toContain('3,succeeded,,,sheets-1.pdf,1,1,,4');
    expect(manifest).toContain('4,succeeded,,,sheets-1.pdf,2,2,,1');
    expect(ledgerBalance(dataDir)).toEqual({ balance: 95, debited: 5 });
  });

  it('lays the rows down the stack with --cut-and-stack, so the cut piles come out in row order', async () => {
    const out = path.join(temp.dir, 'stacked');
    const result = await badges('--out', out, '--sheets', 'a6-on-a4', '--cut-and-stack');
    expect(result.code, result.stderr).toBe(0);
    // Five badges on two sheets: sheet 1 holds rows 0, 2, 4 and sheet 2 rows 1, 3.
    const manifest = fs.readFileSync(path.join(out, 'manifest.csv'), 'utf8');
    expect(manifest).toContain('0,succeeded,,,sheets-1.pdf,1,1,,1');
    expect(manifest).toContain('1,succeeded,,,sheets-1.pdf,2,2,,1');
    expect(manifest).toContain('2,succeeded,,,sheets-1.pdf,1,1,,2');
    expect(manifest).toContain('4,succeeded,,,sheets-1.pdf,1,1,,3');
    const pdf = fs.readFileSync(path.join(out, 'sheets-1.pdf'));
    const page = (n: number) => poppler('pdftotext', pdf, ['-f', `${n}`, '-l', `${n}`]);
    expect(page(1).match(/Guest \d/g)).toEqual(['Guest 0', 'Guest 2', 'Guest 4']);
    expect(page(2).match(/Guest \d/g)).toEqual(['Guest 1', 'Guest 3']);
    const stray = await runCli([
      'batch',
      '--template',
      'tmpl_name_badge',
      '--source',
      source,
      '--out',
      out,
      '--cut-and-stack',
    ]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--cut-and-stack need');
  });

  it('prints duplex sheets with the backs, split into parts of --sheets-per-part', async () => {
    const out = path.join(temp.dir, 'sheets.zip');
    const result = await badges(
      '--out',
      out,
      '--sheets',
      'a6-on-a4',
      '--duplex',
      'long-edge',
      '--marks',
      'cut',
      '--sheets-per-part',
      '1',
    );
    expect(result.code).toBe(0);
    const zip = new AdmZip(out);
    expect(
      zip
        .getEntries()
        .map((e) => e.entryName)
        .sort(),
    ).toEqual(['manifest.csv', 'sheets-1.pdf', 'sheets-2.pdf']);
    for (const part of ['sheets-1.pdf', 'sheets-2.pdf']) {
      const info = poppler('pdfinfo', zip.readFile(part)!);
      // One sheet a part: its front and its back.
      expect(info).toMatch(/Pages:\s+2\n/);
      expect(info).toContain(A4_PTS);
    }
    expect(zip.readAsText('manifest.csv')).toContain('4,succeeded,,,sheets-2.pdf,2,1,2,1');
  });

  it('gives each single badge PDF crop marks with --crop-marks, and refuses them with --sheets', async () => {
    const out = path.join(temp.dir, 'single');
    const result = await badges(
      '--out',
      out,
      '--format',
      'pdf',
      '--target',
      'badge',
      '--crop-marks',
    );
    expect(result.code).toBe(0);
    const [x0, , x1] = pdfBoxes(
      poppler('pdfinfo', fs.readFileSync(path.join(out, '1.pdf')), ['-box']),
    ).MediaBox!;
    // A 3 in badge; the marks start past its 1/8 in bleed (3.175 mm), run 5 mm, then 1 mm slug.
    expect((x1! - x0!) / 72).toBeCloseTo(3 + (2 * (3.175 + 5 + 1)) / 25.4, 2);
    const both = await badges('--out', out, '--sheets', 'a6-on-a4', '--crop-marks');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/sheets take --marks/);
  });

  it('exits 2 naming the presets for an unknown one, and for a sheet flag without --sheets', async () => {
    const out = path.join(temp.dir, 'o');
    const unknown = await badges('--out', out, '--sheets', 'a9-on-a4');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('a6-on-a4, a7-on-a4, business-cards-10');
    const stray = await badges('--out', out, '--duplex', 'long-edge');
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/--duplex need --sheets/);
    const help = await runCli(['batch', '--help']);
    expect(help.stdout).toContain('--sheets <preset|size>');
    expect(help.stdout).toContain('avery-l7160');
  });
});
