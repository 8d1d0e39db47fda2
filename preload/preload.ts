import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  NATIVE_BRIDGE_KEY,
  NATIVE_CHANNELS,
  type MenuCommand,
  type NativeBridge,
  type PickedFile,
} from '../shared/native-bridge.js';

/**
 * The UI's only door to native features: exactly the NativeBridge of shared/native-bridge.ts,
 * each method on its own named channel (no generic invoke). Runs sandboxed, so it is bundled into
 * one CommonJS file that requires nothing but `electron`. The main process checks every
 * sender's origin as well; this side only keeps to the contract.
 */

const MENU_COMMANDS: ReadonlySet<string> = new Set<MenuCommand>([
  'open-spreadsheet',
  'new-batch',
  'show-catalog',
  'show-batches',
  'show-settings',
  'toggle-theme',
]);

function pickedFiles(value: unknown): PickedFile[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    const file = entry as Partial<PickedFile> | null;
    return file && typeof file.path === 'string' && typeof file.name === 'string'
      ? [{ path: file.path, name: file.name }]
      : [];
  });
}

/**
 * Listeners for events from the main process and from the page. Dropped files that arrive
 * before the UI has subscribed (a file the app was opened with) wait for the first listener.
 */
function channel<T>(options: { keepUntilHeard: boolean }) {
  const listeners = new Set<(value: T) => void>();
  const waiting: T[] = [];
  return {
    emit(value: T): void {
      if (listeners.size === 0) {
        if (options.keepUntilHeard && waiting.length < 20) waiting.push(value);
        return;
      }
      for (const listener of [...listeners]) listener(value);
    },
    subscribe(listener: (value: T) => void): () => void {
      if (typeof listener !== 'function') throw new TypeError('listener must be a function');
      listeners.add(listener);
      const backlog = waiting.splice(0);
      if (backlog.length) queueMicrotask(() => backlog.forEach((value) => listener(value)));
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

const droppedFiles = channel<PickedFile[]>({ keepUntilHeard: true });
const menuCommands = channel<MenuCommand>({ keepUntilHeard: false });

ipcRenderer.on(NATIVE_CHANNELS.droppedFiles, (_event, payload: unknown) => {
  const files = pickedFiles(payload);
  if (files.length) droppedFiles.emit(files);
});
ipcRenderer.on(NATIVE_CHANNELS.menuCommand, (_event, payload: unknown) => {
  if (typeof payload === 'string' && MENU_COMMANDS.has(payload))
    menuCommands.emit(payload as MenuCommand);
});

// Files dragged in from the OS: the whole window is a drop target. Recent Electron has no
// File.path; the real path comes from webUtils, which only this (privileged) side can call.
const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
window.addEventListener('dragover', (event) => {
  if (carriesFiles(event)) event.preventDefault();
});
window.addEventListener('drop', (event) => {
  if (!carriesFiles(event)) return;
  // Without this Chromium would try to open the file as a page (the shell refuses that anyway).
  event.preventDefault();
  const files = Array.from(event.dataTransfer?.files ?? []).flatMap((file) => {
    const filePath = webUtils.getPathForFile(file);
    return filePath ? [{ path: filePath, name: file.name }] : [];
  });
  if (files.length) droppedFiles.emit(files);
});

const bridge: NativeBridge = {
  openFiles: (options) => ipcRenderer.invoke(NATIVE_CHANNELS.openFiles, options),
  chooseFolder: (options) => ipcRenderer.invoke(NATIVE_CHANNELS.chooseFolder, options),
  saveFile: (options) => ipcRenderer.invoke(NATIVE_CHANNELS.saveFile, options),
  revealInFolder: (filePath) => ipcRenderer.invoke(NATIVE_CHANNELS.revealInFolder, filePath),
  onDroppedFiles: (listener) => droppedFiles.subscribe(listener),
  onMenuCommand: (listener) => menuCommands.subscribe(listener),
};

// Only the app's own pages (the core on loopback) get the bridge, never a status page.
if (location.protocol === 'http:' && location.hostname === '127.0.0.1') {
  contextBridge.exposeInMainWorld(NATIVE_BRIDGE_KEY, bridge);
}
