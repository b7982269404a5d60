import { expect, test } from 'vitest';
import { SettingsState } from '../../../src/renderer/src/lib/state/settings.svelte.js';
import { deferred, FakeBridge, settle } from '../fake-bridge.js';

test('one-click betting is off until main says otherwise', async () => {
  const bridge = new FakeBridge();
  bridge.answer('settings:get', { oneClickBetting: true });
  const settings = new SettingsState(bridge);
  expect(settings.oneClickBetting).toBe(false);
  await settings.load();
  expect(settings.oneClickBetting).toBe(true);
});

test('turning it on is saved at once', async () => {
  const bridge = new FakeBridge();
  bridge.answer('settings:set', (change) => ({ oneClickBetting: change.oneClickBetting ?? false }));
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
  const first = deferred<{ oneClickBetting: boolean }>();
  let calls = 0;
  bridge.answer('settings:set', (change) =>
    ++calls === 1 ? first.promise : { oneClickBetting: change.oneClickBetting ?? false },
  );
  const settings = new SettingsState(bridge);
  settings.oneClickBetting = true;
  settings.oneClickBetting = false;
  await settle();
  first.resolve({ oneClickBetting: true });
  await settle();
  expect(settings.oneClickBetting).toBe(false);
});
