import {
  NATIVE_BRIDGE_KEY,
  type FileFilter,
  type MenuCommand,
  type NativeBridge,
  type PickedFile,
} from '../../shared/native-bridge';

/**
 * The only reader of the Electron bridge. In a plain browser the bridge is absent and every
 * function here falls back to a web API (a file input, a download link), so screens never ask
 * which one they run in — except to hide what a browser cannot do ("Show in folder").
 */

function bridge(): NativeBridge | null {
  const value = (window as unknown as Record<string, unknown>)[NATIVE_BRIDGE_KEY];
  return value && typeof value === 'object' ? (value as NativeBridge) : null;
}

export const native = {
  get available(): boolean {
    return bridge() !== null;
  },

  /** Picks files with a web file input (works in both: Electron's renderer has one too). */
  pickFiles(accept: string, multiple = false): Promise<File[]> {
    return new Promise((resolve) => {
      const input = document.createElement('input');
      input.type = 'file';
      input.accept = accept;
      input.multiple = multiple;
      input.style.display = 'none';
      input.addEventListener('change', () => {
        resolve(Array.from(input.files ?? []));
        input.remove();
      });
      input.addEventListener('cancel', () => {
        resolve([]);
        input.remove();
      });
      document.body.append(input);
      input.click();
    });
  },

  /** Native folder picker; null in a browser (the UI then shows a text field instead). */
  async chooseFolder(title: string): Promise<string | null> {
    const b = bridge();
    return b ? b.chooseFolder({ title }) : null;
  },

  /**
   * Saves a same-origin URL as a file: a native save dialog in Electron, a download in a browser.
   * Resolves false when the user cancelled the dialog.
   */
  async saveUrl(url: string, suggestedName: string, filters?: FileFilter[]): Promise<boolean> {
    const b = bridge();
    if (b) {
      const result = await b.saveFile({ suggestedName, url, ...(filters ? { filters } : {}) });
      return result.saved;
    }
    const a = document.createElement('a');
    a.href = url;
    a.download = suggestedName;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    return true;
  },

  /** Saves bytes the page already holds (a rendered image) as a download. */
  saveBlob(blob: Blob, suggestedName: string): void {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = suggestedName;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },

  canRevealInFolder(): boolean {
    return bridge() !== null;
  },

  async revealInFolder(path: string): Promise<void> {
    await bridge()?.revealInFolder(path);
  },

  onDroppedFiles(listener: (files: PickedFile[]) => void): () => void {
    return bridge()?.onDroppedFiles(listener) ?? (() => {});
  },

  onMenuCommand(listener: (command: MenuCommand) => void): () => void {
    return bridge()?.onMenuCommand(listener) ?? (() => {});
  },
};

export type { MenuCommand, PickedFile };
