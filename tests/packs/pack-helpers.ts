import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { ApiClient, Json } from '../helpers/test-server.js';

export { expectProblem } from '../helpers/expect-problem.js';

/** Shared steps of the pack tests: a forked and edited template, export, import, checks. */

export const SOURCE = 'tmpl_product_promo';
export const VALUES = {
  photo: 'asset:product.jpg',
  headline: 'Ceramic mug',
  subtitle: 'Hand glazed',
  price: 24,
  discount: 20,
};

export const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/** A fork of the product promo with an uploaded sticker and a red headline, in every ratio. */
export async function editedTemplate(server: ApiClient, name = 'Shop promo Đồng'): Promise<Json> {
  const fork = await server.api(`/v1/catalog/${SOURCE}/fork`, { method: 'POST', json: { name } });
  expect(fork.status).toBe(201);
  const created = await fork.json();
  const png = await sharp({
    create: { width: 96, height: 64, channels: 3, background: '#3366FF' },
  })
    .png()
    .toBuffer();
  const upload = await server.api(`/v1/templates/${created.id}/assets`, {
    method: 'POST',
    headers: { 'content-type': 'image/png' },
    body: png,
  });
  expect(upload.status).toBe(201);
  const { asset } = await upload.json();
  const layouts = structuredClone(created.template.layouts);
  for (const layout of Object.values(layouts) as Json[]) {
    layout.layers.find((l: Json) => l.id === 'headline').colour = '#C0392B';
    layout.layers.push({
      id: 'sticker',
      kind: 'image',
      x: 20,
      y: 20,
      width: 96,
      height: 64,
      source: { asset },
    });
  }
  const saved = await server.api(`/v1/templates/${created.id}`, {
    method: 'PATCH',
    json: { layouts },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return saved.json();
}

export async function exportPack(server: ApiClient, id: string): Promise<Buffer> {
  const res = await server.api(`/v1/templates/${id}/pack`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return Buffer.from(await res.arrayBuffer());
}

export function importPack(server: ApiClient, body: Buffer, type = 'application/zip') {
  return server.api('/v1/templates/import', {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
}

export async function render(server: ApiClient, templateId: string, target: string) {
  const res = await server.api('/v1/render', {
    method: 'POST',
    json: { templateId, values: VALUES, target },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The files of a zip by name (adm-zip: the packs here are our own, small and well formed). */
export function unzip(bytes: Buffer): Map<string, Buffer> {
  return new Map(
    new AdmZip(bytes)
      .getEntries()
      .filter((entry) => !entry.isDirectory)
      .map((entry) => [entry.entryName, entry.getData()]),
  );
}

/** What a failed import must leave: the same template list and no staging folder. */
export async function snapshot(server: ApiClient & { dataDir: string }) {
  const list = await (await server.api('/v1/templates')).json();
  const root = path.join(server.dataDir, 'workspace-templates');
  const dirs = fs.existsSync(root) ? fs.readdirSync(root).sort() : [];
  return { ids: (list as Json[]).map((item) => item.id).sort(), dirs };
}
