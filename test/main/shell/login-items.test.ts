import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeskSettings } from '../../../src/shared/ipc/contract.js';
import { Refusal } from '../../../src/main/refusal.js';
import {
  applyingLoginItems,
  autostartFile,
  desktopExec,
  electronLoginItems,
  launchOf,
  xdgAutostart,
  type LoginItems,
  type StartupSettings,
} from '../../../src/main/shell/login-items.js';
import { tempDir } from '../../harness/temp.js';
import { app as fakeApp, resetFakeElectron } from './fake-electron.js';

const launch = { command: 'C:\\Program Files\\Betdesk\\Betdesk.exe', args: [] };
const loginApp = fakeApp as unknown as Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>;

describe('what starts Betdesk at login', () => {
  it('is the installed executable once packaged', () => {
    const opts = { execPath: '/opt/Betdesk/betdesk', packaged: true, appPath: '/x', env: {} };
    expect(launchOf(opts)).toEqual({ command: '/opt/Betdesk/betdesk', args: [] });
  });

  it('is the AppImage file, not its short-lived mount, when run from one', () => {
    const opts = {
      execPath: '/tmp/.mount_BetdeXYZ/betdesk',
      packaged: true,
      appPath: '/tmp/.mount_BetdeXYZ/resources/app.asar',
      env: { APPIMAGE: '/home/me/Apps/Betdesk-0.1.0.AppImage' },
    };
    expect(launchOf(opts).command).toBe('/home/me/Apps/Betdesk-0.1.0.AppImage');
  });

  it('is Electron with the app folder in development', () => {
    const opts = { execPath: '/w/electron', packaged: false, appPath: '/w/betdesk', env: {} };
    expect(launchOf(opts)).toEqual({ command: '/w/electron', args: ['/w/betdesk'] });
  });
});

describe('login items on Windows', () => {
  beforeEach(() => resetFakeElectron());

  it('register the executable, with --hidden when asked, and remove it when off', async () => {
    const items = electronLoginItems(loginApp, launch, 'win32');
    await items.apply({ startAtLogin: true, startHidden: true });
    await items.apply({ startAtLogin: true, startHidden: false });
    await items.apply({ startAtLogin: false, startHidden: false });
    expect(fakeApp.loginItems).toEqual([
      { openAtLogin: true, path: launch.command, args: ['--hidden'] },
      { openAtLogin: true, path: launch.command, args: [] },
      { openAtLogin: false, path: launch.command, args: [] },
    ]);
    expect(items.openedAtLogin()).toBe(false);
  });
});

describe('login items on macOS', () => {
  beforeEach(() => resetFakeElectron());

  it('register the app, and say when the system started it at login', async () => {
    const items = electronLoginItems(loginApp, launch, 'darwin');
    await items.apply({ startAtLogin: true, startHidden: true });
    expect(fakeApp.loginItems).toEqual([{ openAtLogin: true }]);
    expect(items.openedAtLogin()).toBe(false);
    fakeApp.wasOpenedAtLogin = true;
    expect(items.openedAtLogin()).toBe(true);
  });
});

describe('the Linux autostart entry', () => {
  let temp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    temp = tempDir('betdesk-autostart-');
  });
  afterEach(() => temp.cleanup());

  it('lives in $XDG_CONFIG_HOME/autostart, ~/.config/autostart without it', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/x/config' }, '/home/me')).toBe(
      '/x/config/autostart/betdesk.desktop',
    );
    expect(autostartFile({}, '/home/me')).toBe('/home/me/.config/autostart/betdesk.desktop');
    expect(autostartFile({ XDG_CONFIG_HOME: '' }, '/home/me')).toBe(
      '/home/me/.config/autostart/betdesk.desktop',
    );
  });

  it('is written when on, with --hidden when asked, and removed when off', async () => {
    const file = autostartFile({ XDG_CONFIG_HOME: join(temp.dir, 'config') });
    const items = xdgAutostart(file, { command: '/opt/Betdesk/betdesk', args: [] });
    await items.apply({ startAtLogin: true, startHidden: true });
    const entry = readFileSync(file, 'utf8');
    expect(entry).toMatch(/^\[Desktop Entry\]\n/);
    expect(entry).toContain('\nType=Application\n');
    expect(entry).toContain('\nName=Betdesk\n');
    expect(entry).toContain('\nExec=/opt/Betdesk/betdesk --hidden\n');
    await items.apply({ startAtLogin: true, startHidden: false });
    expect(readFileSync(file, 'utf8')).toContain('\nExec=/opt/Betdesk/betdesk\n');
    await items.apply({ startAtLogin: false, startHidden: true });
    expect(existsSync(file)).toBe(false);
    // Off again, with no file left, is fine.
    await items.apply({ startAtLogin: false, startHidden: false });
    expect(items.openedAtLogin()).toBe(false);
  });

  it('fails when the folder cannot be written', async () => {
    const config = join(temp.dir, 'config');
    mkdirSync(config);
    writeFileSync(join(config, 'autostart'), 'a file where the folder should be');
    const items = xdgAutostart(autostartFile({ XDG_CONFIG_HOME: config }), launch);
    await expect(items.apply({ startAtLogin: true, startHidden: false })).rejects.toThrow();
  });

  it('quotes an Exec path with spaces or reserved characters as the Desktop Entry spec asks', () => {
    expect(desktopExec(['/opt/Betdesk/betdesk', '--hidden'])).toBe('/opt/Betdesk/betdesk --hidden');
    expect(desktopExec(['/home/me/My Apps/Betdesk.AppImage'])).toBe(
      '"/home/me/My Apps/Betdesk.AppImage"',
    );
    expect(desktopExec(['/home/me/$HOME "x"/b`t'])).toBe(
      '"/home/me/\\\\$HOME \\\\"x\\\\"/b\\\\`t"',
    );
    expect(desktopExec(['/home/me/100%/betdesk'])).toBe('"/home/me/100%%/betdesk"');
    expect(desktopExec(['/a\\b'])).toBe('"/a\\\\\\\\b"');
  });
});

describe('the settings the desktop app serves', () => {
  function setup(fail = false) {
    let stored: DeskSettings = { oneClickBetting: false, startAtLogin: false, startHidden: false };
    const applied: StartupSettings[] = [];
    const settings: Parameters<typeof applyingLoginItems>[0] = {
      'settings:get': () => Promise.resolve(stored),
      'settings:set': (change) => Promise.resolve((stored = { ...stored, ...change })),
    };
    const items: LoginItems = {
      apply: (s) => {
        if (fail) return Promise.reject(new Error('EACCES: permission denied'));
        applied.push(s);
        return Promise.resolve();
      },
      openedAtLogin: () => false,
    };
    return { served: applyingLoginItems(settings, items), applied, stored: () => stored };
  }

  it('apply a change of the login settings to the OS, then store it', async () => {
    const { served, applied, stored } = setup();
    expect(await served['settings:set']({ startAtLogin: true })).toMatchObject({
      startAtLogin: true,
    });
    await served['settings:set']({ startHidden: true });
    expect(applied).toEqual([
      { startAtLogin: true, startHidden: false },
      { startAtLogin: true, startHidden: true },
    ]);
    expect(stored()).toMatchObject({ startAtLogin: true, startHidden: true });
  });

  it('leave the OS alone for other settings', async () => {
    const { served, applied } = setup();
    await served['settings:set']({ oneClickBetting: true });
    expect(applied).toEqual([]);
  });

  it('store nothing and say why when the OS refuses', async () => {
    const { served, stored } = setup(true);
    const refusal = await served['settings:set']({ startAtLogin: true }).catch(
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(Refusal);
    expect((refusal as Refusal).message).toBe(
      'Betdesk could not change its start at login: EACCES: permission denied',
    );
    expect(stored().startAtLogin).toBe(false);
  });
});
