import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/batch-helpers.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * Uploads built to make the spreadsheet reader slow, greedy or wrong, each against a real
 * server: what it answers, and that it keeps answering everyone else meanwhile.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const SVG_BODY =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>';

describe('an SVG that does not start with <svg', () => {
  it.each([
    ['a comment', `<!-- Generator: Adobe Illustrator 27.0 -->\n${SVG_BODY}`],
    ['a BOM, blank lines and a comment', `\uFEFF\n\n  <!-- logo -->\n${SVG_BODY}`],
    [
      'a declaration, a comment and a DOCTYPE',
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- x -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n${SVG_BODY}`,
    ],
  ])('is an image upload after %s, not a CSV', async (_name, svg) => {
    const res = await upload(server, Buffer.from(svg), 'logo.svg', 'image/svg+xml');
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ kind: 'image', width: 40, height: 30 });
  });

  it('is an image refused with the reason when a comment longer than 1,000 bytes comes first', async () => {
    // The renderer (libvips) looks for <svg in the first 1,000 or so bytes of a file only.
    const svg = `<!-- ${'x'.repeat(20_000)} -->${SVG_BODY}`;
    const problem = await expectProblem(
      await upload(server, Buffer.from(svg), 'logo.svg'),
      422,
      'image-invalid',
    );
    expect(problem.detail).toMatch(/<svg> element must begin within the first 1,000 bytes/);
  });

  it('gets the SVG checks after a comment: a reference to a file is refused', async () => {
    const svg = `<!-- made by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="4" height="4"><image xlink:href="file:///etc/passwd" width="4" height="4"/></svg>`;
    const res = await upload(server, Buffer.from(svg), 'logo.svg');
    await expectProblem(res, 422, 'svg-external-reference');
  });

  it('refuses other XML after a declaration or comment as not a file it reads (415)', async () => {
    const xml = '<?xml version="1.0"?>\n<!-- export -->\n<products><p sku="A"/></products>';
    const problem = await expectProblem(
      await upload(server, Buffer.from(xml), 'products.csv'),
      415,
      'unsupported-media-type',
    );
    expect(problem.detail).toMatch(/XML document/);
  });
});
