import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  logServerError,
  problemDetail,
  problemLine,
  redactUrl,
} from '../../main/server/server-error-log.js';
import { spawnServe, type SpawnedServe } from '../helpers/spawn-serve.js';
import { testFetch, type Json } from '../helpers/test-server.js';

const KEY = 'rdk_error_log_key_0123456789abc';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-error-log-'));
let server: SpawnedServe | undefined;

afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('server errors', () => {
  it('are logged to stderr with the request and the stack although request logging is off', async () => {
    server = await spawnServe(dataDir, { RENDER_DESK_API_KEY: KEY, RENDER_DESK_LOG: '0' }, 1);
    const api = (pathname: string, init: RequestInit = {}) =>
      testFetch(server!.url + pathname, {
        ...init,
        headers: {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/json',
          'idempotency-key': 'stored-result-gone',
        },
      });
    const detail: Json = await (await api('/v1/catalog/tmpl_product_promo')).json();
    const body = JSON.stringify({ templateId: detail.id, values: detail.sampleValues });
    expect((await api('/v1/render', { method: 'POST', body })).status).toBe(200);
    // The stored result of an Idempotency-Key, removed behind the server's back.
    const renders = path.join(dataDir, 'outputs', 'renders');
    for (const file of fs.readdirSync(renders)) fs.rmSync(path.join(renders, file));

    const replay = await api('/v1/render', { method: 'POST', body });
    expect(replay.status).toBe(500);
    expect(await replay.json()).toMatchObject({ code: 'internal' });
    await expect
      .poll(() => server!.output(), { timeout: 10_000 })
      .toMatch(
        /render-desk: 500 on POST \/v1\/render: AppError: The stored result of this Idempotency-Key is missing\.\n\s+at /,
      );
    expect(server.child.exitCode).toBeNull();
  }, 60_000);

  it('never log the secrets a URL may carry', () => {
    expect(redactUrl('/ui/session?token=abc123&next=/ui/')).toBe(
      '/ui/session?token=<hidden>&next=/ui/',
    );
    expect(redactUrl('/v1/bundles/bat_1.zip?exp=99&sig=f00d')).toBe(
      '/v1/bundles/bat_1.zip?exp=99&sig=<hidden>',
    );
    const lines: string[] = [];
    logServerError(
      { method: 'GET', url: '/v1/bundles/b.zip?sig=secret' },
      500,
      new Error('boom'),
      (line) => lines.push(line),
    );
    expect(lines[0]).toMatch(/500 on GET \/v1\/bundles\/b\.zip\?sig=<hidden>: Error: boom\n\s+at /);
    expect(lines[0]).not.toContain('secret');
  });
});

describe('a problem detail in the log', () => {
  it("is an error's stack, a { message, code } as its words and code, never [object Object]", () => {
    const error = new Error('disk full');
    expect(problemDetail(error)).toBe(error.stack);
    expect(problemDetail({ message: 'terminating connection', code: '57P01' })).toBe(
      'terminating connection (57P01)',
    );
    expect(problemDetail({ message: 'Connection terminated unexpectedly' })).toBe(
      'Connection terminated unexpectedly',
    );
    expect(problemDetail({ rows: 3 })).toBe('{"rows":3}');
    expect(problemDetail('plain words')).toBe('plain words');
    expect(problemDetail(undefined)).toBe('undefined');
  });
});

describe('a message with its problem in the log', () => {
  it('joins them with one colon, without the full stop that ended the message', () => {
    expect(
      problemLine('PostgreSQL: a connection failed; it will be replaced.', {
        message: 'terminating connection due to administrator command',
        code: '57P01',
      }),
    ).toBe(
      'PostgreSQL: a connection failed; it will be replaced: terminating connection due to administrator command (57P01)',
    );
    expect(problemLine('leader pass failed; retrying', 'Redis is unreachable')).toBe(
      'leader pass failed; retrying: Redis is unreachable',
    );
    expect(problemLine('Cluster leadership lost.')).toBe('Cluster leadership lost.');
  });
});
