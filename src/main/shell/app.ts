/**
 * The thin Electron shell, start to quit: one instance, the log, one hardened window on app://,
 * the bridge, the menus, the tray, the badge, login items and alert notifications. Everything
 * else is a plain Node service created by `createServices` (the composition root); this is the
 * only place that touches electron.
 *
 * The window is made before the services (docs/desktop.md): the bridge serves it through the
 * start gate (ipc/start-gate.ts), so its start screen says what the store's opening is doing
 * (an upgrade, a rebuild) instead of a blank window.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  protocol,
  session,
  shell,
  Tray,
  type WebContents,
} from 'electron';
import { contentSecurityPolicy } from '../../shared/ipc/csp.js';
import type {
  AlertRaised,
  AlertsSummary,
  AppStatus,
  GuardsView,
  ShowRequest,
} from '../../shared/ipc/contract.js';
import { defaultDataDir } from '../data/data-dir.js';
import { registerHandlers } from '../ipc/handlers.js';
import { startGate } from '../ipc/start-gate.js';
import { earlyBridge } from '../root/early.js';
import type { CreateServices, Services } from '../root/services.js';
import { StartTracker } from '../start/index.js';
import { defaultLogsDir, openAppLog, orStderr, type AppLog } from '../log/index.js';
import { handedOverArgs, parseAppArgs, type AppArgs, type HandedOver } from './args.js';
import { UnreadBadge } from './badge.js';
import { denyPermissions, installCsp } from './csp.js';
import { aboutPanelOptions, helpActions } from './help.js';
import { iconFiles, UNREAD_DOT_DATA_URL, type IconFiles } from './icon.js';
import { ElectronIpcTransport, rendererLocation } from './ipc-electron.js';
import {
  applyingLoginItems,
  autostartFile,
  electronLoginItems,
  launchOf,
  xdgAutostart,
  type LoginItems,
} from './login-items.js';
import { appMenuTemplate } from './menu.js';
import { showNotice, trayNotice } from './notices.js';
import { AlertNotifications } from './notifications.js';
import { APP_PAGE_URL, registerAppScheme, serveAppFiles } from './protocol.js';
import { exportFileChooser } from './save-dialog.js';
import { BetdeskTray, everyAccount } from './tray.js';
import { hardenWebContents, mainWindowOptions } from './window.js';

export interface ShellPaths {
  preload: string;
  /** The built renderer (out/renderer), served on app://betdesk. */
  rendererDir: string;
  /** better-sqlite3 built for Electron (build/electron-native); passed on when it exists. */
  nativeBinding: string;
  logsDir: string;
  icons: IconFiles;
}

export function defaultPaths(): ShellPaths {
  return {
    preload: join(import.meta.dirname, '../preload/index.cjs'),
    rendererDir: join(import.meta.dirname, '../renderer'),
    nativeBinding: join(app.getAppPath(), 'build', 'electron-native', 'better_sqlite3.node'),
    logsDir: defaultLogsDir(),
    icons: iconFiles(app.getAppPath()),
  };
}

/** The process the shell runs in: its platform, arguments and environment. */
export interface ShellHost {
  platform: NodeJS.Platform;
  argv: string[];
  env: Record<string, string | undefined>;
}

const currentHost = (): ShellHost => ({
  platform: process.platform,
  argv: process.argv,
  env: process.env,
});

export interface RunningShell {
  services: Services;
  window(): BrowserWindow | null;
  tray: BetdeskTray | null;
  badge: UnreadBadge;
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

function loginItemsFor(host: ShellHost): LoginItems {
  const launch = launchOf({
    execPath: process.execPath,
    packaged: app.isPackaged,
    appPath: app.getAppPath(),
    env: host.env,
  });
  // Electron has no login items on Linux: an XDG autostart entry does the same.
  return host.platform === 'linux'
    ? xdgAutostart(autostartFile(host.env), launch)
    : electronLoginItems(app, launch, host.platform);
}

/** Returns null when another instance already runs (this one hands it its arguments and quits). */
export async function runShell(
  createServices: CreateServices,
  paths: ShellPaths = defaultPaths(),
  host: ShellHost = currentHost(),
): Promise<RunningShell | null> {
  const handOver: HandedOver = { argv: host.argv };
  if (!app.requestSingleInstanceLock(handOver)) {
    app.quit();
    return null;
  }

  let win: BrowserWindow | null = null;
  /** The windows' pages that have loaded (and so hear `app:show`). */
  const loadedPages = new WeakSet<WebContents>();
  let quitting = false;
  let stopped = false;
  // A second instance may start before the services are up: its wish waits for them (`follow`
  // is set once they are).
  let follow: ((args: AppArgs) => void) | null = null;
  let waiting: AppArgs | null = null;

  app.on('second-instance', (_event, argv, _cwd, additionalData) => {
    const args = handedOverArgs(argv, additionalData);
    if (follow) follow(args);
    else waiting = args;
  });
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal));
  // Before ready, or Electron refuses it.
  registerAppScheme(protocol);
  app.setAppLogsPath(paths.logsDir);

  await app.whenReady();

  let log: AppLog | undefined;
  try {
    log = await openAppLog({ dir: paths.logsDir, echo: !app.isPackaged });
  } catch (err) {
    // Without a log file the app still works: say so where someone may read it.
    console.error('Betdesk: the log could not be opened:', String(err));
  }
  const say = orStderr(log);
  const report = (msg: string, err: unknown) => say.error(msg, { reason: String(err) });

  const location = rendererLocation(app.isPackaged, host.env);
  const devUrl = location.devUrl;
  const csp = contentSecurityPolicy();
  serveAppFiles(protocol, { root: paths.rendererDir, csp });
  installCsp(session.defaultSession, csp);
  denyPermissions(session.defaultSession);

  const versions = {
    app: app.getVersion(),
    node: process.versions.node,
    electron: process.versions.electron ?? null,
    chrome: process.versions.chrome ?? null,
  };
  // One folder for the app, the browser host and the CLI (docs/data.md).
  const dataDir = defaultDataDir(host.platform, host.env);
  const nativeBinding = existsSync(paths.nativeBinding) ? paths.nativeBinding : undefined;
  const tracker = new StartTracker();
  const early = earlyBridge({ dataDir, ...(nativeBinding ? { nativeBinding } : {}) });
  const starting = createServices({
    dataDir,
    host: 'electron',
    ...(nativeBinding ? { nativeBinding } : {}),
    versions,
    exports: {
      kind: 'file',
      chooseFile: exportFileChooser({ dialog, folder: exportFolder, parent: () => win }),
    },
    ...(log ? { log } : {}),
    openFolder: (path) => shell.openPath(path),
    start: tracker,
  });
  // Heard below (the error box); the gate's waiting calls get it too.
  starting.catch(() => {});

  const loginItems = loginItemsFor(host);
  // The window's bridge from the first moment: the start's progress and the early reads, then
  // every call of the services.
  const gate = startGate({
    tracker,
    services: starting.then((s) => ({
      events: s.events,
      handlers: { ...s.handlers, ...applyingLoginItems(s.handlers, loginItems) },
    })),
    early: early.handlers,
  });
  const transport = new ElectronIpcTransport(
    ipcMain,
    location,
    () => BrowserWindow.getAllWindows().map((w) => w.webContents),
    (m) => say.warn(m),
  );
  const unregister = registerHandlers(transport, gate, {
    validateOutput: !app.isPackaged,
    // A bridge fault goes to the log file: the user's message says its details are there.
    log: (m) => say.error(m.replace(/^Betdesk: /, '')),
  });
  const args = parseAppArgs(host.argv);
  // What the window needs, made before it: createWindow reads them.
  const windowIcon = loadIcon(paths.icons.window);
  let tray: BetdeskTray | null = null;
  const badge = new UnreadBadge({
    app,
    window: () => win,
    overlay: nativeImage.createFromDataURL(UNREAD_DOT_DATA_URL),
    platform: host.platform,
  });
  // The window before the services, unless the start is to be hidden (asked, or maybe at login:
  // whether a login start hides is a setting of the store, known once it is open).
  if (!args.hidden && !loginItems.openedAtLogin()) win = createWindow();

  let services: Services;
  try {
    services = await starting;
  } catch (err) {
    report('the services could not start', err);
    dialog.showErrorBox(
      'Betdesk could not start',
      err instanceof Error ? err.message : 'Betdesk could not start its services.',
    );
    unregister();
    await log?.close();
    app.exit(1);
    throw err;
  }
  const { handlers } = services;

  let quitDone: Promise<void> | null = null;
  /** Every quit answers the first one's promise, which settles once the app has quit. */
  const quit = (): Promise<void> => (quitDone ??= stopAll());
  async function stopAll(): Promise<void> {
    quitting = true;
    try {
      notifications.stop();
      stopTrayUpdates();
      unregister();
      // In-flight orders are left to reconciliation: the next start checks them with the exchange.
      await services.stop();
    } catch (err) {
      report('stopping the services failed', err);
    } finally {
      stopped = true;
      tray?.destroy();
      await log?.close();
      app.quit();
    }
  }
  const requestQuit = () => void quit();

  const showWindow = () => {
    if (quitting) return;
    if (!win || win.isDestroyed()) win = createWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };

  /** Shows the window and asks the renderer for a screen (the Go menu, a clicked alert). */
  const showScreen = (request: ShowRequest) => {
    if (quitting) return;
    showWindow();
    // A window whose page has not loaded yet (made just now, or at start before the services)
    // has no page listening: ask once it has.
    if (win && !loadedPages.has(win.webContents)) {
      win.webContents.once('did-finish-load', () => transport.broadcast('app:show', request));
    } else {
      transport.broadcast('app:show', request);
    }
  };

  const help = helpActions({
    support: handlers,
    clipboard,
    notify: (options) => showNotice({ Notification }, options),
    fail: (title, message) => dialog.showErrorBox(title, message),
  });
  app.setAboutPanelOptions(aboutPanelOptions(versions, host.platform, paths.icons.window));
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      appMenuTemplate(
        {
          quit: requestQuit,
          show: showScreen,
          about: () => app.showAboutPanel(),
          openLogsFolder: () => void help.openLogsFolder(),
          copyDiagnostics: () => void help.copyDiagnostics(),
          devTools: !app.isPackaged,
        },
        host.platform,
      ),
    ),
  );

  try {
    const icons = {
      normal: loadIcon(paths.icons.tray),
      warning: loadIcon(paths.icons.trayWarning),
    };
    tray = new BetdeskTray({ Tray, Menu }, icons, {
      open: showWindow,
      showPositions: () => showScreen({ screen: 'positions' }),
      pauseSync: () => void handlers['sync:pause']({}).then(updateTray, reportTrayError),
      resumeSync: () => void handlers['sync:resume']({}).then(updateTray, reportTrayError),
      pauseGuards: () =>
        void handlers['guards:pause']({ paused: true }).then(updateGuards, reportTrayError),
      resumeGuards: () =>
        void handlers['guards:pause']({ paused: false }).then(updateGuards, reportTrayError),
      quit: requestQuit,
    });
  } catch (err) {
    // Some desktops have no tray; the app works without one.
    report('no tray icon', err);
  }
  function updateTray(status: AppStatus): void {
    tray?.update(status);
  }
  function reportTrayError(err: unknown): void {
    report('the tray action failed', err);
  }
  // A guards:changed event is newer than the view asked for at start, whichever arrives first.
  let guardsHeard = false;
  function updateGuards(view: GuardsView): void {
    guardsHeard = true;
    tray?.updateGuards(view.paused);
  }
  // An alerts event is newer than the summary asked for at start, whichever arrives first.
  let alertsHeard = false;
  function updateAlerts(summary: AlertsSummary): void {
    alertsHeard = true;
    tray?.updateAlerts(summary);
    badge.set(everyAccount(summary).unread);
  }
  const stopTrayUpdates = services.events.subscribe((event, payload) => {
    if (quitting) return;
    if (event === 'sync:status') updateTray(payload as AppStatus);
    else if (event === 'alerts:changed') updateAlerts(payload as AlertsSummary);
    else if (event === 'alert:raised') updateAlerts((payload as AlertRaised).summary);
    else if (event === 'guards:changed') updateGuards(payload as GuardsView);
  });
  handlers['status:get']({}).then(updateTray, reportTrayError);
  // The pause is global (every account's rules), so the active account's view tells it.
  handlers['guards:list']({}).then(
    (view) => {
      if (!guardsHeard) updateGuards(view);
    },
    (err: unknown) => report('the tray cannot tell whether the guardians are paused', err),
  );
  // Through a promise so that even a summary that throws at once cannot keep the shell from
  // starting: the tray just goes without it.
  Promise.resolve()
    .then(() => services.alertsSummary())
    .then(
      (summary) => {
        if (!alertsHeard) updateAlerts(summary);
      },
      (err: unknown) => report('no alerts in the tray', err),
    );

  const notifications = new AlertNotifications(services.events, { Notification }, showScreen);

  /** The first time the window goes to the tray, says where Betdesk went; never again. */
  const noticeHidden = () => {
    services.markNoticeShown('tray').then(
      (first) => {
        if (first) showNotice({ Notification }, trayNotice(host.platform));
      },
      (err: unknown) => report('the tray notice could not be remembered', err),
    );
  };

  function createWindow(): BrowserWindow {
    const created = new BrowserWindow(mainWindowOptions(paths.preload, windowIcon));
    const contents = created.webContents;
    contents.once('did-finish-load', () => loadedPages.add(contents));
    created.once('ready-to-show', () => created.show());
    created.on('close', (event) => {
      // With a tray the app keeps watching for knockouts when its window is closed.
      if (tray && !quitting) {
        event.preventDefault();
        created.hide();
        noticeHidden();
      }
    });
    created.on('closed', () => {
      if (win === created) win = null;
    });
    void created.loadURL(devUrl ?? APP_PAGE_URL);
    // The Windows overlay belongs to a window: a new one gets the current count.
    badge.show(created);
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

  const desk = await handlers['settings:get']({}).catch((err: unknown) => {
    report('the settings could not be read', err);
    return null;
  });
  // A packaged app's path can change (an AppImage moved, an update): keep the login item on it.
  if (app.isPackaged && desk?.startAtLogin) {
    loginItems.apply(desk).catch((err: unknown) => report('the login item was not renewed', err));
  }
  const atLogin = desk?.startHidden === true && loginItems.openedAtLogin();
  // Hidden only where the tray can bring it back.
  const hidden = tray !== null && (args.hidden || atLogin);
  follow = (wish) => {
    if (wish.hidden) return;
    if (wish.screen) showScreen({ screen: wish.screen });
    else showWindow();
  };
  if (!hidden) {
    if (args.screen) showScreen({ screen: args.screen });
    else if (!win || win.isDestroyed()) win = createWindow();
  }
  if (waiting) follow(waiting);
  // macOS: a click on the Dock icon brings the window back (after the start decided on it).
  app.on('activate', showWindow);
  return { services, window: () => win, tray, badge, quit };

  function loadIcon(path: string) {
    const image = nativeImage.createFromPath(path);
    if (image.isEmpty()) report('an icon is missing', path);
    return image;
  }
}
