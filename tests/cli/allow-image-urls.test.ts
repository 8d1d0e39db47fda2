import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productRow, REFERENCE } from '../helpers/cli-fixtures.js';
import { imageRoute, solidPng, startImageHost, type ImageHost } from '../helpers/image-host.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

describe('render-desk --allow-image-urls', () => {
  let temp: ReturnType<typeof tempDir>;
  let host: ImageHost;
  beforeAll(async () => {
    temp = tempDir('rd-cli-image-urls-');
    host = await startImageHost({ '/photo.png': imageRoute(await solidPng()) });
  });
  afterAll(async () => {
    await host.close();
    temp.remove();
  });

  const render = (extra: string[]) =>
    runCli([
      'render',
      '--template',
      REFERENCE,
      '--values',
      JSON.stringify({ ...productRow(1), photo: `${host.origin}/photo.png` }),
      '--out',
      path.join(temp.dir, 'card.png'),
      '--data-dir',
      path.join(temp.dir, 'data'),
      ...extra,
    ]);

  it('without the flag (and the setting off) refuses a URL and names the flag', async () => {
    const result = await render([]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/image URLs are off/);
    expect(result.stderr).toMatch(/--allow-image-urls/);
  });

  it('with the flag fetches under the address rules: a loopback host is refused', async () => {
    const result = await render(['--allow-image-urls']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(host.hits.get('/photo.png') ?? 0).toBe(0);
  });
});
