import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/expect-problem.js';
import { freePort } from '../helpers/cluster-services.js';
import { startTestServer, testFetch, type Json, type TestServer } from '../helpers/test-server.js';

/**
 * Settings → Team service against a real second Render Desk standing in for the team service:
 * the key is saved write-only, the service is checked and opened with it, and refusals and
 * silence are reported as errors a person can act on.
 */
let local: TestServer;
let team: TestServer;
let teamAdminKey: string;
let teamRenderKey: string;

const noLending = { enabled: false, workers: 1, postgresUrl: null };

beforeAll(async () => {
  [local, team] = await Promise.all([startTestServer(), startTestServer()]);
  const create = async (scope: string) =>
    (
      await (
        await team.api('/v1/api-keys', { method: 'POST', json: { name: scope, scope } })
      ).json()
    ).secret as string;
  teamAdminKey = await create('admin');
  teamRenderKey = await create('render');
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([local?.stop(), team?.stop()]);
});

describe('the team service in Settings', () => {
  it('keeps its key write-only, checks the service with it and opens the app there once', async () => {
    const saved = await local.api('/v1/team-service', {
      method: 'PUT',
      json: { url: `${team.url}/`, apiKey: teamAdminKey, lend: noLending },
    });
    const body = await saved.text();
    expect(saved.status, body).toBe(200);
    expect(body).not.toContain(teamAdminKey);
    expect(JSON.parse(body)).toMatchObject({ url: team.url, apiKeySet: true });
    const read = await (await local.api('/v1/team-service')).text();
    expect(read).not.toContain(teamAdminKey);
    expect(JSON.parse(read).worker).toEqual({ status: 'off', nodeId: null, detail: null });

    const check = await local.api('/v1/team-service/check', { method: 'POST' });
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ url: team.url, mode: 'embedded' });

    const opened = await local.api('/v1/team-service/open', { method: 'POST' });
    expect(opened.status).toBe(200);
    const link = new URL((await opened.json()).url);
    expect(link.origin).toBe(team.url);
    const trade = () =>
      testFetch(`${team.url}/ui/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: link.searchParams.get('token') }),
      });
    const { session } = (await (await trade()).json()) as Json;
    const account = await testFetch(`${team.url}/v1/account`, {
      headers: { 'x-render-desk-session': session },
    });
    expect(account.status).toBe(200);
    expect((await trade()).status).toBe(403);

    // Saving again without the key keeps it; null removes it.
    await local.api('/v1/team-service', {
      method: 'PUT',
      json: { url: team.url, lend: noLending },
    });
    expect((await (await local.api('/v1/team-service')).json()).apiKeySet).toBe(true);
    await local.api('/v1/team-service', {
      method: 'PUT',
      json: { url: team.url, apiKey: null, lend: noLending },
    });
    expect((await (await local.api('/v1/team-service')).json()).apiKeySet).toBe(false);
    const nothing = await expectProblem(
      await local.api('/v1/team-service/open', { method: 'POST' }),
      422,
      'validation-failed',
    );
    expect(JSON.stringify(nothing.errors)).toContain('apiKey');
  });

  it('says the key was refused when the service answers 401 or 403', async () => {
    for (const apiKey of ['rdk_not_a_key_of_that_service', teamRenderKey]) {
      await local.api('/v1/team-service', {
        method: 'PUT',
        json: { url: team.url, apiKey, lend: noLending },
      });
      const problem = await expectProblem(
        await local.api('/v1/team-service/open', { method: 'POST' }),
        422,
        'team-service-key-refused',
      );
      expect(problem.detail).toContain(team.url);
    }
  });

  it('says the service cannot be reached when nothing answers at its address', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    await local.api('/v1/team-service', {
      method: 'PUT',
      json: { url, apiKey: teamAdminKey, lend: noLending },
    });
    const problem = await expectProblem(
      await local.api('/v1/team-service/check', { method: 'POST' }),
      502,
      'team-service-unreachable',
    );
    expect(problem.detail).toContain(url);
  });

  it('keeps the team service to admins, and refuses lending without a PostgreSQL URL', async () => {
    const key = (
      await (
        await local.api('/v1/api-keys', { method: 'POST', json: { name: 'r', scope: 'render' } })
      ).json()
    ).secret as string;
    const res = await local.api('/v1/team-service', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(403);
    await expectProblem(
      await local.api('/v1/team-service', {
        method: 'PUT',
        json: { url: null, lend: { enabled: true, workers: 1, postgresUrl: null } },
      }),
      422,
      'validation-failed',
    );
    await expectProblem(
      await local.api('/v1/team-service', {
        method: 'PUT',
        json: { url: null, lend: { enabled: true, workers: 1, postgresUrl: 'mysql://db/x' } },
      }),
      422,
      'validation-failed',
    );
    const system = await (await local.api('/v1/system')).json();
    expect(system.mode).toBe('embedded');
  });
});
