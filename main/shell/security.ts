import { app, shell, type Session, type WebContents } from 'electron';
import { decideNavigation, withContentSecurityPolicy } from './security-policy.js';

/**
 * Electron's security checklist, applied once per session and to every web contents the app
 * creates. The rules themselves are pure functions in security-policy.ts (tested under Node);
 * this file only wires them to Electron. `coreOrigin` is read at each decision because the core's
 * port is only known once it runs.
 */
export type CoreOrigin = () => string | null;

export function secureSession(session: Session, coreOrigin: CoreOrigin): void {
  // The UI needs no camera, notifications, geolocation, clipboard reads … : refuse them all.
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: withContentSecurityPolicy(
        details.url,
        details.responseHeaders,
        coreOrigin(),
      ),
    });
  });
}

function openExternally(url: string): void {
  shell
    .openExternal(url)
    .catch((error: unknown) => console.error('Could not open a link in the browser:', error));
}

export function secureWebContents(contents: WebContents, coreOrigin: CoreOrigin): void {
  const guardNavigation = (event: { preventDefault(): void }, url: string) => {
    const decision = decideNavigation(url, coreOrigin());
    if (decision.action === 'allow') return;
    event.preventDefault();
    if (decision.action === 'open-externally') openExternally(decision.url);
  };
  contents.on('will-navigate', (event) => guardNavigation(event, event.url));
  contents.on('will-frame-navigate', (event) => guardNavigation(event, event.url));
  contents.on('will-redirect', (event) => guardNavigation(event, event.url));
  contents.setWindowOpenHandler(({ url }) => {
    const decision = decideNavigation(url, coreOrigin());
    if (decision.action === 'open-externally') openExternally(decision.url);
    if (decision.action !== 'allow') return { action: 'deny' };
    // A page of our own (e.g. a full-size preview): allowed, with the same locked-down settings
    // and no native bridge.
    return {
      action: 'allow',
      overrideBrowserWindowOptions: {
        webPreferences: {
          contextIsolation: true,
          sandbox: true,
          nodeIntegration: false,
          nodeIntegrationInSubFrames: false,
          webSecurity: true,
          webviewTag: false,
        },
      },
    };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Every renderer runs sandboxed, and every web contents gets the navigation rules. */
export function secureApp(coreOrigin: CoreOrigin): void {
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => secureWebContents(contents, coreOrigin));
}
