import fs from 'node:fs';
import path from 'node:path';
import { app, Menu, session, shell, type BrowserWindow } from 'electron';
import { NATIVE_CHANNELS, type MenuCommand, type PickedFile } from '../../shared/native-bridge.js';
import { buildMenuTemplate } from './app-menu.js';
import { coreLaunchSpec, developmentNodePath } from '../supervisor/core-launch.js';
import { CoreSupervisor } from '../supervisor/core-supervisor.js';
import { Downloads } from './downloads.js';
import { coreFlag, parseLaunchArgs, withoutFlags } from './launch-args.js';
import { createMainWindow, focusWindow, sendToUi, showStatus, showUi } from './main-window.js';
import { registerNativeHandlers } from './native-handlers.js';
import { secureApp, secureSession } from './security.js';

/**
 * App lifecycle: one instance, one window, the core as a supervised child process. The window
 * shows the UI the core serves; while the core (re)starts it shows a local status page.
 */

const development = !app.isPackaged;
const appRoot = app.getAppPath();

function isFile(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}

function main(): void {
  if (!app.requestSingleInstanceLock()) {
    // Another Render Desk is running: it receives our command line through 'second-instance'.
    app.quit();
    return;
  }
  if (process.platform === 'win32') app.setAppUserModelId('app.renderdesk.desktop');

  const launch = parseLaunchArgs(process.argv, {
    packaged: app.isPackaged,
    workingDirectory: process.cwd(),
    isFile,
  });
  let window: BrowserWindow | null = null;
  let coreOrigin: string | null = null;
  const filesForUi: PickedFile[] = [
    ...launch.files.map((file) => ({ path: file, name: path.basename(file) })),
  ];

  const flushFiles = () => {
    if (
      filesForUi.length &&
      sendToUi(window, coreOrigin, NATIVE_CHANNELS.droppedFiles, filesForUi)
    ) {
      filesForUi.length = 0;
    }
  };
  const openFiles = (files: string[]) => {
    filesForUi.push(...files.map((file) => ({ path: file, name: path.basename(file) })));
    flushFiles();
  };
  const sendMenuCommand = (command: MenuCommand) => {
    sendToUi(window, coreOrigin, NATIVE_CHANNELS.menuCommand, command);
  };

  app.on('second-instance', (_event, argv, workingDirectory) => {
    focusWindow(window);
    openFiles(parseLaunchArgs(argv, { packaged: app.isPackaged, workingDirectory, isFile }).files);
  });
  // macOS: files dropped on the Dock icon or opened with the app, possibly before 'ready'.
  app.on('open-file', (event, file) => {
    event.preventDefault();
    openFiles([file]);
  });

  secureApp(() => coreOrigin);

  // Flags given to `npm start -- …` win; then RENDER_DESK_DATA_DIR; then Electron's userData folder.
  const dataDir =
    coreFlag(launch.coreArgs, 'data-dir') ??
    process.env.RENDER_DESK_DATA_DIR ??
    app.getPath('userData');
  const forwardedPort = coreFlag(launch.coreArgs, 'port');
  const supervisor = new CoreSupervisor({
    launchSpec: (port) =>
      coreLaunchSpec({
        appRoot,
        packaged: app.isPackaged,
        execPath: process.execPath,
        nodePath: developmentNodePath(process.env),
        port: forwardedPort !== undefined ? Number(forwardedPort) : port,
        dataDir,
        extraArgs: withoutFlags(launch.coreArgs, ['port', 'data-dir']),
        env: process.env,
        supervised: true,
      }),
    log: (line) => console.log(`[core] ${line}`),
  });

  const openWindow = () => {
    window = createMainWindow({
      preloadPath: path.join(appRoot, 'dist', 'shell', 'preload.cjs'),
      development,
    });
    const opened = window;
    opened.on('closed', () => {
      if (window === opened) window = null;
    });
    opened.webContents.on('did-finish-load', flushFiles);
    opened.webContents.on('render-process-gone', (_event, details) => {
      if (details.reason === 'clean-exit' || opened.isDestroyed()) return;
      // The page crashed, not the core: reload the UI (its session cookie is still valid).
      if (coreOrigin) showUi(opened, `${coreOrigin}/ui/`);
    });
    const state = supervisor.current;
    if (state.status === 'ready') showUi(opened, `${state.origin}/ui/`);
    else showStatus(opened, { kind: 'starting' });
  };

  supervisor.onState((state) => {
    if (state.status === 'ready') {
      coreOrigin = state.origin;
      // A new core means new sessions: the one-time link signs the window in again.
      if (window) showUi(window, state.uiLink);
    } else if (state.status === 'restarting') {
      if (window)
        showStatus(window, {
          kind: 'reconnecting',
          attempt: state.attempt,
          delayMs: state.delayMs,
        });
    } else if (state.status === 'failed') {
      coreOrigin = null;
      if (window) showStatus(window, { kind: 'failed', reason: state.reason });
    }
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Hold the quit until the core has finished its in-flight work and closed its database.
    event.preventDefault();
    quitting = true;
    void supervisor.stop().finally(() => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (!window && app.isReady()) openWindow();
  });

  app.whenReady().then(
    () => {
      secureSession(session.defaultSession, () => coreOrigin);
      registerNativeHandlers({
        coreOrigin: () => coreOrigin,
        downloads: new Downloads(session.defaultSession),
        downloadsFolder: () => app.getPath('downloads'),
      });
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(
          buildMenuTemplate({
            platform: process.platform,
            development,
            send: sendMenuCommand,
            openDataFolder: () => {
              shell.openPath(dataDir).catch(() => {});
            },
          }),
        ),
      );
      openWindow();
      supervisor
        .start()
        .catch((error: unknown) => console.error('Render Desk could not start its core:', error));
    },
    (error: unknown) => {
      console.error(error);
      app.exit(1);
    },
  );
}

main();
