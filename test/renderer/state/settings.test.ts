import { expect, test } from 'vitest';
import { SettingsState } from '../../../src/renderer/src/lib/state/settings.svelte.js';
import { deferred, FakeBridge, settle } from '../fake-bridge.js';

const OFF = { oneClickBetting: false, startAtLogin: false, startHidden: false };

test('one-click betting is off until main says otherwise', async () => {
  const bridge = new FakeBridge();
  bridge.answer('settings:get', { ...OFF, oneClickBetting: true });
  const settings = new SettingsState(bridge);
  expect(settings.oneClickBetting).toBe(false);
  await settings.load();
  expect(settings.oneClickBetting).toBe(true);
});

test('turning it on is saved at once', async () => {
  const bridge = new FakeBridge();
  bridge.answer('settings:set', (change) => ({ ...OFF, ...change }));
  const settings = new SettingsState(bridge);
  settings.oneClickBetting = true;
  expect(settings.oneClickBetting).toBe(true);
  await settle();
  expect(bridge.inputs('settings:set')).toEqual([{ oneClickBetting: true }]);
});

test('a refused change is put back and says why', async () => {
  const bridge = new FakeBridge();
  bridge.fail('settings:set', { kind: 'internal', message: 'Settings could not be saved.' });
  const settings = new SettingsState(bridge);
  settings.oneClickBetting = true;
  await settle();
  expect(settings.oneClickBetting).toBe(false);
  expect(settings.error).toBe('Settings could not be saved.');
});

test('a late answer to an older change does not undo a newer one', async () => {
  const bridge = new FakeBridge();
  const first = deferred<typeof OFF>();
  let calls = 0;
  bridge.answer('settings:set', (change) =>
    ++calls === 1 ? first.promise : { ...OFF, ...change },
  );
  const settings = new SettingsState(bridge);
  settings.oneClickBetting = true;
  settings.oneClickBetting = false;
  await settle();
  first.resolve({ ...OFF, oneClickBetting: true });
  await settle();
  expect(settings.oneClickBetting).toBe(false);
});

test('starting at login and hidden are off until main says otherwise, and each saves alone', async () => {
  const bridge = new FakeBridge();
  bridge.answer('settings:get', { ...OFF, startAtLogin: true });
  let stored = { ...OFF, startAtLogin: true };
  bridge.answer('settings:set', (change) => (stored = { ...stored, ...change }));
  const settings = new SettingsState(bridge);
  expect([settings.startAtLogin, settings.startHidden]).toEqual([false, false]);
  await settings.load();
  expect([settings.startAtLogin, settings.startHidden]).toEqual([true, false]);
  settings.startHidden = true;
  expect(settings.startHidden).toBe(true);
  await settle();
  expect(bridge.inputs('settings:set')).toEqual([{ startHidden: true }]);
  expect(settings.startAtLogin).toBe(true);
});

test('a refused login item puts back only that setting and says why', async () => {
  const bridge = new FakeBridge();
  bridge.answer('settings:get', { ...OFF, oneClickBetting: true });
  const settings = new SettingsState(bridge);
  await settings.load();
  bridge.fail('settings:set', {
    kind: 'internal',
    message: 'Betdesk could not change its start at login: EACCES: permission denied',
  });
  settings.startAtLogin = true;
  await settle();
  expect(settings.startAtLogin).toBe(false);
  expect(settings.oneClickBetting).toBe(true);
  expect(settings.error).toMatch(/could not change its start at login/);
});
