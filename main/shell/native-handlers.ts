import path from 'node:path';
import {
  BrowserWindow,
  dialog,
  ipcMain,
  shell,
  type IpcMainInvokeEvent,
  type OpenDialogOptions,
} from 'electron';
import { NATIVE_CHANNELS, type PickedFile } from '../../shared/native-bridge.js';
import type { Downloads } from './downloads.js';
import {
  chooseFolderArguments,
  openFilesArguments,
  revealArguments,
  saveFileArguments,
} from './ipc-arguments.js';
import { isTrustedSender } from './security-policy.js';
import type { CoreOrigin } from './security.js';

export interface NativeHandlerContext {
  coreOrigin: CoreOrigin;
  downloads: Downloads;
  downloadsFolder: () => string;
}

/** The bridge's invoke channels (shared/native-bridge.ts), each refusing senders not on the core's origin. */
export function registerNativeHandlers(context: NativeHandlerContext): void {
  const handle = <T>(
    channel: string,
    handler: (event: IpcMainInvokeEvent, pageUrl: string, argument: unknown) => Promise<T>,
  ) => {
    ipcMain.handle(channel, (event, argument: unknown) => {
      const pageUrl = event.senderFrame?.url;
      if (!pageUrl || !isTrustedSender(pageUrl, context.coreOrigin())) {
        throw new Error('Refused: only the Render Desk UI may use native features.');
      }
      return handler(event, pageUrl, argument);
    });
  };
  const windowOf = (event: IpcMainInvokeEvent) => BrowserWindow.fromWebContents(event.sender);
  const openDialog = (event: IpcMainInvokeEvent, options: OpenDialogOptions) => {
    const window = windowOf(event);
    return window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options);
  };

  handle(NATIVE_CHANNELS.openFiles, async (event, _pageUrl, argument): Promise<PickedFile[]> => {
    const options = openFilesArguments(argument);
    const result = await openDialog(event, {
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.filters ? { filters: options.filters } : {}),
      properties: options.multiple ? ['openFile', 'multiSelections'] : ['openFile'],
    });
    if (result.canceled) return [];
    return result.filePaths.map((file) => ({ path: file, name: path.basename(file) }));
  });

  handle(
    NATIVE_CHANNELS.chooseFolder,
    async (event, _pageUrl, argument): Promise<string | null> => {
      const options = chooseFolderArguments(argument);
      const result = await openDialog(event, {
        ...(options.title !== undefined ? { title: options.title } : {}),
        properties: ['openDirectory', 'createDirectory'],
      });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  );

  handle(
    NATIVE_CHANNELS.saveFile,
    async (event, pageUrl, argument): Promise<{ saved: boolean; path?: string }> => {
      const coreOrigin = context.coreOrigin();
      if (!coreOrigin) throw new Error('The app’s server is not running.');
      const options = saveFileArguments(argument, { pageUrl, coreOrigin });
      const window = windowOf(event);
      const dialogOptions = {
        defaultPath: path.join(context.downloadsFolder(), options.suggestedName),
        ...(options.filters ? { filters: options.filters } : {}),
      };
      const choice = await (window
        ? dialog.showSaveDialog(window, dialogOptions)
        : dialog.showSaveDialog(dialogOptions));
      if (choice.canceled || !choice.filePath) return { saved: false };
      await context.downloads.save(event.sender, options.url, choice.filePath);
      return { saved: true, path: choice.filePath };
    },
  );

  handle(NATIVE_CHANNELS.revealInFolder, async (_event, _pageUrl, argument): Promise<void> => {
    shell.showItemInFolder(revealArguments(argument));
  });
}
