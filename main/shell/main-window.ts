import { BrowserWindow } from 'electron';
import { isSameOrigin } from './security-policy.js';
import { statusPageUrl, type StatusPage } from './status-page.js';

export interface MainWindowOptions {
  preloadPath: string;
  development: boolean;
}

/** The one window: locked-down web preferences, shown once its first page has painted. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Render Desk',
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: options.development,
      spellcheck: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  return window;
}

export function showStatus(window: BrowserWindow, page: StatusPage): void {
  if (window.isDestroyed()) return;
  window.loadURL(statusPageUrl(page)).catch(() => {
    // A newer page replaced this one before it finished loading: nothing to do.
  });
}

export function showUi(window: BrowserWindow, url: string): void {
  if (window.isDestroyed()) return;
  window.loadURL(url).catch((error: unknown) => {
    // ERR_ABORTED: the session link redirects to /ui/, or a newer load replaced this one.
    if ((error as { code?: string }).code !== 'ERR_ABORTED')
      console.error('Could not load the UI:', error);
  });
}

/** Sends to the UI only: never to a status page, and never to a page of another origin. */
export function sendToUi(
  window: BrowserWindow | null,
  coreOrigin: string | null,
  channel: string,
  payload: unknown,
): boolean {
  if (!window || window.isDestroyed()) return false;
  const contents = window.webContents;
  if (contents.isLoading() || !isSameOrigin(contents.getURL(), coreOrigin)) return false;
  contents.send(channel, payload);
  return true;
}

export function focusWindow(window: BrowserWindow | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
