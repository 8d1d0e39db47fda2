import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import type { startCore as startRunningCore } from '../../main/app.js';
import type { resolveConfig } from '../../main/config.js';
import { CORE_NODE_FLAGS, coreProcessEnv } from '../../main/core-process-env.js';
import { UI_SESSION_STORAGE_KEY } from '../../shared/ui-session-key.js';
import { openUiSession, SESSION_HEADER } from '../helpers/ui-session.js';
import { compiledCoreUrl, compiledServeEntry } from '../helpers/compiled-core.js';
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  CLOSE_WORKER_BROWSER,
  requireChromium,
  ROOT,
} from './chromium.js';

/**
 * End-to-end helpers: every test starts its own core (port 0, a temp data dir, one worker) and
 * gets its own browser context (cookies, storage, cache and downloads of its own) in the worker's
 * Chromium, so tests share no ports, files or cookies.
 */

export { requireChromium, ROOT } from './chromium.js';
export const SCREENSHOTS = path.join(ROOT, 'tests', 'e2e', 'screenshots');

/**
 * One Chromium per test worker (Playwright gives each launch a fresh temporary profile), started
 * when a test first opens the UI and kept for the worker's later files: a launch costs ~0.5 s
 * more than a new context, and contexts are as isolated from each other as separate profiles for
 * everything a test can see. The worker's environment (browser-environment.ts) closes it when the
 * worker stops; a bench script calls closeBrowser().
 */
let browser: Promise<Browser> | undefined;
/** Contexts openUi made that are still open: a file's leftovers are closed after it. */
const openContexts = new Set<BrowserContext>();

function workerBrowser(): Promise<Browser> {
  requireChromium();
  if (!browser) {
    const launching = chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    browser = launching;
    // A browser that failed to start or went away is launched again for the next test.
    const forget = () => {
      if (browser === launching) browser = undefined;
    };
    launching.then((launched) => launched.on('disconnected', forget), forget);
  }
  return browser;
}

/** Closes the worker's Chromium: when the worker stops, or at the end of a bench script. */
export async function closeBrowser(): Promise<void> {
  const open = browser;
  browser = undefined;
  await (await open?.catch(() => undefined))?.close();
}

/**
 * Closes the contexts a test file left open (setup-file.ts), as closing the file's browser did:
 * their pages would otherwise keep running, polling a stopped core, through the worker's later
 * files.
 */
export async function closeContextsLeftOpen(): Promise<void> {
  const left = [...openContexts];
  openContexts.clear();
  await Promise.all(left.map((context) => context.close()));
}

// The bench scripts (scripts/ui-bench.ts…) drive the same helpers outside vitest.
const inVitest = process.env.VITEST !== undefined;
if (inVitest) (globalThis as Record<symbol, unknown>)[CLOSE_WORKER_BROWSER] = closeBrowser;

export interface CoreProcess {
  url: string;
  uiLink: string;
  apiKey: string;
  dataDir: string;
  /** An authenticated request with the test's admin key. */
  api: (pathname: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  stop: () => Promise<void>;
}

export interface StartCoreOptions {
  credits?: number;
  env?: Record<string, string>;
}

export async function startCore(options: StartCoreOptions = {}): Promise<CoreProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-e2e-data-'));
  // The run's thumbnail cache (global-setup.ts): the catalog is drawn once per run, not per test.
  if (inVitest) {
    fs.mkdirSync(path.join(dataDir, 'cache'));
    fs.symlinkSync(inject('sharedThumbnailsDir'), path.join(dataDir, 'cache', 'thumbnails'));
  }
  const apiKey = `rd_e2e_${crypto.randomBytes(18).toString('hex')}`;
  const args = ['--port', '0', '--data-dir', dataDir, '--workers', '1', '--api-key', apiKey];
  const env = { RENDER_DESK_CREDITS: String(options.credits ?? 1000), ...options.env };
  const started = inVitest ? await startInProcess(args, env) : await startProcess(args, env);
  const api = (pathname: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set('authorization', `Bearer ${apiKey}`);
    if (json !== undefined) headers.set('content-type', 'application/json');
    return fetch(started.url + pathname, {
      ...rest,
      headers,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };
  return {
    url: started.url,
    uiLink: started.uiLink,
    apiKey,
    dataDir,
    api,
    stop: async () => {
      await started.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface StartedCore {
  url: string;
  uiLink: string;
  stop: () => Promise<void>;
}

interface CompiledCore {
  startCore: typeof startRunningCore;
  resolveConfig: typeof resolveConfig;
}
let compiledCore: Promise<CompiledCore> | undefined;

/**
 * A browser test's core, in the test's own process: the core compiled once per run (as the
 * packaged app runs it), loaded once per test worker and started with the flags and environment
 * `serve` would be given. A spawned core paid ~1.5 s of CPU per test to load its modules again;
 * this one starts in a tenth of that. What the page talks to is the same HTTP server, routes and
 * data folder; `serve` itself (flags, signals, its printed lines) has its own tests.
 */
async function startInProcess(args: string[], env: Record<string, string>): Promise<StartedCore> {
  if (!compiledCore) {
    const copy = compiledCoreUrl();
    compiledCore = Promise.all([
      import(new URL('main/app.js', copy).href) as Promise<CompiledCore>,
      import(new URL('main/config.js', copy).href) as Promise<CompiledCore>,
    ]).then(([app, config]) => ({ startCore: app.startCore, resolveConfig: config.resolveConfig }));
  }
  const compiled = await compiledCore;
  const core = await compiled.startCore(compiled.resolveConfig(args, { ...process.env, ...env }));
  return {
    url: core.url,
    uiLink: core.uiLink(),
    stop: async () => {
      // The render pool lets threads still loading finish (up to 20 s) before it stops them: a
      // core that has not closed well after that is stuck.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        core.close(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('the core did not close in 30 s')), 30_000);
        }),
      ]).finally(() => clearTimeout(timer));
    },
  };
}

/**
 * The core as `serve`, in a process of its own: for the bench scripts, which time the UI against
 * a core that shares no event loop with the browser's driver, as the app's does.
 */
async function startProcess(args: string[], env: Record<string, string>): Promise<StartedCore> {
  const child = spawn(process.execPath, [...CORE_NODE_FLAGS, compiledServeEntry(), ...args], {
    cwd: ROOT,
    env: coreProcessEnv({ ...process.env, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const lines = await new Promise<{ url: string; uiLink: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the core did not start in 60 s:\n${output}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      const uiLink = /UI: (http:\/\/\S+)/.exec(output)?.[1];
      if (url && uiLink) {
        clearTimeout(timer);
        resolve({ url, uiLink });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the core exited with ${code} before listening:\n${output}`));
    });
  });
  return { ...lines, stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface UiSession {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far (a test fails on any it did not expect). */
  consoleErrors: string[];
  close: () => Promise<void>;
}

export interface OpenUiOptions {
  locale?: string;
  colorScheme?: 'light' | 'dark';
  allowConsole?: RegExp[];
  /**
   * `false` for a test whose first step loads a screen itself (page.goto): the page opens no
   * screen, and that first load is the app's first, with the session already in the tab as the
   * app keeps it across a reload. By default the page opens the launch link, which starts the
   * app on the catalog; a test that left it at once paid Chromium about 2 s of CPU for a catalog
   * and an app start it never looked at.
   */
  launch?: boolean;
}

/**
 * A fresh browser context on the core's one-time UI link; resolves once the app has rendered (or,
 * with `launch: false`, once the tab holds the session and no screen is open).
 */
export async function openUi(core: CoreProcess, options: OpenUiOptions = {}): Promise<UiSession> {
  const context = await (
    await workerBrowser()
  ).newContext({
    viewport: { width: 1440, height: 900 },
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    // Spinners, shimmering skeletons and pulses repaint forever while a test waits; stopped
    // (the UI honours prefers-reduced-motion), Chromium spends a third less CPU. What a test
    // asserts is there either way: the elements stay, only their animation stops.
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  openContexts.add(context);
  context.once('close', () => openContexts.delete(context));
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const allowed = options.allowConsole ?? [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (!allowed.some((re) => re.test(text))) consoleErrors.push(text);
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  try {
    if (options.launch === false) {
      // A page of the core's origin that runs no app: the tab's storage is the origin's.
      const session = (await openUiSession(core.uiLink))[SESSION_HEADER];
      await page.goto(`${core.url}/healthz`);
      await page.evaluate(
        `sessionStorage.setItem(${JSON.stringify(UI_SESSION_STORAGE_KEY)}, ${JSON.stringify(session)})`,
      );
    } else {
      await page.goto(core.uiLink);
      await page.waitForSelector('nav.sidebar');
    }
  } catch (error) {
    // The test never gets this session to close, and the browser outlives the test.
    await context.close();
    throw error;
  }
  return {
    context,
    page,
    consoleErrors,
    close: () => context.close(),
  };
}

/** The core and the browser of the test that is running; see useCoreAndUi. */
export interface CoreAndUi {
  readonly core: CoreProcess;
  readonly ui: UiSession;
}

/**
 * Gives each test of the enclosing describe (or file) its own core and UI: starts them before
 * the test and closes both after it, even when it failed. Read `core` and `ui` inside a test or a
 * later hook (`const { core, ui } = session;`), not at describe time: each test gets new ones.
 * Hooks registered after this call run after its beforeEach and before its afterEach.
 */
export function useCoreAndUi(options: StartCoreOptions & OpenUiOptions = {}): CoreAndUi {
  return coreAndUiAround(beforeEach, afterEach, options);
}

/**
 * One core and UI for the whole enclosing describe, for tests that report on one walk through
 * the app: both start before its first test, `walk` runs on them once, and both close after its
 * last test, even when the walk or a test failed. Its tests read what the walk found, and
 * `session.ui.consoleErrors`.
 */
export function useCoreAndUiOnce(
  options: StartCoreOptions & OpenUiOptions,
  walk: (session: CoreAndUi) => Promise<void>,
): CoreAndUi {
  return coreAndUiAround(beforeAll, afterAll, options, walk, 240_000);
}

type Hook = (fn: () => Promise<void>, timeout?: number) => void;

/** A core and UI started in `before` (then `walk`, if any) and closed in `after`. */
function coreAndUiAround(
  before: Hook,
  after: Hook,
  options: StartCoreOptions & OpenUiOptions,
  walk?: (session: CoreAndUi) => Promise<void>,
  timeout?: number,
): CoreAndUi {
  const { credits, env, ...uiOptions } = options;
  let core: CoreProcess | undefined;
  let ui: UiSession | undefined;
  const session: CoreAndUi = {
    get core() {
      if (!core) throw new Error('no core: read session.core inside a test or a later hook');
      return core;
    },
    get ui() {
      if (!ui) throw new Error('no UI: read session.ui inside a test or a later hook');
      return ui;
    },
  };
  before(async () => {
    core = await startCore({ credits, env });
    ui = await openUi(core, uiOptions);
    await walk?.(session);
  }, timeout);
  after(async () => {
    // The browser goes first: the page may still be talking to the core.
    await ui?.close();
    await core?.stop();
    ui = undefined;
    core = undefined;
  });
  return session;
}

/**
 * Waits until the screen has settled: requests done, the images in sight loaded and no preview
 * still rendering, so the screenshot and the measures see the layout people see.
 */
export async function settle(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.waitForFunction(
    () => {
      // No DOM types here: the page's document, described as far as it is used.
      type Img = {
        complete: boolean;
        naturalWidth: number;
        getBoundingClientRect(): { top: number; bottom: number; width: number };
      };
      const g = globalThis as unknown as {
        innerHeight: number;
        document: { querySelectorAll(s: string): ArrayLike<Img>; fonts: { status: string } };
      };
      const inSight = Array.from(g.document.querySelectorAll('main img')).filter((img) => {
        const r = img.getBoundingClientRect();
        return r.width > 0 && r.bottom > 0 && r.top < g.innerHeight;
      });
      return (
        g.document.fonts.status === 'loaded' &&
        inSight.every((img) => img.complete && img.naturalWidth > 0) &&
        g.document.querySelectorAll('.preview-busy').length === 0
      );
    },
    undefined,
    { timeout },
  );
}

/**
 * Screenshots are for people to look at, not checks: each costs Chromium about 0.25 s of CPU to
 * capture, and a run takes some 250. They are written when asked for, with
 * RENDER_DESK_SCREENSHOTS=1 (`npm run test:screenshots`), to tests/e2e/screenshots/.
 */
export const SCREENSHOTS_WANTED = process.env.RENDER_DESK_SCREENSHOTS === '1';

export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  // As people see the screen once it has settled; a screen that does not (a broken image a test
  // shows on purpose) is drawn as it is after a few seconds.
  await settle(page, 5_000).catch(() => undefined);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** The themes the UI draws, in the order the tests check them. */
export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * Turns the system's colour scheme under the open page to `theme` and waits until the UI has
 * followed it (App.tsx listens for the change), as when a person's system goes dark: the screen,
 * its state and any open dialog stay as they are.
 */
export async function switchSystemTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
}

/**
 * Moves the open app to the screen at `path` the way its back and forward buttons do (the address
 * changes and the app follows it), with no page load: the app, its session and what it has
 * fetched stay, as when a person goes from screen to screen.
 */
export async function showScreen(page: Page, path: string): Promise<void> {
  await page.evaluate(
    `(() => {
      history.pushState(null, '', ${JSON.stringify(path)});
      dispatchEvent(new PopStateEvent('popstate'));
    })()`,
  );
}

/** Drops a file on the window the way the OS does: a drop event carrying a DataTransfer. */
export async function dropFile(
  page: Page,
  selector: string,
  file: { name: string; type: string; content: string },
): Promise<void> {
  await page.evaluate(
    `(() => {
      const spec = ${JSON.stringify(file)};
      const target = document.querySelector(${JSON.stringify(selector)});
      const transfer = new DataTransfer();
      transfer.items.add(new File([spec.content], spec.name, { type: spec.type }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    })()`,
  );
}

/**
 * Resolves when every image matching the selector has loaded. The predicate is a function, not a
 * string: Playwright evaluates string predicates with eval, which the UI's CSP forbids.
 */
export async function waitForImages(page: Page, selector: string, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (css: string) => {
      // No DOM types in this file: the page's document, described as far as it is used here.
      type Img = { complete: boolean; naturalWidth: number };
      const doc = (
        globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Img> } }
      ).document;
      const images = Array.from(doc.querySelectorAll(css));
      return images.length > 0 && images.every((img) => img.complete && img.naturalWidth > 0);
    },
    selector,
    { timeout },
  );
}

/**
 * Opens a built-in template's page and customises it: the editor opens on a new workspace copy.
 * Returns the copy's `wtpl_` id.
 */
export async function customiseInEditor(
  page: Page,
  core: CoreProcess,
  templateId: string,
): Promise<string> {
  await page.goto(`${core.url}/ui/templates/${templateId}`);
  await page.getByRole('button', { name: 'Customise' }).click();
  await page.waitForURL(/\/ui\/editor\/wtpl_/);
  return /\/ui\/editor\/(wtpl_[a-z0-9_]+)/.exec(page.url())![1]!;
}

/** Ctrl+S in the editor, then waits until the draft is saved (the save state is not dirty). */
export async function saveInEditor(page: Page): Promise<void> {
  await page.keyboard.press('ControlOrMeta+S');
  await expect
    .poll(() => page.getByTestId('save-state').getAttribute('data-dirty'), { timeout: 20_000 })
    .toBe('false');
}

/**
 * Every value sent for `name` in preview renders from now on (undefined while the field is
 * empty). Previews coalesce keystrokes, so which requests go out depends on timing; what is sent
 * once typing settles does not.
 */
export function sentRenderValues(ui: UiSession, name: string): unknown[] {
  const sent: unknown[] = [];
  ui.page.on('request', (r) => {
    if (r.method() !== 'POST' || !/\/v1\/render/.test(r.url()) || r.postData() === null) return;
    sent.push((JSON.parse(r.postData()!) as { values: Record<string, unknown> }).values[name]);
  });
  return sent;
}
