import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS, type AlertsSummary } from '../../../src/shared/ipc/contract.js';
import { contentSecurityPolicy } from '../../../src/shared/ipc/csp.js';
import { alertRaised, alertsSummary } from './alert-samples.js';
import * as electron from './fake-electron.js';
import {
  callFrom,
  menuItem,
  menuRoles,
  NORMAL_ICON,
  PAGE,
  settle,
  shellPaths,
  showRequests,
  start,
  stopShells,
  trayLabels,
  WARNING_ICON,
} from './shell-harness.js';

vi.mock('electron', () => import('./fake-electron.js'));

const { runShell } = await import('../../../src/main/shell/app.js');

afterEach(() => stopShells());

describe('the Electron shell', () => {
  beforeEach(() => {
    electron.resetFakeElectron();
    delete process.env['ELECTRON_RENDERER_URL'];
  });

  it('quits at once when another instance already runs', async () => {
    electron.app.lockGranted = false;
    const { running, options } = await start();
    expect(running).toBeNull();
    expect(electron.app.quitCalls).toBe(1);
    expect(options).toEqual([]);
    expect(electron.BrowserWindow.all).toEqual([]);
  });

  it('opens one isolated, sandboxed window on the built page', async () => {
    await start();
    expect(electron.BrowserWindow.all).toHaveLength(1);
    const win = electron.BrowserWindow.all[0]!;
    expect(win.options['webPreferences']).toMatchObject({
      preload: '/opt/betdesk/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(win.loaded).toEqual({ url: PAGE });
  });

  it('hands the services their data directory and says it runs in Electron', async () => {
    const { options, dir } = await start();
    // The data folder the browser host and the CLI use too ($XDG_DATA_HOME/betdesk on Linux),
    // not Electron's userData.
    expect(options).toEqual([
      expect.objectContaining({ dataDir: join(dir, 'data', 'betdesk'), host: 'electron' }),
    ]);
    // No Electron-ABI better-sqlite3 was built, so none is passed on.
    expect(options[0]).not.toHaveProperty('nativeBinding');
  });

  it('saves exports where the native save dialog says, attached to its window', async () => {
    const { options } = await start();
    const destination = options[0]?.exports;
    if (destination?.kind !== 'file') throw new Error('the shell gave no save dialog');
    electron.dialog.nextSave = '/home/me/history.csv';
    expect(await destination.chooseFile('betdesk-settlements-2025-01-31.csv')).toBe(
      '/home/me/history.csv',
    );
    expect(electron.dialog.saves).toEqual([
      {
        parent: electron.BrowserWindow.all[0],
        options: expect.objectContaining({
          defaultPath: '/tmp/betdesk-fake/downloads/betdesk-settlements-2025-01-31.csv',
          filters: [{ name: 'CSV (comma-separated values)', extensions: ['csv'] }],
        }) as unknown,
      },
    ]);
    // The user closed it.
    electron.dialog.nextSave = null;
    expect(await destination.chooseFile('betdesk-orders-2025-01-31.csv')).toBeNull();
  });

  it('sets the strict CSP header on the default session', async () => {
    await start();
    let headers: Record<string, string[]> | undefined;
    electron.session.defaultSession.headersListener?.({ responseHeaders: {} }, (r) => {
      headers = r.responseHeaders;
    });
    expect(headers).toEqual({ 'Content-Security-Policy': [contentSecurityPolicy()] });
  });

  it('blocks navigation and window.open in the window it creates', async () => {
    await start();
    const contents = electron.BrowserWindow.all[0]!.webContents;
    expect(contents.navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.windowOpenHandler?.({ url: 'https://example.com/' })).toEqual({
      action: 'deny',
    });
    expect(electron.shell.opened).toEqual(['https://example.com/']);
  });

  it('answers every channel of the contract, and only for its own page', async () => {
    const { services } = await start();
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    const call = electron.ipcMain.handlers.get('app:info')!;
    const ours = {
      senderFrame: { url: PAGE, parent: null },
    };
    const before = services.calls.length;
    await Promise.resolve(call(ours, {}));
    expect(services.calls.slice(before).map((c) => c.method)).toEqual(['app.info']);
    const theirs = { senderFrame: { url: 'https://evil.example/', parent: null } };
    await expect(Promise.resolve(call(theirs, {}))).rejects.toThrow();
    expect(services.calls.slice(before).map((c) => c.method)).toEqual(['app.info']);
  });

  it('sets an application menu whose Quit stops the services', async () => {
    const { services } = await start();
    menuItem('File', 'Quit Betdesk')?.click?.();
    await settle();
    expect(services.stopped).toBe(1);
  });

  it('puts a tray icon with open, pause sync, pause guardians and quit, and the sync state in its tooltip', async () => {
    const { services } = await start();
    await settle();
    const tray = electron.Tray.all[0]!;
    expect(trayLabels(tray)).toEqual([
      'Open Betdesk',
      'separator',
      'Pause sync',
      'Pause guardians',
      'separator',
      'Quit Betdesk',
    ]);
    expect(tray.tooltip).toMatch(/^Betdesk \(paper\): sync up to date, last sync \S/);
    tray.menu?.template.find((i) => i.label === 'Pause sync')?.click?.();
    await settle();
    expect(services.calls.map((c) => c.method)).toContain('status.pauseSync');
    expect(tray.tooltip).toMatch(/^Betdesk \(paper\): sync paused/);
    services.events.emit('sync:status', {
      mode: 'paper',
      online: false,
      sync: { state: 'offline', lastSyncAt: null, message: null },
      clockOffsetMs: null,
      rateBudget: [],
    });
    expect(tray.tooltip).toBe('Betdesk (paper): sync offline, exchange unreachable');
  });

  it('shows a desktop notification for a raised alert only when its settings want one', async () => {
    const { services } = await start();
    services.events.emit('alert:raised', alertRaised('knocked_out', true));
    services.events.emit('alert:raised', alertRaised('filled', false));
    expect(electron.Notification.shown.map((n) => n.options)).toEqual([
      {
        title: 'Knocked out: ARS in ARS v CHE (Paper)',
        body: alertRaised('knocked_out').alert.message,
        urgency: 'critical',
      },
    ]);
  });

  it('brings the hidden window back on the position when its notification is clicked', async () => {
    const { services } = await start();
    const win = electron.BrowserWindow.all[0]!;
    win.userClose();
    services.events.emit('alert:raised', alertRaised('near'));
    expect(win.visible).toBe(false);
    electron.Notification.shown[0]!.emit('click');
    expect(win.visible).toBe(true);
    expect(showRequests(win)).toEqual([
      { screen: 'positions', contractId: 'EPL-ARSCHE-0001', outcome: 'ARS' },
    ]);
  });

  it('shows the orders when a fill’s notification is clicked', async () => {
    const { services } = await start();
    services.events.emit('alert:raised', alertRaised('filled'));
    electron.Notification.shown[0]!.emit('click');
    expect(showRequests(electron.BrowserWindow.all[0]!)).toEqual([{ screen: 'orders' }]);
  });

  it('asks a window it had to open anew for the screen only once its page has loaded', async () => {
    const { services } = await start();
    electron.BrowserWindow.all[0]!.destroy();
    services.events.emit('alert:raised', alertRaised('knocked_out'));
    electron.Notification.shown[0]!.emit('click');
    expect(electron.BrowserWindow.all).toHaveLength(2);
    const fresh = electron.BrowserWindow.all[1]!;
    expect(showRequests(fresh)).toEqual([]);
    fresh.webContents.emit('did-finish-load');
    expect(showRequests(fresh)).toEqual([
      { screen: 'positions', contractId: 'EPL-ARSCHE-0001', outcome: 'ARS' },
    ]);
  });

  it('has a Go menu whose screens show the window and ask the renderer for the screen', async () => {
    await start();
    const win = electron.BrowserWindow.all[0]!;
    win.userClose();
    expect(menuItem('Go', 'Orders')).toMatchObject({
      accelerator: 'CmdOrCtrl+4',
      registerAccelerator: false,
    });
    menuItem('Go', 'Orders')?.click?.();
    expect(win.visible).toBe(true);
    expect(showRequests(win)).toEqual([{ screen: 'orders' }]);
  });

  it('starts the tray from the alerts summary: near positions and the warning icon', async () => {
    await start({
      summary: Promise.resolve(alertsSummary({ unread: 1, unreadDanger: 1, nearKnockout: 2 })),
    });
    await settle();
    const tray = electron.Tray.all[0]!;
    expect(tray.tooltip).toMatch(
      /^Betdesk \(paper\): sync up to date, .*\. 2 positions near their knockout$/,
    );
    expect(tray.image).toEqual(WARNING_ICON);
  });

  it('follows the alerts: warning while a danger alert is unread, normal once it is read', async () => {
    const { services } = await start();
    await settle();
    const tray = electron.Tray.all[0]!;
    expect(tray.image).toEqual(NORMAL_ICON);
    services.events.emit(
      'alert:raised',
      alertRaised('near', false, alertsSummary({ unread: 1, unreadDanger: 1, nearKnockout: 1 })),
    );
    expect(tray.image).toEqual(WARNING_ICON);
    expect(tray.tooltip).toMatch(/\. 1 position near its knockout$/);
    services.events.emit('alerts:changed', alertsSummary({ unread: 0, nearKnockout: 1 }));
    expect(tray.image).toEqual(NORMAL_ICON);
    services.events.emit('alerts:changed', alertsSummary());
    expect(tray.tooltip).not.toMatch(/knockout/);
  });

  it('lets an alerts event win over a start-up summary that answers later', async () => {
    let answer: (summary: AlertsSummary) => void = () => {};
    const { services } = await start({ summary: new Promise((resolve) => (answer = resolve)) });
    services.events.emit('alerts:changed', alertsSummary({ unreadDanger: 1, nearKnockout: 4 }));
    answer(alertsSummary());
    await settle();
    const tray = electron.Tray.all[0]!;
    expect(tray.image).toEqual(WARNING_ICON);
    expect(tray.tooltip).toMatch(/4 positions near their knockout$/);
  });

  it('starts without the alerts in the tray when the summary fails', async () => {
    const failing = Promise.reject(new Error('The store is busy.'));
    // Handled by the shell once it asks; this only keeps Node from calling it unhandled before.
    failing.catch(() => {});
    const { running } = await start({ summary: failing });
    await settle();
    expect(running).not.toBeNull();
    expect(electron.Tray.all[0]!.image).toEqual(NORMAL_ICON);
  });

  it('pushes the services’ events to the window', async () => {
    const { services } = await start();
    const changed = { accountId: null, orderIds: ['0xabc'], rows: [], more: false, at: 1 };
    const raised = alertRaised('near');
    services.events.emit('orders:changed', changed);
    services.events.emit('alert:raised', raised);
    expect(electron.BrowserWindow.all[0]!.webContents.sent).toEqual([
      { channel: 'orders:changed', payload: changed },
      { channel: 'alert:raised', payload: raised },
    ]);
  });

  it('keeps running in the tray when the window is closed', async () => {
    const { services } = await start();
    const win = electron.BrowserWindow.all[0]!;
    expect(win.userClose()).toBe(true);
    expect(win.hidden).toBe(1);
    expect(services.stopped).toBe(0);
  });

  it('stops the services exactly once and then quits, however quitting starts', async () => {
    const { services } = await start();
    electron.app.quit();
    electron.app.quit();
    await settle();
    expect(services.stopped).toBe(1);
    expect(electron.Tray.all[0]!.destroyed).toBe(true);
    // The shell let the last quit through once the services had stopped.
    expect(electron.ipcMain.handlers.size).toBe(0);
  });

  it('stops notifying and following alerts once it has quit', async () => {
    const { services } = await start();
    await settle();
    electron.app.quit();
    await settle();
    const tray = electron.Tray.all[0]!;
    const tooltip = tray.tooltip;
    services.events.emit(
      'alert:raised',
      alertRaised('knocked_out', true, alertsSummary({ unreadDanger: 1, nearKnockout: 1 })),
    );
    expect(electron.Notification.shown).toEqual([]);
    expect(tray.images).toEqual([NORMAL_ICON]);
    expect(tray.tooltip).toBe(tooltip);
  });

  it('explains and exits when the services cannot start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'betdesk-shell-'));
    await expect(
      runShell(
        () => Promise.reject(new Error('The database is from a newer Betdesk.')),
        shellPaths(dir),
        { platform: 'linux', argv: [], env: {} },
      ),
    ).rejects.toThrow('newer Betdesk');
    rmSync(dir, { recursive: true, force: true });
    expect(electron.dialog.errors).toEqual([
      { title: 'Betdesk could not start', content: 'The database is from a newer Betdesk.' },
    ]);
    expect(electron.app.exitCode).toBe(1);
  });
});

/** Calls `app:info` as a frame at `url` would; resolves to whether the shell answered. */
async function answered(url: string): Promise<boolean> {
  return callFrom(url, 'app:info').then(
    () => true,
    () => false,
  );
}

describe('the Electron shell: one instance, its page and its permissions', () => {
  beforeEach(() => {
    electron.resetFakeElectron();
    delete process.env['ELECTRON_RENDERER_URL'];
  });

  it('brings its window back, restored and focused, when a second instance starts', async () => {
    await start();
    const win = electron.BrowserWindow.all[0]!;
    win.userClose();
    win.minimize();
    electron.app.emit('second-instance', {}, ['betdesk'], '/home/me');
    expect(win).toMatchObject({ visible: true, minimized: false, focused: 1 });
    expect(electron.BrowserWindow.all).toHaveLength(1);
  });

  it('opens a window anew for a second instance when the old one is gone', async () => {
    await start();
    electron.BrowserWindow.all[0]!.destroy();
    electron.app.emit('second-instance', {}, ['betdesk'], '/home/me');
    expect(electron.BrowserWindow.all).toHaveLength(2);
    expect(electron.BrowserWindow.all[1]).toMatchObject({ visible: true, focused: 1 });
    expect(electron.BrowserWindow.all[1]!.loaded).toEqual({ url: PAGE });
  });

  it('loads the dev server in development and answers its page', async () => {
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173/';
    await start();
    expect(electron.BrowserWindow.all[0]!.loaded).toEqual({ url: 'http://localhost:5173/' });
    expect(await answered('http://localhost:5173/')).toBe(true);
    expect(menuRoles()).toContain('toggleDevTools');
  });

  it('never loads ELECTRON_RENDERER_URL once packaged, nor answers a page from there', async () => {
    electron.app.isPackaged = true;
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173/';
    await start();
    expect(electron.BrowserWindow.all[0]!.loaded).toEqual({ url: PAGE });
    expect(await answered('http://localhost:5173/')).toBe(false);
    expect(await answered(PAGE)).toBe(true);
    expect(await answered('file:///opt/betdesk/out/renderer/index.html')).toBe(false);
    expect(menuRoles()).not.toContain('toggleDevTools');
  });

  it('refuses every permission a page asks for, from before its window exists', async () => {
    await start();
    const session = electron.session.defaultSession;
    const answers: boolean[] = [];
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read']) {
      session.permissionRequest?.({}, permission, (ok) => answers.push(ok));
    }
    expect(answers).toEqual([false, false, false, false]);
    expect(session.permissionCheck?.()).toBe(false);
    expect(electron.BrowserWindow.all[0]!.permissionsDenied).toBe(true);
  });
});

describe('the Electron shell: Help, About and the log', () => {
  beforeEach(() => {
    electron.resetFakeElectron();
    delete process.env['ELECTRON_RENDERER_URL'];
  });

  it('copies the diagnostics of the support service to the clipboard and says so', async () => {
    const { services } = await start();
    menuItem('Help', 'Copy diagnostics')?.click?.();
    await vi.waitFor(() => expect(electron.clipboard.text).toBe('Betdesk diagnostics\n'));
    expect(services.calls.map((c) => c.method)).toContain('support.diagnostics');
    expect(electron.Notification.shown.map((n) => n.options.title)).toEqual(['Diagnostics copied']);
  });

  it('opens the logs folder through the support service', async () => {
    const { services } = await start();
    menuItem('Help', 'Open logs folder')?.click?.();
    await settle();
    expect(services.calls.map((c) => c.method)).toContain('support.openLogs');
    expect(electron.dialog.errors).toEqual([]);
  });

  it('shows the About panel with the app, Electron, Chrome and Node versions', async () => {
    await start();
    menuItem('Help', 'About Betdesk')?.click?.();
    expect(electron.app.aboutShown).toBe(1);
    expect(electron.app.aboutOptions).toMatchObject({
      applicationName: 'Betdesk',
      applicationVersion: `0.1.0 (Electron -, Chrome -, Node ${process.versions.node})`,
    });
  });

  it('keeps its log in the logs folder it names to Electron, and hands it to the services', async () => {
    const { options, dir } = await start();
    expect(electron.app.logsPath).toBe(join(dir, 'logs'));
    expect(options[0]?.log?.dir).toBe(join(dir, 'logs'));
    expect(await options[0]?.openFolder?.('/home/me/logs')).toBe('');
    expect(electron.shell.openedPaths).toEqual(['/home/me/logs']);
  });

  it('writes what went wrong to its log instead of the console', async () => {
    const failing = Promise.reject(new Error('The store is busy.'));
    failing.catch(() => {});
    const { running, dir } = await start({ summary: failing });
    await settle();
    await running?.quit();
    const logs = readdirSync(join(dir, 'logs')).map((f) =>
      readFileSync(join(dir, 'logs', f), 'utf8'),
    );
    expect(logs.join('')).toContain('no alerts in the tray');
  });
});
