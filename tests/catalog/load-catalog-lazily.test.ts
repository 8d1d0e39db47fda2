import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogLoadError,
  loadCatalog,
  loadCatalogLazily,
} from '../../main/catalog/load-catalog.js';
import { REPO_ROOT } from '../helpers/image-fixtures.js';

const CATALOG = path.join(REPO_ROOT, 'templates', 'catalog');

describe('loadCatalogLazily', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-lazy-catalog-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the same entries, order and taxonomy as loadCatalog', () => {
    const eager = loadCatalog(CATALOG);
    const lazy = loadCatalogLazily(CATALOG);
    const promo = lazy.get('tmpl_product_promo');
    expect(promo).toEqual(eager.get('tmpl_product_promo'));
    expect(lazy.get('tmpl_nope')).toBeUndefined();
    expect(lazy.list().map((e) => [e.template.id, e.order])).toEqual(
      eager.list().map((e) => [e.template.id, e.order]),
    );
    expect(lazy.taxonomy()).toEqual(eager.taxonomy());
  });

  it('checks a template only when it is asked for, and then as loadCatalog does', () => {
    const copy = (slug: string) =>
      fs.cpSync(path.join(CATALOG, slug), path.join(dir, slug), { recursive: true });
    copy('product-promo');
    copy('blog-header');
    const broken = path.join(dir, 'blog-header', 'template.json');
    const template = JSON.parse(fs.readFileSync(broken, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(broken, JSON.stringify({ ...template, layouts: 'none' }));

    expect(() => loadCatalog(dir)).toThrow(CatalogLoadError);
    const lazy = loadCatalogLazily(dir);
    expect(lazy.get('tmpl_product_promo')?.template.id).toBe('tmpl_product_promo');
    expect(() => lazy.get('tmpl_blog_header')).toThrow(/Template blog-header is invalid/);
    expect(() => lazy.list()).toThrow(CatalogLoadError);
  });
});
