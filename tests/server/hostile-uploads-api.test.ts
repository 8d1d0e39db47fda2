import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/expect-problem.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const PART =
  'Content-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv';

function multipart(body: string | Buffer, boundary = 'b') {
  return server.api('/v1/uploads', {
    method: 'POST',
    headers: {
      'content-type': boundary
        ? `multipart/form-data; boundary=${boundary}`
        : 'multipart/form-data',
    },
    body,
  });
}

describe('malformed multipart uploads', () => {
  it.each([
    ['no boundary parameter', () => multipart('name\nx\n', '')],
    [
      'a boundary the body does not use',
      () => multipart(`--b\r\n${PART}\r\n\r\nname\nx\r\n--b--\r\n`, 'zzz'),
    ],
    ['no closing boundary', () => multipart(`--b\r\n${PART}\r\n\r\nname\nx\n`)],
    [
      'no closing boundary after 4 MB of the file',
      () =>
        multipart(
          Buffer.concat([
            Buffer.from(`--b\r\n${PART}\r\n\r\nname\n`),
            Buffer.alloc(4 << 20, 'x\n'),
          ]),
        ),
    ],
  ])('answer 400 bad-request, not 500, and leave nothing behind: %s', async (_name, send) => {
    const problem = await expectProblem(await send(), 400, 'bad-request');
    expect(problem.detail).toMatch(/multipart body is malformed/);
    fs.mkdirSync(path.join(server.core.dataDir, 'uploads'), { recursive: true });
    const leftovers = fs.readdirSync(path.join(server.core.dataDir, 'uploads'), {
      withFileTypes: true,
    });
    expect(leftovers.filter((f) => f.name.endsWith('.part'))).toEqual([]);
  });

  it.each(['constructor', '__proto__', 'toString'])(
    'answer 400 bad-request with the reason, not "not valid JSON", for a part named %s',
    async (name) => {
      const res = await multipart(
        `--b\r\nContent-Disposition: form-data; name="${name}"; filename="a.csv"\r\n\r\nname\nx\n\r\n--b--\r\n`,
      );
      const problem = await expectProblem(res, 400, 'bad-request');
      expect(problem.detail).toMatch(/not allowed as field name/);
      expect(problem.detail).not.toMatch(/JSON/);
    },
  );

  it('still take a well-formed one afterwards', async () => {
    const res = await multipart(`--b\r\n${PART}\r\n\r\nname\nx\n\r\n--b--\r\n`);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ kind: 'csv', filename: 'a.csv', rows: 1 });
  });
});
