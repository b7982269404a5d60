import { describe, expect, test } from 'vitest';
import { defaultDataDir, legacyDataDirs } from '../../../src/main/data/data-dir.js';

const HOME = { linux: '/home/ann', darwin: '/Users/ann', win32: 'C:\\Users\\ann' } as const;
const APPDATA = 'C:\\Users\\ann\\AppData\\Roaming';

describe('the data folder', () => {
  test.each([
    ['linux', {}, '/home/ann/.local/share/betdesk'],
    ['linux', { XDG_DATA_HOME: '/data/ann' }, '/data/ann/betdesk'],
    // The XDG spec ignores a relative path.
    ['linux', { XDG_DATA_HOME: 'rel/data' }, '/home/ann/.local/share/betdesk'],
    ['freebsd', {}, '/home/ann/.local/share/betdesk'],
    ['darwin', { XDG_DATA_HOME: '/ignored' }, '/Users/ann/Library/Application Support/Betdesk'],
    ['win32', { APPDATA }, 'C:\\Users\\ann\\AppData\\Roaming\\Betdesk'],
    ['win32', {}, 'C:\\Users\\ann\\AppData\\Roaming\\Betdesk'],
  ] as const)('on %s with %o is %s', (platform, env, dir) => {
    const home = platform === 'freebsd' ? HOME.linux : HOME[platform];
    expect(defaultDataDir(platform, env, home)).toBe(dir);
  });

  test('is BETDESK_DATA_DIR on every OS when set', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      expect(defaultDataDir(platform, { BETDESK_DATA_DIR: '/srv/bd' }, HOME[platform])).toBe(
        '/srv/bd',
      );
    }
    expect(defaultDataDir('win32', { BETDESK_DATA_DIR: 'D:\\bd' }, HOME.win32)).toBe('D:\\bd');
  });
});

describe('the folders earlier versions used', () => {
  test('on Linux: the app’s and the host’s $XDG_CONFIG_HOME/betdesk (the CLI’s is the new one)', () => {
    const env = { XDG_CONFIG_HOME: '/cfg/ann' };
    const dir = defaultDataDir('linux', env, HOME.linux);
    expect(legacyDataDirs(dir, 'linux', env, HOME.linux)).toEqual(['/cfg/ann/betdesk']);
    expect(legacyDataDirs(dir, 'linux', {}, HOME.linux)).toEqual(['/home/ann/.config/betdesk']);
  });

  test('on macOS: Electron’s userData for `betdesk`, then the CLI’s Linux-style folder', () => {
    const dir = defaultDataDir('darwin', {}, HOME.darwin);
    expect(legacyDataDirs(dir, 'darwin', {}, HOME.darwin)).toEqual([
      '/Users/ann/Library/Application Support/betdesk',
      '/Users/ann/.local/share/betdesk',
    ]);
  });

  test('on Windows: %APPDATA%\\betdesk, then the CLI’s folder', () => {
    const dir = defaultDataDir('win32', { APPDATA }, HOME.win32);
    expect(legacyDataDirs(dir, 'win32', { APPDATA }, HOME.win32)).toEqual([
      'C:\\Users\\ann\\AppData\\Roaming\\betdesk',
      'C:\\Users\\ann\\.local\\share\\betdesk',
    ]);
  });

  test('are none for a folder the user chose', () => {
    expect(legacyDataDirs('/srv/bd', 'linux', {}, HOME.linux)).toEqual([]);
    const env = { BETDESK_DATA_DIR: '/srv/bd' };
    expect(
      legacyDataDirs(defaultDataDir('linux', env, HOME.linux), 'linux', env, HOME.linux),
    ).toEqual([]);
  });
});
