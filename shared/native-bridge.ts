/**
 * The small typed bridge between the UI and the Electron shell (preload → contextBridge). In a
 * plain browser it is absent and the UI falls back to web APIs (file input, download).
 */

export const NATIVE_BRIDGE_KEY = 'renderDeskNative';

/** IPC channel names: the preload exposes these and nothing else; the shell checks each sender. */
export const NATIVE_CHANNELS = {
  openFiles: 'native:open-files',
  saveFile: 'native:save-file',
  revealInFolder: 'native:reveal-in-folder',
  chooseFolder: 'native:choose-folder',
  droppedFiles: 'native:dropped-files',
  menuCommand: 'native:menu-command',
} as const;

export interface FileFilter {
  name: string;
  extensions: string[];
}

/** A file the user picked or dropped, read by the shell (the sandboxed renderer cannot). */
export interface PickedFile {
  path: string;
  name: string;
}

export type MenuCommand =
  | 'open-spreadsheet'
  | 'new-batch'
  | 'show-catalog'
  | 'show-batches'
  | 'show-settings'
  | 'toggle-theme';

export interface NativeBridge {
  /** Native open dialog; resolves to the chosen files (empty when cancelled). */
  openFiles(options: {
    title?: string;
    filters?: FileFilter[];
    multiple?: boolean;
  }): Promise<PickedFile[]>;
  /** Native folder picker (images folder for relative paths); null when cancelled. */
  chooseFolder(options: { title?: string }): Promise<string | null>;
  /** Native save dialog, then the shell downloads `url` (same origin) into the chosen file. */
  saveFile(options: {
    suggestedName: string;
    url: string;
    filters?: FileFilter[];
  }): Promise<{ saved: boolean; path?: string }>;
  /** Shows a file or folder in the OS file manager. */
  revealInFolder(path: string): Promise<void>;
  /** Files dropped on the window from the OS. Returns an unsubscribe function. */
  onDroppedFiles(listener: (files: PickedFile[]) => void): () => void;
  /** Menu shortcuts (Ctrl/Cmd+O …). Returns an unsubscribe function. */
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
}
