/** The application menu: standard editing and view roles, and a way to quit that stops cleanly. */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  quit(): void;
  /** Developer tools are offered only in development. */
  devTools: boolean;
}

export function appMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (actions.devTools) view.push({ type: 'separator' }, { role: 'toggleDevTools' });
  return [
    {
      label: 'File',
      submenu: [{ label: 'Quit Betdesk', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() }],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    { label: 'View', submenu: view },
    { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
  ];
}
