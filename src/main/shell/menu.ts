/**
 * The application menu: standard editing and view roles, a Go menu that lists the renderer's
 * keyboard shortcuts, and a way to quit that stops cleanly.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { SCREENS, type ScreenName, type ShowRequest } from '../../shared/ipc/contract.js';

export interface MenuActions {
  quit(): void;
  /** Shows the window and asks the renderer to show a screen. */
  show(request: ShowRequest): void;
  /** Developer tools are offered only in development. */
  devTools: boolean;
}

const SCREEN_LABELS: Record<ScreenName, string> = {
  markets: 'Markets',
  positions: 'Positions',
  orders: 'Orders',
  alerts: 'Alerts',
  history: 'History',
  accounts: 'Accounts',
};

/**
 * The renderer handles these keys itself (in Electron and in the browser), so the menu only shows
 * them: `registerAccelerator: false`. That flag works on Windows and Linux only; macOS always turns
 * an accelerator into a key equivalent, which for a bare `/` or `?` would swallow the character in
 * every text field (electron/electron#18295), so there the key goes into the label instead.
 * Cmd+1…5 may fire from the macOS menu as well; showing a screen twice is harmless.
 */
export function goMenuTemplate(
  show: (request: ShowRequest) => void,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
  const shown = (accelerator: string) => ({ accelerator, registerAccelerator: false });
  const bareKey = (label: string, key: string): MenuItemConstructorOptions =>
    platform === 'darwin' ? { label: `${label} (${key})` } : { label, ...shown(key) };
  return [
    ...SCREENS.map((screen, i): MenuItemConstructorOptions => ({
      label: SCREEN_LABELS[screen],
      ...shown(`CmdOrCtrl+${i + 1}`),
      click: () => show({ screen }),
    })),
    { type: 'separator' },
    { ...bareKey('Search', '/'), click: () => show({ screen: 'markets', search: true }) },
    // ShowRequest needs a screen and main does not know the current one: Markets it is.
    {
      ...bareKey('Keyboard shortcuts', '?'),
      click: () => show({ screen: 'markets', shortcuts: true }),
    },
  ];
}

export function appMenuTemplate(
  actions: MenuActions,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
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
    { label: 'Go', submenu: goMenuTemplate((request) => actions.show(request), platform) },
    { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
  ];
}
