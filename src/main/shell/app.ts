/**
 * The thin Electron shell, start to quit: one instance, one hardened window, the bridge, the
 * menu, the tray and alert notifications. Everything else is a plain Node service created by
 * `createServices` (the composition root); this is the only place that touches electron.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
import type {
  AlertRaised,
  AlertsSummary,
  AppStatus,
  ShowRequest,
} from '../../shared/ipc/contract.js';
import { registerHandlers } from '../ipc/handlers.js';
import type { CreateServices, Services } from '../ipc/services.js';
import { denyPermissions, installCsp } from './csp.js';
import { ICON_DATA_URL, WARNING_ICON_DATA_URL } from './icon.js';
import { ElectronIpcTransport, rendererLocation } from './ipc-electron.js';
import { appMenuTemplate } from './menu.js';
import { AlertNotifications } from './notifications.js';
import { exportFileChooser } from './save-dialog.js';
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

/** Downloads, where people look for a file they just saved; home when the system has none. */
function exportFolder(): string {
  try {
    return app.getPath('downloads');
  } catch {
    return app.getPath('home');
  }
}

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

  const location = rendererLocation(paths.rendererHtml, app.isPackaged, process.env);
  const devUrl = location.devUrl;
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
      exports: {
        kind: 'file',
        chooseFile: exportFileChooser({ dialog, folder: exportFolder, parent: () => win }),
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
      notifications.stop();
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

  /** Shows the window and asks the renderer for a screen (the Go menu, a clicked alert). */
  const showScreen = (request: ShowRequest) => {
    if (quitting) return;
    const fresh = !win || win.isDestroyed();
    showWindow();
    // A window made just now has no page listening yet: ask once its page has loaded.
    if (fresh && win) {
      win.webContents.once('did-finish-load', () => transport.broadcast('app:show', request));
    } else {
      transport.broadcast('app:show', request);
    }
  };

  const icon = nativeImage.createFromDataURL(ICON_DATA_URL);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate({ quit: requestQuit, show: showScreen, devTools: !app.isPackaged }),
    ),
  );

  let tray: BetdeskTray | null = null;
  try {
    const icons = { normal: icon, warning: nativeImage.createFromDataURL(WARNING_ICON_DATA_URL) };
    tray = new BetdeskTray({ Tray, Menu }, icons, {
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
  // An alerts event is newer than the summary asked for at start, whichever arrives first.
  let alertsHeard = false;
  function updateAlerts(summary: AlertsSummary): void {
    alertsHeard = true;
    tray?.updateAlerts(summary);
  }
  const stopTrayUpdates = services.events.subscribe((event, payload) => {
    if (event === 'sync:status') updateTray(payload as AppStatus);
    else if (event === 'alerts:changed') updateAlerts(payload as AlertsSummary);
    else if (event === 'alert:raised') updateAlerts((payload as AlertRaised).summary);
  });
  services.status.get().then(updateTray, reportTrayError);
  // Through a promise so that even a summary that throws at once cannot keep the shell from
  // starting: the tray just goes without it.
  Promise.resolve()
    .then(() => services.alerts.summary())
    .then(
      (summary) => {
        if (!alertsHeard) updateAlerts(summary);
      },
      (err: unknown) => console.error('Betdesk: no alerts in the tray:', String(err)),
    );

  const notifications = new AlertNotifications(services.events, { Notification }, showScreen);

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
