/**
 * The desktop app living in the tray (mocked electron): closing hides it with a one-time notice,
 * quitting ends it cleanly, the tray's menu and the badge follow the alerts, hidden starts,
 * a second instance's arguments, and the login settings reaching the OS.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNREAD_DOT_DATA_URL } from '../../../src/main/shell/icon.js';
import type { GuardsView } from '../../../src/shared/ipc/contract.js';
import { alertRaised, alertsSummary } from './alert-samples.js';
import * as electron from './fake-electron.js';
import {
  callFrom,
  PAGE,
  PAGE_HTML,
  settle,
  showRequests,
  start,
  stopShells,
  trayLabels,
} from './shell-harness.js';

vi.mock('electron', () => import('./fake-electron.js'));

beforeEach(() => {
  electron.resetFakeElectron();
  delete process.env['ELECTRON_RENDERER_URL'];
});
afterEach(() => stopShells());

const EMPTY_VIEW: GuardsView = {
  accountId: null,
  paused: false,
  pausedAt: null,
  readOnly: false,
  limits: { closes: 10, contracts: null, stake: null },
  usedToday: { closes: 0, contracts: 0, stake: '0' },
  rules: [],
  at: 0,
};
const trayItem = (label: string) =>
  electron.Tray.all[0]?.menu?.template.find((i) => i.label === label);
const notices = () => electron.Notification.shown.map((n) => n.options.title);

describe('the app:// page', () => {
  it('is registered as a privileged scheme before ready, and served from the renderer folder', async () => {
    await start();
    expect(electron.protocol.privileged).toEqual([
      expect.objectContaining({ scheme: 'app', beforeReady: true }),
    ]);
    const serve = electron.protocol.handlers.get('app')!;
    const page = await serve(new Request(PAGE));
    expect(await page.text()).toBe(PAGE_HTML);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect((await serve(new Request('app://betdesk/../../etc/passwd'))).status).toBe(404);
    expect(electron.BrowserWindow.all[0]!.loaded).toEqual({ url: PAGE });
  });
});

describe('closing the window', () => {
  it('hides it to the tray and says so the first time only', async () => {
    const { services } = await start();
    const win = electron.BrowserWindow.all[0]!;
    expect(win.userClose()).toBe(true);
    await settle();
    expect(notices()).toEqual(['Betdesk is still running']);
    expect(electron.Notification.shown[0]!.options.body).toContain('Quit from the tray menu');
    trayItem('Open Betdesk')?.click?.();
    expect(win.visible).toBe(true);
    expect(win.userClose()).toBe(true);
    await settle();
    expect(notices()).toEqual(['Betdesk is still running']);
    expect(services.stopped).toBe(0);
  });

  it('says nothing when the notice was shown in an earlier run', async () => {
    await start({ services: (s) => void s.markNoticeShown('tray') });
    electron.BrowserWindow.all[0]!.userClose();
    await settle();
    expect(notices()).toEqual([]);
  });

  it('quits where the desktop has no tray', async () => {
    electron.Tray.unavailable = true;
    const { services, running } = await start();
    expect(running?.tray).toBeNull();
    expect(electron.BrowserWindow.all[0]!.userClose()).toBe(false);
    electron.app.emit('window-all-closed');
    await settle();
    expect(services.stopped).toBe(1);
    expect(notices()).toEqual([]);
  });
});

describe('quitting', () => {
  it('from the tray stops the services, removes the tray and closes the log, then quits', async () => {
    const { services, dir } = await start();
    trayItem('Quit Betdesk')?.click?.();
    await settle();
    await vi.waitFor(() => expect(electron.app.quitCalls).toBe(1));
    expect(services.stopped).toBe(1);
    expect(electron.Tray.all[0]!.destroyed).toBe(true);
    expect(electron.ipcMain.handlers.size).toBe(0);
    const logs = readdirSync(join(dir, 'logs')).filter((f) => f.endsWith('.log'));
    expect(logs).toHaveLength(1);
  });
});

describe('the tray menu in the app', () => {
  it('counts the positions near knockout and opens the positions screen', async () => {
    await start({ summary: Promise.resolve(alertsSummary({ nearKnockout: 2 })) });
    await settle();
    const win = electron.BrowserWindow.all[0]!;
    win.userClose();
    expect(trayLabels(electron.Tray.all[0]!)).toContain('2 positions near knockout');
    trayItem('2 positions near knockout')?.click?.();
    expect(win.visible).toBe(true);
    expect(showRequests(win)).toEqual([{ screen: 'positions' }]);
  });

  it('pauses and then resumes sync', async () => {
    const { services } = await start();
    await settle();
    trayItem('Pause sync')?.click?.();
    await settle();
    trayItem('Resume sync')?.click?.();
    await settle();
    expect(services.calls.map((c) => c.method)).toEqual(
      expect.arrayContaining(['status.pauseSync', 'status.resumeSync']),
    );
    expect(trayItem('Pause sync')).toBeDefined();
  });

  it('starts showing the guardians paused when they were left paused', async () => {
    const { services } = await start({
      services: (s) => s.answerNext('guards.list', { ...EMPTY_VIEW, paused: true, pausedAt: 1 }),
    });
    await settle();
    expect(services.calls.map((c) => c.method)).toContain('guards.list');
    expect(trayItem('Resume guardians')).toBeDefined();
    expect(electron.Tray.all[0]!.tooltip).toMatch(/\. Guardians paused$/);
  });

  it('pauses and resumes the guardians, and follows a pause made elsewhere', async () => {
    const { services } = await start();
    await settle();
    trayItem('Pause guardians')?.click?.();
    await settle();
    expect(services.calls).toContainEqual(
      expect.objectContaining({ method: 'guards.pause', input: { paused: true } }),
    );
    expect(electron.Tray.all[0]!.tooltip).toMatch(/\. Guardians paused$/);
    trayItem('Resume guardians')?.click?.();
    await settle();
    expect(trayItem('Pause guardians')).toBeDefined();
    expect(electron.Tray.all[0]!.tooltip).not.toContain('Guardians');
    // The Guardians screen (or the CLI, seen by the guardian) paused them: guards:changed.
    services.events.emit('guards:changed', { ...EMPTY_VIEW, paused: true });
    expect(trayItem('Resume guardians')).toBeDefined();
  });
});

describe('the unread badge in the app', () => {
  it('shows the unread alerts on Linux and macOS, and clears at 0', async () => {
    const { services } = await start({ summary: Promise.resolve(alertsSummary({ unread: 3 })) });
    await settle();
    expect(electron.app.badgeCounts.at(-1)).toBe(3);
    services.events.emit(
      'alert:raised',
      alertRaised('filled', false, alertsSummary({ unread: 4 })),
    );
    expect(electron.app.badgeCounts.at(-1)).toBe(4);
    services.events.emit('alerts:changed', alertsSummary({ unread: 0 }));
    expect(electron.app.badgeCounts.at(-1)).toBe(0);
  });

  it('puts the red dot on the Windows taskbar button instead', async () => {
    const { services } = await start({ platform: 'win32' });
    await settle();
    const win = electron.BrowserWindow.all[0]!;
    services.events.emit('alerts:changed', alertsSummary({ unread: 2 }));
    expect(win.overlays.at(-1)).toEqual({
      image: { dataUrl: UNREAD_DOT_DATA_URL },
      description: '2 unread alerts',
    });
    services.events.emit('alerts:changed', alertsSummary({ unread: 0 }));
    expect(win.overlays.at(-1)).toEqual({ image: null, description: '' });
    expect(electron.app.badgeCounts).toEqual([]);
  });
});

describe('a hidden start', () => {
  it('with --hidden shows only the tray; the tray brings the window', async () => {
    const { running } = await start({ argv: ['betdesk', '--hidden'] });
    expect(electron.BrowserWindow.all).toEqual([]);
    expect(running?.window()).toBeNull();
    expect(electron.Tray.all).toHaveLength(1);
    trayItem('Open Betdesk')?.click?.();
    expect(electron.BrowserWindow.all).toHaveLength(1);
    expect(electron.BrowserWindow.all[0]).toMatchObject({ visible: true, loaded: { url: PAGE } });
  });

  it('shows the window anyway where there is no tray to bring it back', async () => {
    electron.Tray.unavailable = true;
    await start({ argv: ['betdesk', '--hidden'] });
    expect(electron.BrowserWindow.all).toHaveLength(1);
  });

  it('on macOS follows the setting when the system started Betdesk at login', async () => {
    electron.app.wasOpenedAtLogin = true;
    await start({
      platform: 'darwin',
      services: (s) => void s.handlers['settings:set']({ startAtLogin: true, startHidden: true }),
    });
    expect(electron.BrowserWindow.all).toEqual([]);
    // A click on the Dock icon.
    electron.app.emit('activate');
    expect(electron.BrowserWindow.all[0]).toMatchObject({ visible: true });
  });

  it('on macOS shows the window at login when the setting says so', async () => {
    electron.app.wasOpenedAtLogin = true;
    await start({
      platform: 'darwin',
      services: (s) => void s.handlers['settings:set']({ startAtLogin: true, startHidden: false }),
    });
    expect(electron.BrowserWindow.all).toHaveLength(1);
  });
});

describe('the arguments', () => {
  it('--screen opens the first window on that screen once its page has loaded', async () => {
    // The window opens before the services; its page is still loading when they are up.
    electron.BrowserWindow.holdLoads = true;
    await start({ argv: ['betdesk', '--screen', 'orders'] });
    const win = electron.BrowserWindow.all[0]!;
    expect(showRequests(win)).toEqual([]);
    win.webContents.emit('did-finish-load');
    expect(showRequests(win)).toEqual([{ screen: 'orders' }]);
  });

  it('are handed over to the first instance, which shows the screen they name', async () => {
    await start({ argv: ['betdesk', '--screen=alerts'] });
    expect(electron.app.handedOver).toEqual({ argv: ['betdesk', '--screen=alerts'] });
    const win = electron.BrowserWindow.all[0]!;
    win.webContents.emit('did-finish-load');
    win.userClose();
    const handedOver = { argv: ['betdesk', '--screen', 'history'] };
    electron.app.emit('second-instance', {}, ['betdesk', '--foo'], '/home/me', handedOver);
    expect(win.visible).toBe(true);
    expect(showRequests(win)).toEqual([{ screen: 'alerts' }, { screen: 'history' }]);
  });

  it('of a second instance started with --hidden leave the window where it is', async () => {
    await start();
    const win = electron.BrowserWindow.all[0]!;
    win.userClose();
    electron.app.emit('second-instance', {}, ['betdesk', '--hidden'], '/home/me', undefined);
    expect(win.visible).toBe(false);
  });

  it('of a second instance that starts while the services start are followed once they are up', async () => {
    await start({
      argv: ['betdesk', '--hidden'],
      whileStarting: () =>
        electron.app.emit('second-instance', {}, ['betdesk', '--screen', 'positions'], '/', null),
    });
    expect(electron.BrowserWindow.all).toHaveLength(1);
    const win = electron.BrowserWindow.all[0]!;
    expect(win.visible).toBe(true);
    win.webContents.emit('did-finish-load');
    expect(showRequests(win)).toEqual([{ screen: 'positions' }]);
  });
});

describe('the login settings', () => {
  it('on Linux write the autostart entry, with --hidden when asked, and remove it', async () => {
    const { dir } = await start();
    const file = join(dir, 'config', 'autostart', 'betdesk.desktop');
    const set = (change: object) => callFrom(PAGE, 'settings:set', change);
    expect(await set({ startAtLogin: true, startHidden: true })).toMatchObject({
      ok: true,
      value: { startAtLogin: true, startHidden: true },
    });
    // In development Electron starts the app from its folder.
    expect(readFileSync(file, 'utf8')).toContain(
      `Exec=${process.execPath} /tmp/betdesk-fake/app --hidden\n`,
    );
    await set({ startAtLogin: false });
    expect(existsSync(file)).toBe(false);
  });

  it('on Windows register the login item with --hidden', async () => {
    await start({ platform: 'win32' });
    await callFrom(PAGE, 'settings:set', { startAtLogin: true, startHidden: true });
    expect(electron.app.loginItems).toEqual([
      { openAtLogin: true, path: process.execPath, args: ['/tmp/betdesk-fake/app', '--hidden'] },
    ]);
  });

  it('are renewed at start in a packaged app, so the login item follows the app', async () => {
    electron.app.isPackaged = true;
    await start({
      platform: 'win32',
      services: (s) => void s.handlers['settings:set']({ startAtLogin: true, startHidden: false }),
    });
    await settle();
    expect(electron.app.loginItems).toEqual([
      { openAtLogin: true, path: process.execPath, args: [] },
    ]);
  });

  it('leave the OS alone at start in development', async () => {
    await start({
      platform: 'win32',
      services: (s) => void s.handlers['settings:set']({ startAtLogin: true, startHidden: false }),
    });
    await settle();
    expect(electron.app.loginItems).toEqual([]);
  });
});
