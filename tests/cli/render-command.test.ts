import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore } from '../../main/store/create-store.js';
import { ledgerBalance, productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { pdfBoxes, poppler } from '../helpers/poppler.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

describe('render-desk render', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  beforeEach(() => {
    temp = tempDir('rd-cli-render-');
    dataDir = path.join(temp.dir, 'data');
  });
  afterEach(() => temp.remove());

  it('writes a real PNG of the reference template and debits one credit from the data folder ledger', async () => {
    const valuesFile = path.join(temp.dir, 'values.json');
    fs.writeFileSync(valuesFile, JSON.stringify(productRow(1)));
    const out = path.join(temp.dir, 'card.png');
    const result = await runCli([
      'render',
      '--template',
      REFERENCE,
      '--values',
      `@${valuesFile}`,
      '--out',
      out,
      '--data-dir',
      dataDir,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/1 credit charged, 99 left/);
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([1080, 1080]);
    // Decoded in full, and not a blank canvas.
    const stats = await sharp(out).stats();
    expect(stats.channels[0]!.stdev).toBeGreaterThan(10);
    expect(ledgerBalance(dataDir)).toEqual({ balance: 99, debited: 1 });
  });

  it('draws at --scale as the API does (2 for retina), and refuses a scale outside 0.25–4 with exit 2', async () => {
    const render = (out: string, scale: string) =>
      runCli([
        'render',
        '--template',
        REFERENCE,
        '--values',
        JSON.stringify(productRow(1)),
        '--scale',
        scale,
        '--out',
        out,
        '--data-dir',
        dataDir,
      ]);
    const out = path.join(temp.dir, 'retina.png');
    const result = await render(out, '2');
    expect(result.code, result.stderr).toBe(0);
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([2160, 2160]);
    for (const scale of ['5', '0.1', 'big', '']) {
      const refused = await render(path.join(temp.dir, 'no.png'), scale);
      expect(refused.code, scale).toBe(2);
      expect(refused.stderr).toContain('--scale must be a number from 0.25 to 4');
    }
    expect(fs.existsSync(path.join(temp.dir, 'no.png'))).toBe(false);
    expect(ledgerBalance(dataDir)).toEqual({ balance: 99, debited: 1 });
  });

  it('takes inline JSON values, a format from the file name and a target, and reports JSON', async () => {
    const out = path.join(temp.dir, 'story.jpg');
    const result = await runCli([
      'render',
      '--template',
      REFERENCE,
      '--values',
      JSON.stringify(productRow(2)),
      '--target',
      'story',
      '--out',
      out,
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { format: string; credits: { balance: number } };
    expect(report.format).toBe('jpeg');
    expect(report.credits.balance).toBe(99);
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.height).toBeGreaterThan(meta.width!);
  });

  it('renders a print layout as a PDF, and a layout of several pages as a zip of numbered images', async () => {
    const sample = async (id: string) =>
      JSON.stringify(
        (
          JSON.parse(
            (await runCli(['templates', 'show', id, '--json', '--data-dir', dataDir])).stdout,
          ) as { sampleRow: object }
        ).sampleRow,
      );
    const pdf = path.join(temp.dir, 'award.pdf');
    const certificate = await runCli([
      'render',
      '--template',
      'tmpl_certificate_award',
      '--values',
      await sample('tmpl_certificate_award'),
      '--target',
      'a4',
      '--out',
      pdf,
      '--data-dir',
      dataDir,
    ]);
    expect(certificate.code).toBe(0);
    expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');

    const badge = await runCli([
      'render',
      '--template',
      'tmpl_name_badge',
      '--values',
      await sample('tmpl_name_badge'),
      '--target',
      'badge',
      '--out',
      path.join(temp.dir, 'badge.png'),
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(badge.code).toBe(0);
    const report = JSON.parse(badge.stdout) as { file: string; contentType: string };
    expect(report).toMatchObject({
      file: path.join(temp.dir, 'badge.zip'),
      contentType: 'application/zip',
    });
    const pages = new AdmZip(report.file).getEntries().map((entry) => entry.entryName);
    expect(pages).toHaveLength(2);
    const meta = await sharp(new AdmZip(report.file).readFile(pages[0]!)!).metadata();
    expect(meta.format).toBe('png');
    expect(ledgerBalance(dataDir)).toEqual({ balance: 98, debited: 2 });
  });

  it('draws crop marks around an event ticket PDF with --crop-marks, its page grown to hold them', async () => {
    const values = (
      JSON.parse(
        (await runCli(['templates', 'show', 'tmpl_event_ticket', '--json', '--data-dir', dataDir]))
          .stdout,
      ) as { sampleRow: object }
    ).sampleRow;
    const ticket = (file: string, ...extra: string[]) =>
      runCli([
        'render',
        '--template',
        'tmpl_event_ticket',
        '--values',
        JSON.stringify(values),
        '--target',
        'ticket',
        '--out',
        path.join(temp.dir, file),
        '--data-dir',
        dataDir,
        ...extra,
      ]);
    expect((await ticket('plain.pdf')).code).toBe(0);
    expect((await ticket('marked.pdf', '--crop-marks')).code).toBe(0);
    const mediaWidth = (file: string) => {
      const [x0, , x1] = pdfBoxes(
        poppler('pdfinfo', fs.readFileSync(path.join(temp.dir, file)), ['-box']),
      ).MediaBox!;
      return (x1! - x0!) / (72 / 25.4);
    };
    // 70 mm trim: 2 mm bleed a side without marks; with them 3 mm out, 5 mm long, 1 mm slug.
    expect(mediaWidth('plain.pdf')).toBeCloseTo(74, 1);
    expect(mediaWidth('marked.pdf')).toBeCloseTo(88, 1);
  });

  it('exits 1 and charges nothing when the values are refused', async () => {
    const out = path.join(temp.dir, 'refused.png');
    const result = await runCli([
      'render',
      '--template',
      REFERENCE,
      '--values',
      JSON.stringify({ ...productRow(3), price: 'not a price' }),
      '--out',
      out,
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/values\.price/);
    expect(fs.existsSync(out)).toBe(false);
    expect(ledgerBalance(dataDir)).toEqual({ balance: 100, debited: 0 });
  });

  it('exits 3 without writing anything when the account has no credits', async () => {
    const out = path.join(temp.dir, 'broke.png');
    const result = await runCli(
      [
        'render',
        '--template',
        REFERENCE,
        '--values',
        JSON.stringify(productRow(4)),
        '--out',
        out,
        '--data-dir',
        dataDir,
      ],
      { RENDER_DESK_CREDITS: '0' },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/credit/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('exits 3 without rendering while the subscription has lapsed, saying to renew it in the app', async () => {
    const store = createStore(dataDir);
    store.subscription.set({ status: 'lapsed' });
    store.close();
    const out = path.join(temp.dir, 'paused.png');
    const result = await runCli([
      'render',
      '--template',
      REFERENCE,
      '--values',
      JSON.stringify(productRow(5)),
      '--out',
      out,
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /subscription has lapsed.*Renew it in the app, then run the command again/,
    );
    expect(fs.existsSync(out)).toBe(false);
    expect(ledgerBalance(dataDir).debited).toBe(0);
  });

  it('exits 2 for an unknown template, a missing --out and a format that contradicts the file name', async () => {
    const unknown = await runCli([
      'render',
      '--template',
      'tmpl_nope',
      '--out',
      path.join(temp.dir, 'x.png'),
      '--data-dir',
      dataDir,
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/tmpl_nope/);
    const missing = await runCli(['render', '--template', REFERENCE, '--data-dir', dataDir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--out is required/);
    const contradicting = await runCli([
      'render',
      '--template',
      REFERENCE,
      '--format',
      'webp',
      '--out',
      path.join(temp.dir, 'x.png'),
      '--data-dir',
      dataDir,
    ]);
    expect(contradicting.code).toBe(2);
    expect(contradicting.stderr).toMatch(/does not match/);
  });
});
