import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sharedInitialisedCluster,
  startClusterNode,
  type ClusterEnvironment,
  type ClusterNodeProcess,
} from '../helpers/cluster-node.js';
import {
  openUi,
  screenshot,
  startCore,
  waitForImages,
  type CoreProcess,
  type UiSession,
} from './harness.js';

/**
 * Settings → Team service in the browser: the app on this computer is pointed at a real team
 * service (a cluster API node on PostgreSQL, Redis and s3rver), checks it and opens it; the
 * first screen says which service each page renders on.
 */
let env: ClusterEnvironment;
let team: ClusterNodeProcess;
let core: CoreProcess;
let ui: UiSession;

beforeAll(async () => {
  env = await sharedInitialisedCluster();
  [team, core] = await Promise.all([startClusterNode(env, 'api'), startCore()]);
  ui = await openUi(core);
}, 240_000);

afterAll(async () => {
  await ui?.close();
  await Promise.allSettled([core?.stop(), team?.stop()]);
}, 120_000);

describe('the team service', () => {
  it('is set in Settings, checked, and opened, and each first screen says where it renders', async () => {
    const { page } = ui;
    await page.getByTestId('service-badge').getByText('This computer').waitFor();

    await page.getByRole('link', { name: 'Settings' }).click();
    const card = page.getByTestId('team-service');
    await card.getByLabel('Service address').fill(team.url!);
    await card.getByLabel('API key (admin)').fill(env.apiKey);
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Team service saved').waitFor();
    await card.getByText('A key is saved. Type a new one to replace it.').waitFor();
    expect(await card.getByLabel('API key (admin)').inputValue()).toBe('');
    expect(await card.getByTestId('team-worker').textContent()).toBe('Not lending');

    await card.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(`Connected to ${team.url} (Render Desk`).waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'team-service-settings');

    const [opened] = await Promise.all([
      ui.context.waitForEvent('page'),
      card.getByRole('button', { name: 'Open the team service' }).click(),
    ]);
    await opened.waitForSelector('nav.sidebar');
    const host = new URL(team.url!).host;
    await opened.getByTestId('service-badge').getByText(`Team service · ${host}`).waitFor();
    // The team service's own Settings have no team-service card: it is the team service.
    await opened.getByRole('link', { name: 'Settings' }).click();
    await opened.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await opened.getByTestId('team-service').count()).toBe(0);
    // Its webhooks are the cluster's: any node sends, so the card asks for an address all reach.
    const hooks = opened.getByTestId('webhooks-card');
    await hooks.scrollIntoViewIfNeeded();
    await hooks.getByText('An http(s) address every node of the cluster can reach').waitFor();
    await screenshot(opened, 'team-service-webhooks');
    await opened.getByRole('link', { name: 'Templates' }).first().click();
    await opened.getByTestId('service-badge').waitFor();
    // Thumbnails are drawn by the team service's own render threads (the popup is smaller than
    // the main window, so only the first row is sure to be on screen and loaded).
    await opened.setViewportSize({ width: 1440, height: 900 });
    await waitForImages(opened, '.template-card:nth-of-type(-n+4) img');
    await screenshot(opened, 'team-service-opened');
    expect(ui.consoleErrors).toEqual([]);
  });

  it('names a refused key in the user’s words', async () => {
    const { page } = ui;
    // The page is the first test's: its "saved" toast must be gone before this save says so.
    await page.getByText('Team service saved').waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Settings' }).click();
    const card = page.getByTestId('team-service');
    await card.getByLabel('API key (admin)').fill('rdk_wrong_key_for_this_service');
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Team service saved').waitFor();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card
      .getByText('The team service refused the API key. Ask its administrator for an admin key.')
      .waitFor();
    await screenshot(page, 'team-service-key-refused');
  });
});
