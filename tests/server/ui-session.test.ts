import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDetail } from '../../shared/api-schemas.js';
import { catalogDetail } from '../helpers/catalog-probe.js';
import { expectProblem } from '../helpers/expect-problem.js';
import { SESSION_HEADER, openUiSession } from '../helpers/ui-session.js';
import { buildInjectServer, type InjectServer } from '../helpers/inject-server.js';
import { UiSessions, linkSignature } from '../../main/server/ui-sessions.js';

/**
 * The UI session is a header the page sends, never a cookie: other web servers on 127.0.0.1
 * receive this origin's cookies (cookies ignore ports), so a cookie must authorise nothing.
 */

let server: InjectServer;
let template: CatalogDetail;
let outputKey: string;

beforeAll(async () => {
  server = await buildInjectServer();
  template = await catalogDetail(server, 'tmpl_product_promo');
  const render = await server.api('/v1/render', {
    method: 'POST',
    headers: { 'Idempotency-Key': 'ui-session-test' },
    json: { templateId: template.id, values: template.sampleValues },
  });
  expect(render.status).toBe(200);
  outputKey = `${render.headers.get('x-render-id')}.png`;
});
afterAll(() => server.stop());

const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';
const exchange = (token: string) =>
  server.fetch(`${server.url}/ui/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });

/** A link as renderer/api/session.ts signs it, written out independently here. */
function signLink(session: string, path: string, exp: number, signedPath = path): string {
  const [id, secret] = session.split('.') as [string, string];
  const url = new URL(signedPath, server.url);
  const query = url.searchParams.toString();
  const target = query ? `${url.pathname}?${query}` : url.pathname;
  const sig = crypto.createHmac('sha256', secret).update(`${target}\n${exp}`).digest('hex');
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}ses=${id}&exp=${exp}&sig=${sig}`;
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('opening the UI with a launch link', () => {
  it('shows the app without spending the token or setting a cookie; the page trades the token once', async () => {
    const link = server.uiLink();
    const opened = await server.fetch(link);
    // 200 with the app, or 503 where the UI is not built; never a redirect with a cookie.
    expect([200, 503]).toContain(opened.status);
    expect(opened.headers.get('content-type')).toMatch(/^text\/html/);
    expect(opened.headers.get('set-cookie')).toBeNull();
    expect(opened.headers.get('cache-control')).toBe('no-store');

    const traded = await exchange(tokenOf(link));
    expect(traded.status).toBe(201);
    expect(traded.headers.get('set-cookie')).toBeNull();
    expect(traded.headers.get('cache-control')).toBe('no-store');
    const { session } = await traded.json();
    expect(session).toMatch(/^[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
    const account = await server.fetch(`${server.url}/v1/account`, {
      headers: { [SESSION_HEADER]: session },
    });
    expect(account.status).toBe(200);

    await expectProblem(await exchange(tokenOf(link)), 403, 'url-expired');
    const reopened = await server.fetch(link);
    expect(reopened.status).toBe(403);
    expect(await reopened.text()).toContain('This link has expired');
    await expectProblem(await exchange('not-a-token'), 403, 'url-expired');
  });

  it('refuses a request that carries only cookies, whatever they are named or hold', async () => {
    const session = await openUiSession(server.uiLink(), server.fetch);
    const value = session[SESSION_HEADER] as string;
    for (const cookie of [
      `rd_session=${value}`,
      `${SESSION_HEADER}=${value}`,
      `session=${value}; rd_session=${value.split('.')[1]}`,
    ]) {
      const res = await server.fetch(`${server.url}/v1/account`, { headers: { cookie } });
      await expectProblem(res, 401, 'unauthorized');
    }
    const withHeader = await server.fetch(`${server.url}/v1/api-keys`, { headers: session });
    expect(withHeader.status).toBe(200);
    expect(
      (await server.fetch(`${server.url}/v1/account`, { headers: { [SESSION_HEADER]: 'x.y' } }))
        .status,
    ).toBe(401);
  });

  it('keeps free previews for the UI session: API keys and signed links get none', async () => {
    const session = await openUiSession(server.uiLink(), server.fetch);
    const body = JSON.stringify({
      templateId: template.id,
      values: template.sampleValues,
      width: 128,
    });
    const headers = { 'content-type': 'application/json' };
    const ui = await server.fetch(`${server.url}/v1/render/preview`, {
      method: 'POST',
      headers: { ...headers, ...session },
      body,
    });
    expect(ui.status).toBe(200);
    expect(ui.headers.get('content-type')).toBe('image/jpeg');
    await expectProblem(
      await server.api('/v1/render/preview', { method: 'POST', headers, body }),
      403,
      'forbidden',
    );
    const link = signLink(session[SESSION_HEADER] as string, '/v1/render/preview', inAnHour());
    await expectProblem(
      await server.fetch(server.url + link, { method: 'POST', headers, body }),
      401,
      'unauthorized',
    );
  });
});

describe('links the UI signs', () => {
  it('open the one path they were signed for, until they expire', async () => {
    const session = (await openUiSession(server.uiLink(), server.fetch))[SESSION_HEADER] as string;
    const path = `/v1/outputs/${outputKey}`;
    const good = await server.fetch(server.url + signLink(session, path, inAnHour()));
    expect(good.status).toBe(200);
    expect(good.headers.get('content-type')).toBe('image/png');
    const thumb = await server.fetch(
      server.url + signLink(session, `${path}?width=64`, inAnHour()),
    );
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');

    // Signed for the full image, asked with another width: the query is part of the signature.
    const altered = signLink(session, path, inAnHour()).replace('?', '?width=64&');
    await expectProblem(await server.fetch(server.url + altered), 403, 'url-invalid');
    const otherPath = signLink(session, '/v1/outputs/rnd_other.png', inAnHour(), path);
    await expectProblem(await server.fetch(server.url + otherPath), 403, 'url-invalid');
    const expired = signLink(session, path, Math.floor(Date.now() / 1000) - 5);
    await expectProblem(await server.fetch(server.url + expired), 403, 'url-expired');
    const forever = signLink(session, path, Math.floor(Date.now() / 1000) + 7 * 86_400);
    await expectProblem(await server.fetch(server.url + forever), 403, 'url-invalid');
    const stranger = signLink(`AAAAAAAAAAAA.${'B'.repeat(43)}`, path, inAnHour());
    await expectProblem(await server.fetch(server.url + stranger), 403, 'url-invalid');
  });

  it('work only on the routes a page loads without headers', async () => {
    const session = (await openUiSession(server.uiLink(), server.fetch))[SESSION_HEADER] as string;
    for (const path of ['/v1/account', '/v1/api-keys', '/v1/render-batches']) {
      const res = await server.fetch(server.url + signLink(session, path, inAnHour()));
      expect(res.status, path).toBe(401);
    }
    const csv = await server.fetch(
      server.url +
        signLink(
          session,
          '/v1/render-batches/template-fields?templateId=tmpl_product_promo&format=csv',
          inAnHour(),
        ),
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
  });
});

describe('security headers', () => {
  it('send the UI pages a strict CSP that no other page may frame', async () => {
    for (const path of ['/ui/', '/ui/batches/bat_x', '/ui/session?token=spent']) {
      const res = await server.fetch(server.url + path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('keep API answers from being embedded by pages of other origins', async () => {
    const res = await server.api(`/v1/outputs/${outputKey}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('UI sessions shared by the API nodes of a cluster', () => {
  const key = crypto.randomBytes(32);
  const spent = new Set<string>();
  const shared = {
    key,
    spend: async (digest: string) => !spent.has(digest) && Boolean(spent.add(digest)),
  };

  it('are honoured by every node holding the key, for a day, and by no node without it', async () => {
    let clock = Date.parse('2026-11-24T12:00:00Z');
    const now = () => clock;
    const first = new UiSessions(now, shared);
    const second = new UiSessions(now, shared);
    const stranger = new UiSessions(now, { ...shared, key: crypto.randomBytes(32) });

    const token = first.createLaunchToken();
    expect(second.isLaunchTokenValid(token)).toBe(true);
    expect(stranger.isLaunchTokenValid(token)).toBe(false);
    const session = await second.exchange(token);
    expect(session).not.toBeNull();
    expect(await first.exchange(token)).toBeNull();
    expect(first.principal(session!)).toMatchObject({ scope: 'admin' });
    expect(stranger.principal(session!)).toBeNull();

    const [id, secret] = session!.split('.') as [string, string];
    const exp = Math.floor(clock / 1000) + 600;
    const query = new URLSearchParams({
      ses: id,
      exp: String(exp),
      sig: linkSignature(secret, '/v1/outputs/a.png', exp),
    });
    expect(second.verifyLink('/v1/outputs/a.png', query)).toMatchObject({ scope: 'admin' });
    expect(() => second.verifyLink('/v1/outputs/b.png', query)).toThrow(/altered/);

    clock += 10 * 60_000 + 1000;
    expect(first.isLaunchTokenValid(first.createLaunchToken())).toBe(true);
    expect(second.isLaunchTokenValid(token)).toBe(false);
    clock += 24 * 3600_000;
    expect(first.principal(session!)).toBeNull();
  });
});

describe('the rate limit of a UI session', () => {
  it('counts the images it loads through signed links apart from its API calls', async () => {
    const limited = await buildInjectServer({ rateLimit: 5 });
    try {
      const headers = await openUiSession(limited.uiLink(), limited.fetch);
      const session = headers[SESSION_HEADER] as string;
      // Six thumbnails of a results table (unknown outputs: the limit is counted before that).
      const statuses: number[] = [];
      for (let row = 1; row <= 6; row += 1) {
        const link = signLink(session, `/v1/outputs/rnd_row${row}.png?width=64`, inAnHour());
        statuses.push((await limited.fetch(limited.url + link)).status);
      }
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
      // The screen's own requests keep their window: the first of five.
      const account = await limited.fetch(`${limited.url}/v1/account`, { headers });
      expect(account.status).toBe(200);
      expect(account.headers.get('x-ratelimit-remaining')).toBe('4');
    } finally {
      await limited.stop();
    }
  });
});
