/**
 * The application menu: the standard roles of each OS (the macOS app menu with About, Services,
 * Hide and Quit; Edit, View and Window), a Go menu with the screens' keyboard shortcuts, a Quit
 * that stops cleanly, and Help: the shortcuts, the logs folder, diagnostics, About.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { ShowRequest } from '../../shared/ipc/contract.js';
import { SCREENS, SCREEN_LABELS } from '../../shared/screens.js';

export interface MenuActions {
  quit(): void;
  /** Shows the window and asks the renderer to show a screen. */
  show(request: ShowRequest): void;
  /** The About panel with the versions. */
  about(): void;
  openLogsFolder(): void;
  /** Puts the diagnostics on the clipboard. */
  copyDiagnostics(): void;
  /** Developer tools are offered only in development. */
  devTools: boolean;
}

/**
 * The renderer handles these keys itself (in Electron and in the browser), so the menu only shows
 * them: `registerAccelerator: false`. That flag works on Windows and Linux only; macOS always turns
 * an accelerator into a key equivalent, which for a bare `/` or `?` would swallow the character in
 * every text field (electron/electron#18295), so there the key goes into the label instead.
 * Cmd+1…7 may fire from the macOS menu as well; showing a screen twice is harmless.
 */
const shown = (accelerator: string) => ({ accelerator, registerAccelerator: false });

function bareKey(
  label: string,
  key: string,
  platform: NodeJS.Platform,
): MenuItemConstructorOptions {
  return platform === 'darwin' ? { label: `${label} (${key})` } : { label, ...shown(key) };
}

export function goMenuTemplate(
  show: (request: ShowRequest) => void,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
  return [
    ...SCREENS.map((screen, i): MenuItemConstructorOptions => ({
      label: SCREEN_LABELS[screen],
      ...shown(`CmdOrCtrl+${i + 1}`),
      click: () => show({ screen }),
    })),
    { type: 'separator' },
    { ...bareKey('Search', '/', platform), click: () => show({ screen: 'markets', search: true }) },
  ];
}

/**
 * The whole menu bar. In Help, the shortcuts overlay opens over Markets: ShowRequest needs a
 * screen and main does not know the current one.
 */
export function appMenuTemplate(
  actions: MenuActions,
  platform: NodeJS.Platform = process.platform,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (actions.devTools) view.push({ type: 'separator' }, { role: 'toggleDevTools' });
  const quit: MenuItemConstructorOptions = {
    label: 'Quit Betdesk',
    accelerator: 'CmdOrCtrl+Q',
    click: () => actions.quit(),
  };
  const about: MenuItemConstructorOptions = {
    label: 'About Betdesk',
    click: () => actions.about(),
  };
  return [
    // macOS: the app menu, named after the app by the system, where About and Quit live there.
    ...(mac
      ? [
          {
            label: 'Betdesk',
            submenu: [
              about,
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              quit,
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : quit] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
        { role: 'delete' },
        { role: 'selectAll' },
      ],
    },
    { label: 'View', submenu: view },
    { label: 'Go', submenu: goMenuTemplate((request) => actions.show(request), platform) },
    {
      label: 'Window',
      submenu: mac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      // The help role gives macOS its menu search field.
      role: 'help',
      label: 'Help',
      submenu: [
        {
          ...bareKey('Keyboard shortcuts', '?', platform),
          click: () => actions.show({ screen: 'markets', shortcuts: true }),
        },
        { type: 'separator' },
        { label: 'Open logs folder', click: () => actions.openLogsFolder() },
        { label: 'Copy diagnostics', click: () => actions.copyDiagnostics() },
        ...(mac ? [] : [{ type: 'separator' } as const, about]),
      ],
    },
  ];
}
