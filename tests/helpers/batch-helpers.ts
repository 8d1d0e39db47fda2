import AdmZip from 'adm-zip';
import type { ApiClient, Json, LinkClient } from './test-server.js';
import { testFetch } from './test-server.js';

const TERMINAL = new Set(['succeeded', 'partial', 'failed', 'degraded', 'cancelled']);

/** Polls the batch until its status is terminal (the spec's way to observe completion). */
export async function waitForBatch(
  server: ApiClient,
  id: string,
  timeoutMs = 120_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const batch = await (await server.api(`/v1/render-batches/${id}`)).json();
    if (TERMINAL.has(batch.status)) return batch;
    if (Date.now() > deadline)
      throw new Error(`batch ${id} still ${batch.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every manifest row, following nextCursor to the end. */
export async function fullManifest(server: ApiClient, id: string, limit = 100): Promise<Json[]> {
  const rows: Json[] = [];
  let cursor: string | null = '0';
  while (cursor !== null) {
    const page: Json = await (
      await server.api(`/v1/render-batches/${id}/renders?cursor=${cursor}&limit=${limit}`)
    ).json();
    rows.push(...page.rows);
    cursor = page.nextCursor;
  }
  return rows;
}

/**
 * The bundle through its signed link: opened by the client when it can (an in-process server),
 * else over the network (a real one).
 */
export async function downloadBundle(
  server: ApiClient | LinkClient,
  id: string,
  withManifest = false,
): Promise<AdmZip> {
  const link = await (
    await server.api(`/v1/render-batches/${id}/bundle${withManifest ? '?manifest=true' : ''}`)
  ).json();
  const res = 'fetch' in server ? await server.fetch(link.url) : await testFetch(link.url);
  if (res.status !== 200) throw new Error(`bundle download answered ${res.status}`);
  return new AdmZip(Buffer.from(await res.arrayBuffer()));
}

export async function createBatch(server: ApiClient, body: unknown): Promise<Json> {
  const res = await server.api('/v1/render-batches', { method: 'POST', json: body });
  const json = await res.json();
  if (res.status !== 202)
    throw new Error(`create batch answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

export async function upload(
  server: ApiClient,
  bytes: Buffer,
  filename: string,
  contentType = 'application/octet-stream',
) {
  return server.api(`/v1/uploads?filename=${encodeURIComponent(filename)}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: bytes,
  });
}
