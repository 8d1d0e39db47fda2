import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUi, screenshot, startCore, type CoreProcess, type UiSession } from './harness.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Another web server on 127.0.0.1 that the signed-in user visits. Cookies ignore ports and other
 * ports count as the same site, so whatever cookies the browser holds for 127.0.0.1 go to this
 * server and ride along with its page's requests to the core. None of that may give it access,
 * and it may not frame the UI.
 */
interface HostilePage {
  url: string;
  /** Every Cookie header the hostile server received. */
  cookiesSeen: string[];
  close(): Promise<void>;
}

async function startHostileServer(coreUrl: string): Promise<HostilePage> {
  const cookiesSeen: string[] = [];
  const page = `<!doctype html><meta charset="utf-8"><title>Free coupons</title>
<h1>Free coupons</h1>
<iframe id="victim" src="${coreUrl}/ui/" width="800" height="500"></iframe>
<img id="peek" src="${coreUrl}/v1/render-batches">
<a id="steal" href="${coreUrl}/v1/api-keys">continue</a>
<form id="grant" method="post" action="${coreUrl}/v1/account/credits" enctype="text/plain">
  <input name='{"amount":1000,"note":"' value='"}'>
</form>
<script>
  window.fetched = fetch(${JSON.stringify(`${coreUrl}/v1/api-keys`)}, { credentials: 'include' })
    .then((res) => 'status ' + res.status, (error) => 'blocked: ' + error.name);
  window.cookiesHere = document.cookie;
</script>`;
  const server = http.createServer((request, response) => {
    cookiesSeen.push(request.headers.cookie ?? '');
    // A cookie of its own on 127.0.0.1: the browser sends it to the core's port too.
    response.setHeader('Set-Cookie', 'hostile=1; Path=/; SameSite=Lax');
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.end(request.url === '/' ? page : 'ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    cookiesSeen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What became of a page's requests to the core, as the browser saw them (not the page). */
function recordCoreRequests(page: Page, coreUrl: string) {
  const sent: Request[] = [];
  const failed = new Map<string, string>();
  page.on('request', (request) => {
    if (request.url().startsWith(coreUrl)) sent.push(request);
  });
  page.on('requestfailed', (request) => {
    if (request.url().startsWith(coreUrl))
      failed.set(request.url(), request.failure()?.errorText ?? '');
  });
  return { sent, failed };
}

describe('a hostile page on another local port', () => {
  let core: CoreProcess;
  let ui: UiSession;
  let hostile: HostilePage;
  beforeEach(async () => {
    core = await startCore();
    // Chromium reports the refused frame as a console error of the page that tried.
    ui = await openUi(core, { allowConsole: [/frame-ancestors/] });
    hostile = await startHostileServer(core.url);
  });
  afterEach(async () => {
    await ui?.close();
    await core?.stop();
    await hostile?.close();
  });

  it('cannot frame the signed-in UI, and its requests carrying cookies get no access', async () => {
    const session = await ui.page.evaluate<string | null>(
      "sessionStorage.getItem('render-desk.session')",
    );
    expect(session).toMatch(/^[\w-]{12}\.[\w-]{43}$/);
    // The core set no cookie at all: there is nothing another port could receive.
    expect(await ui.context.cookies(core.url)).toEqual([]);

    // First visit sets the hostile server's own cookie; the second page load carries it.
    const page = await ui.context.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    await page.goto(hostile.url);
    const requests = recordCoreRequests(page, core.url);
    await page.reload();

    // (a) The frame is refused: no app inside it, and Chromium says why.
    await expect.poll(() => refusals.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame).toBeDefined();
    expect(await frame!.locator('nav.sidebar').count()).toBe(0);
    expect(frame!.url().startsWith(core.url)).toBe(false);
    await screenshot(page, 'hostile-page-frame-refused');

    // (b) Its requests to the core carry the browser's cookies for 127.0.0.1, and get nothing:
    // the browser itself refuses the frame, the image (not same-origin) and the fetch (CORS).
    expect(await page.evaluate<string>('window.fetched')).toMatch(/^blocked/);
    await expect.poll(() => requests.failed.size, { timeout: 30_000 }).toBe(3);
    expect(Object.fromEntries(requests.failed)).toEqual({
      [`${core.url}/ui/`]: 'net::ERR_BLOCKED_BY_RESPONSE',
      [`${core.url}/v1/render-batches`]: expect.stringMatching(/^net::ERR_BLOCKED_BY_RESPONSE/),
      [`${core.url}/v1/api-keys`]: expect.stringMatching(/^net::ERR_FAILED/),
    });
    // What gets through is a navigation: a link the user clicks, a form the page submits.
    const [opened] = await Promise.all([page.waitForNavigation(), page.locator('#steal').click()]);
    expect(opened?.status()).toBe(401);
    expect(await page.textContent('body')).toContain('"code":"unauthorized"');
    const balance = async () => ((await (await core.api('/v1/account')).json()) as Json).balance;
    const before = await balance();
    await page.goto(hostile.url);
    const [posted] = await Promise.all([
      page.waitForNavigation(),
      page.locator('#grant').evaluate((form) => (form as unknown as { submit(): void }).submit()),
    ]);
    expect(posted?.status()).toBe(403);
    expect(await page.textContent('body')).toContain('"code":"forbidden-origin"');
    expect(await balance()).toBe(before);
    // The frame and both navigations carried the browser's cookies for 127.0.0.1: no session.
    const answered = requests.sent.filter((request) => request.isNavigationRequest());
    const navigations: string[] = [];
    for (const request of answered) {
      if (!(await request.response())) continue;
      navigations.push(request.url());
      const cookie = (await request.allHeaders())['cookie'] ?? '';
      expect(cookie, request.url()).toContain('hostile=1');
      expect(cookie).not.toContain(session!.split('.')[1]!);
    }
    expect([...new Set(navigations)].sort()).toEqual(
      [`${core.url}/ui/`, `${core.url}/v1/account/credits`, `${core.url}/v1/api-keys`].sort(),
    );

    // Whatever cookies reached the hostile server, replayed against the core, open nothing.
    expect(hostile.cookiesSeen.length).toBeGreaterThan(0);
    for (const cookie of hostile.cookiesSeen) {
      expect(cookie).not.toContain(session!.split('.')[1]!);
      const replay = await fetch(`${core.url}/v1/api-keys`, { headers: { cookie } });
      expect(replay.status).toBe(401);
    }
    await page.close();
  });

  it('leaves the UI working in its own tab: after a reload, on a deep link and in a new tab', async () => {
    const { page } = ui;
    await page.reload();
    await page.waitForSelector('nav.sidebar');
    await page.goto(`${core.url}/ui/api`);
    await page.getByTestId('api-keys').waitFor();

    // A tab opened later with a deep link gets the session from the app's open tab.
    const second = await ui.context.newPage();
    await second.goto(`${core.url}/ui/api`);
    await second.getByTestId('api-keys').waitFor();
    expect(await second.getByText('This session has ended').count()).toBe(0);
    await second.close();
    expect(ui.consoleErrors).toEqual([]);
  });
});
