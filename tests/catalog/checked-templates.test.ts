import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogLoadError,
  loadCatalog,
  writeCheckedCatalog,
} from '../../main/catalog/load-catalog.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';

const CATALOG = path.join(REPO_ROOT, 'templates', 'catalog');

describe('templates checked when the core was built', () => {
  let dir: string;
  let records: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-checked-templates-'));
    fs.mkdirSync(path.join(dir, 'catalog'));
    // A records file is read once per process: each test names its own.
    records = path.join(dir, 'checked-templates.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const copy = (slug: string) =>
    fs.cpSync(path.join(CATALOG, slug), path.join(dir, 'catalog', slug), { recursive: true });
  const templateFile = (slug: string) => path.join(dir, 'catalog', slug, 'template.json');

  it('loads the same catalog from the records as by checking every template', () => {
    const checked = loadCatalog(CATALOG);
    expect(writeCheckedCatalog(CATALOG, records)).toBe(checked.list().length);
    const recorded = loadCatalog(CATALOG, { checkedRecords: records });
    expect(recorded.list()).toEqual(checked.list());
    expect(recorded.taxonomy()).toEqual(checked.taxonomy());
  });

  it('takes a template from the records while its file is the one recorded', () => {
    copy('product-promo');
    // Text of its own (tabs), so that what this test records reaches no other load of the
    // built-in file in this process.
    const text = fs.readFileSync(templateFile('product-promo'), 'utf8');
    fs.writeFileSync(templateFile('product-promo'), JSON.stringify(JSON.parse(text), null, '\t'));
    expect(writeCheckedCatalog(path.join(dir, 'catalog'), records)).toBe(1);
    // What the loader returns must come from the records, not from checking the file again.
    const stored = JSON.parse(fs.readFileSync(records, 'utf8')) as {
      templates: Record<string, { name: string }>;
    };
    for (const template of Object.values(stored.templates)) template.name = 'From the records';
    fs.writeFileSync(records, JSON.stringify(stored));

    const catalog = loadCatalog(path.join(dir, 'catalog'), { checkedRecords: records });
    expect(catalog.get('tmpl_product_promo')?.template.name).toBe('From the records');
  });

  it('checks a template whose file changed after the records were written, and refuses it when invalid', () => {
    copy('product-promo');
    copy('blog-header');
    expect(writeCheckedCatalog(path.join(dir, 'catalog'), records)).toBe(2);
    const template = JSON.parse(fs.readFileSync(templateFile('blog-header'), 'utf8')) as object;
    fs.writeFileSync(templateFile('blog-header'), JSON.stringify({ ...template, layouts: 'none' }));

    expect(() => loadCatalog(path.join(dir, 'catalog'), { checkedRecords: records })).toThrow(
      /Template blog-header is invalid: layouts/,
    );
  });

  it('leaves out of the records a template the schema refuses', () => {
    copy('product-promo');
    copy('blog-header');
    const template = JSON.parse(fs.readFileSync(templateFile('blog-header'), 'utf8')) as object;
    fs.writeFileSync(templateFile('blog-header'), JSON.stringify({ ...template, layouts: 'none' }));

    expect(writeCheckedCatalog(path.join(dir, 'catalog'), records)).toBe(1);
    expect(() => loadCatalog(path.join(dir, 'catalog'), { checkedRecords: records })).toThrow(
      CatalogLoadError,
    );
  });

  it('ignores a records file that is missing or not JSON', () => {
    copy('product-promo');
    fs.writeFileSync(records, '{"format": 1, "templ');
    expect(
      loadCatalog(path.join(dir, 'catalog'), { checkedRecords: records }).get('tmpl_product_promo')
        ?.template.id,
    ).toBe('tmpl_product_promo');
    expect(
      loadCatalog(path.join(dir, 'catalog'), { checkedRecords: path.join(dir, 'none.json') }).get(
        'tmpl_product_promo',
      )?.template.id,
    ).toBe('tmpl_product_promo');
  });

  it('gives each load its own copy of a template', () => {
    copy('product-promo');
    writeCheckedCatalog(path.join(dir, 'catalog'), records);
    for (const options of [{}, { checkedRecords: records }]) {
      const first = loadCatalog(path.join(dir, 'catalog'), options).get('tmpl_product_promo')!;
      const name = first.template.name;
      first.template.name = 'Changed by a caller';
      first.template.variables.length = 0;
      const second = loadCatalog(path.join(dir, 'catalog'), options).get('tmpl_product_promo')!;
      expect(second.template.name).toBe(name);
      expect(second.template.variables.length).toBeGreaterThan(0);
    }
  });
});
