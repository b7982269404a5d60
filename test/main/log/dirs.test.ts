import { expect, test } from 'vitest';
import { defaultLogsDir } from '../../../src/main/log/index.js';

test('Linux keeps logs in the XDG state home', () => {
  expect(defaultLogsDir('linux', { XDG_STATE_HOME: '/srv/state' }, '/home/ann')).toBe(
    '/srv/state/betdesk/logs',
  );
});

test('Linux falls back to ~/.local/state when XDG_STATE_HOME is unset or relative', () => {
  expect(defaultLogsDir('linux', {}, '/home/ann')).toBe('/home/ann/.local/state/betdesk/logs');
  expect(defaultLogsDir('freebsd', { XDG_STATE_HOME: 'state' }, '/home/ann')).toBe(
    '/home/ann/.local/state/betdesk/logs',
  );
});

test('macOS keeps logs where Console.app looks', () => {
  expect(defaultLogsDir('darwin', { XDG_STATE_HOME: '/ignored' }, '/Users/ann')).toBe(
    '/Users/ann/Library/Logs/Betdesk',
  );
});

test('Windows keeps logs in the local (not roaming) app data', () => {
  expect(
    defaultLogsDir('win32', { LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'C:\\Users\\ann'),
  ).toBe('C:\\Users\\ann\\AppData\\Local\\Betdesk\\logs');
  expect(defaultLogsDir('win32', {}, 'C:\\Users\\ann')).toBe(
    'C:\\Users\\ann\\AppData\\Local\\Betdesk\\logs',
  );
});
