import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/native-bridge.js';

/**
 * The application menu as data (only Electron's types are imported, so it is tested under plain
 * Node). Commands the UI carries out are sent to it as MenuCommands; the rest are Electron roles.
 */
export interface MenuActions {
  platform: NodeJS.Platform;
  /** Development builds get the DevTools toggle; packaged builds do not. */
  development: boolean;
  send(command: MenuCommand): void;
  openDataFolder(): void;
}

export function buildMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = actions.platform === 'darwin';
  const command = (
    label: string,
    menuCommand: MenuCommand,
    accelerator?: string,
  ): MenuItemConstructorOptions => ({
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => actions.send(menuCommand),
  });

  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: 'Render Desk',
          submenu: [
            { role: 'about' },
            { type: 'separator' },
            command('Settings…', 'show-settings', 'Cmd+,'),
            { type: 'separator' },
            { role: 'services' },
            { type: 'separator' },
            { role: 'hide' },
            { role: 'hideOthers' },
            { role: 'unhide' },
            { type: 'separator' },
            { role: 'quit' },
          ],
        },
      ]
    : [];

  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      command('Open Spreadsheet…', 'open-spreadsheet', 'CmdOrCtrl+O'),
      command('New Batch', 'new-batch', 'CmdOrCtrl+N'),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };

  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  };

  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      command('Catalog', 'show-catalog', 'CmdOrCtrl+1'),
      command('Batches', 'show-batches', 'CmdOrCtrl+2'),
      // On macOS Settings lives in the app menu, where people look for Cmd+,.
      ...(mac ? [] : [command('Settings', 'show-settings', 'Ctrl+,')]),
      command('Toggle Dark Theme', 'toggle-theme', 'CmdOrCtrl+Shift+D'),
      { type: 'separator' },
      { role: 'reload' },
      { role: 'forceReload' },
      ...(actions.development ? [{ role: 'toggleDevTools' } as const] : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };

  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: 'Open Data Folder', click: () => actions.openDataFolder() },
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'about' } as const]),
    ],
  };

  return [...appMenu, file, edit, view, { role: 'windowMenu' }, help];
}
