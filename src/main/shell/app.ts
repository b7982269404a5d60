/**
 * The thin Electron shell, start to quit: one instance, one hardened window, the bridge, the
 * menu, the tray and knockout notifications. Everything else is a plain Node service created by
 * `createServices` (the composition root); this is the only place that touches electron.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  session,
  shell,
  Tray,
} from 'electron';
import { contentSecurityPolicy } from '../../shared/ipc/csp.js';
import type { AppStatus } from '../../shared/ipc/contract.js';
import { registerHandlers } from '../ipc/handlers.js';
import type { CreateServices, Services } from '../ipc/services.js';
import { denyPermissions, installCsp } from './csp.js';
import { ICON_DATA_URL } from './icon.js';
import { ElectronIpcTransport, type AppLocation } from './ipc-electron.js';
import { appMenuTemplate } from './menu.js';
import { notifyKnockouts } from './notifications.js';
import { BetdeskTray } from './tray.js';
import { hardenWebContents, mainWindowOptions } from './window.js';

export interface ShellPaths {
  preload: string;
  rendererHtml: string;
  /** better-sqlite3 built for Electron (build/electron-native); passed on when it exists. */
  nativeBinding: string;
}

export function defaultPaths(): ShellPaths {
  return {
    preload: join(import.meta.dirname, '../preload/index.cjs'),
    rendererHtml: join(import.meta.dirname, '../renderer/index.html'),
    nativeBinding: join(app.getAppPath(), 'build', 'electron-native', 'better_sqlite3.node'),
  };
}

export interface RunningShell {
  services: Services;
  window(): BrowserWindow | null;
  tray: BetdeskTray | null;
  /** Stops the services and quits; what every "Quit" runs. */
  quit(): Promise<void>;
}

const openExternal = (url: string) => shell.openExternal(url);

/** Returns null when another instance already runs (this one then quits at once). */
export async function runShell(
  createServices: CreateServices,
  paths: ShellPaths = defaultPaths(),
): Promise<RunningShell | null> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }

  let win: BrowserWindow | null = null;
  let quitting = false;
  let stopped = false;

  const showWindow = () => {
    if (!win || win.isDestroyed()) win = createWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };

  app.on('second-instance', showWindow);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal));

  await app.whenReady();

  const devUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const location: AppLocation = {
    fileUrl: pathToFileURL(paths.rendererHtml).href,
    ...(devUrl ? { devUrl } : {}),
  };
  installCsp(session.defaultSession, contentSecurityPolicy());
  denyPermissions(session.defaultSession);

  let services: Services;
  try {
    services = await createServices({
      dataDir: app.getPath('userData'),
      host: 'electron',
      ...(existsSync(paths.nativeBinding) ? { nativeBinding: paths.nativeBinding } : {}),
      versions: {
        app: app.getVersion(),
        node: process.versions.node,
        electron: process.versions.electron ?? null,
        chrome: process.versions.chrome ?? null,
      },
    });
  } catch (err) {
    dialog.showErrorBox(
      'Betdesk could not start',
      err instanceof Error ? err.message : 'Betdesk could not start its services.',
    );
    app.exit(1);
    throw err;
  }

  const transport = new ElectronIpcTransport(ipcMain, location, () =>
    BrowserWindow.getAllWindows().map((w) => w.webContents),
  );
  const unregister = registerHandlers(transport, services, { validateOutput: !app.isPackaged });

  const quit = async (): Promise<void> => {
    if (quitting) return;
    quitting = true;
    try {
      stopNotifications();
      stopTrayUpdates();
      unregister();
      await services.stop();
    } catch (err) {
      console.error('Betdesk: stopping the services failed:', String(err));
    } finally {
      stopped = true;
      tray?.destroy();
      app.quit();
    }
  };
  const requestQuit = () => void quit();

  const icon = nativeImage.createFromDataURL(ICON_DATA_URL);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(appMenuTemplate({ quit: requestQuit, devTools: !app.isPackaged })),
  );

  let tray: BetdeskTray | null = null;
  try {
    tray = new BetdeskTray({ Tray, Menu }, icon, {
      open: showWindow,
      pauseSync: () => void services.status.pauseSync().then(updateTray, reportTrayError),
      resumeSync: () => void services.status.resumeSync().then(updateTray, reportTrayError),
      quit: requestQuit,
    });
  } catch (err) {
    // Some desktops have no tray; the app works without one.
    console.error('Betdesk: no tray icon:', String(err));
  }
  function updateTray(status: AppStatus): void {
    tray?.update(status);
  }
  function reportTrayError(err: unknown): void {
    console.error('Betdesk: the tray action failed:', String(err));
  }
  const stopTrayUpdates = services.events.subscribe((event, payload) => {
    if (event === 'sync:status') updateTray(payload as AppStatus);
  });
  services.status.get().then(updateTray, reportTrayError);

  const stopNotifications = notifyKnockouts(services.events, { Notification }, showWindow);

  function createWindow(): BrowserWindow {
    const created = new BrowserWindow(mainWindowOptions(paths.preload, icon));
    created.once('ready-to-show', () => created.show());
    created.on('close', (event) => {
      // With a tray the app keeps watching for knockouts when its window is closed.
      if (tray && !quitting) {
        event.preventDefault();
        created.hide();
      }
    });
    created.on('closed', () => {
      if (win === created) win = null;
    });
    if (devUrl) void created.loadURL(devUrl);
    else void created.loadFile(paths.rendererHtml);
    return created;
  }

  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    requestQuit();
  });
  app.on('window-all-closed', () => {
    if (!tray) requestQuit();
  });

  win = createWindow();
  return { services, window: () => win, tray, quit };
}
