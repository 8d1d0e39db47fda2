import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REFERENCE } from '../helpers/cli-fixtures.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

describe('render-desk templates', () => {
  let temp: ReturnType<typeof tempDir>;
  let dataDir: string;
  beforeEach(() => {
    temp = tempDir('rd-cli-templates-');
    dataDir = path.join(temp.dir, 'data');
  });
  afterEach(() => temp.remove());

  const templates = (...args: string[]) => runCli(['templates', ...args, '--data-dir', dataDir]);

  it('lists the built-in catalog and shows the fields a source needs', async () => {
    const list = await templates('list', '--json');
    expect(list.code).toBe(0);
    const items = JSON.parse(list.stdout) as { id: string; layouts: string[] }[];
    expect(items.find((item) => item.id === REFERENCE)?.layouts).toContain('square');
    // Print layouts are targets too.
    expect(items.find((item) => item.id === 'tmpl_certificate_award')?.layouts).toContain('a4');

    const show = await templates('show', REFERENCE, '--json');
    expect(show.code).toBe(0);
    const detail = JSON.parse(show.stdout) as { fields: { name: string }[]; sampleRow: object };
    expect(detail.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['headline', 'price']));
    expect(detail.sampleRow).toHaveProperty('headline');

    const table = await templates('show', REFERENCE);
    expect(table.stdout).toMatch(/headline\s+text\s+yes/);
  });

  it('forks a template, exports the fork as a pack and imports it back as a new template', async () => {
    const fork = await templates('fork', REFERENCE, '--name', 'My promo', '--json');
    expect(fork.code).toBe(0);
    const forked = JSON.parse(fork.stdout) as { id: string; name: string };
    expect(forked).toMatchObject({ name: 'My promo' });
    expect(forked.id).toMatch(/^wtpl_/);

    // A link left at the pack's name is replaced, its target untouched.
    const pack = path.join(temp.dir, 'my-promo.zip');
    const victim = path.join(temp.dir, 'victim.txt');
    fs.writeFileSync(victim, 'precious');
    fs.symlinkSync(victim, pack);
    const exported = await templates('export', forked.id, '--out', pack);
    expect(exported.code).toBe(0);
    expect(fs.lstatSync(pack).isFile()).toBe(true);
    expect(fs.statSync(pack).size).toBeGreaterThan(1000);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');

    const imported = await templates('import', pack, '--json');
    expect(imported.code).toBe(0);
    const copy = JSON.parse(imported.stdout) as { id: string; name: string };
    expect(copy.id).not.toBe(forked.id);
    expect(copy.name).toBe('My promo');

    const list = JSON.parse((await templates('list', '--json')).stdout) as { id: string }[];
    expect(list.map((item) => item.id)).toEqual(expect.arrayContaining([forked.id, copy.id]));
  });

  it('refuses to export a built-in template (exit 2) and says to fork it', async () => {
    const result = await templates('export', REFERENCE, '--out', path.join(temp.dir, 'x.zip'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/fork it first/);
  });
});
