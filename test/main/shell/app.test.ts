import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_CHANNELS } from '../../../src/shared/ipc/contract.js';
import { contentSecurityPolicy } from '../../../src/shared/ipc/csp.js';
import type { ServicesOptions } from '../../../src/main/ipc/services.js';
import { memoryServices } from '../ipc/memory-services.js';
import * as electron from './fake-electron.js';

vi.mock('electron', () => import('./fake-electron.js'));

const { runShell } = await import('../../../src/main/shell/app.js');

const paths = {
  preload: '/opt/betdesk/out/preload/index.cjs',
  rendererHtml: '/opt/betdesk/out/renderer/index.html',
  nativeBinding: '/nonexistent/better_sqlite3.node',
};

async function start() {
  const services = memoryServices();
  const options: ServicesOptions[] = [];
  const running = await runShell(async (o) => {
    options.push(o);
    return Promise.resolve(services);
  }, paths);
  return { services, options, running };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

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
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(win.loaded).toEqual({ file: paths.rendererHtml });
  });

  it('hands the services their data directory and says it runs in Electron', async () => {
    const { options } = await start();
    expect(options).toEqual([
      expect.objectContaining({ dataDir: '/tmp/betdesk-fake/userData', host: 'electron' }),
    ]);
    // No Electron-ABI better-sqlite3 was built, so none is passed on.
    expect(options[0]).not.toHaveProperty('nativeBinding');
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
    await start();
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual([...IPC_CHANNELS].sort());
    const call = electron.ipcMain.handlers.get('app:info')!;
    const ours = {
      senderFrame: { url: 'file:///opt/betdesk/out/renderer/index.html', parent: null },
    };
    await expect(Promise.resolve(call(ours, {}))).resolves.toMatchObject({
      ok: true,
      value: { mode: 'paper' },
    });
    const theirs = { senderFrame: { url: 'https://evil.example/', parent: null } };
    await expect(Promise.resolve(call(theirs, {}))).rejects.toThrow();
  });

  it('sets an application menu whose Quit stops the services', async () => {
    const { services } = await start();
    const file = electron.Menu.applicationMenu?.template.find((m) => m.label === 'File');
    const quit = file?.submenu?.find((i) => i.label === 'Quit Betdesk');
    quit?.click?.();
    await settle();
    expect(services.stopped).toBe(1);
  });

  it('puts a tray icon with open, pause sync and quit, and the sync state in its tooltip', async () => {
    const { services } = await start();
    await settle();
    const tray = electron.Tray.all[0]!;
    expect(tray.menu?.template.map((i) => i.label ?? i.type)).toEqual([
      'Open Betdesk',
      'Pause sync',
      'separator',
      'Quit Betdesk',
    ]);
    expect(tray.tooltip).toMatch(/^Betdesk \(paper\): sync up to date, last sync \S/);
    tray.menu?.template[1]?.click?.();
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

  it('shows a desktop notification when a knockout is announced', async () => {
    const { services } = await start();
    services.events.emit('alert:knockout', {
      kind: 'knocked_out',
      accountId: null,
      contractId: 'EPL-ARSCHE-0001',
      outcome: 'ARS',
      fixture: 'ARS v CHE',
      contracts: 3,
      knockout: '0.4100',
      message: 'Your boosted bet on ARS (ARS v CHE) was knocked out: 3 contracts lost.',
      at: 1,
    });
    expect(electron.Notification.shown.map((n) => n.options.title)).toEqual([
      'Knocked out: ARS in ARS v CHE',
    ]);
  });

  it('pushes the services’ events to the window', async () => {
    const { services } = await start();
    services.events.emit('orders:changed', { accountId: null, orderIds: ['0xabc'], at: 1 });
    expect(electron.BrowserWindow.all[0]!.webContents.sent).toEqual([
      { channel: 'orders:changed', payload: { accountId: null, orderIds: ['0xabc'], at: 1 } },
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

  it('explains and exits when the services cannot start', async () => {
    await expect(
      runShell(() => Promise.reject(new Error('The database is from a newer Betdesk.')), paths),
    ).rejects.toThrow('newer Betdesk');
    expect(electron.dialog.errors).toEqual([
      { title: 'Betdesk could not start', content: 'The database is from a newer Betdesk.' },
    ]);
    expect(electron.app.exitCode).toBe(1);
  });
});
