import { describe, expect, test } from 'vitest';
import type { Account } from '../../../src/shared/ipc/contract.js';
import { AccountsState } from '../../../src/renderer/src/lib/state/accounts.svelte.js';
import { AppState } from '../../../src/renderer/src/lib/state/app.svelte.js';
import { FakeBridge } from '../fake-bridge.js';
import { appInfo, NOW } from '../rows.js';

function account(over: Partial<Account> = {}): Account {
  return {
    id: 'acc-1',
    label: 'Main',
    baseUrl: 'https://exchange.example',
    apiKeyHint: '…a1b2',
    permission: 'trade',
    active: false,
    createdAt: NOW,
    ...over,
  };
}

function setup(list: Account[] = [account()]) {
  const bridge = new FakeBridge();
  let accounts = list;
  bridge.answer('accounts:list', () => ({ accounts }));
  bridge.answer('accounts:remove', ({ accountId }) => {
    accounts = accounts.filter((a) => a.id !== accountId);
    return { removed: true };
  });
  bridge.answer('app:info', appInfo());
  const app = new AppState(bridge);
  return { bridge, app, state: new AccountsState(bridge, app) };
}

describe('the accounts', () => {
  test('Remove asks first, and removes on the second press', async () => {
    const { bridge, state } = setup();
    await state.load();
    const [main] = state.list;
    if (!main) throw new Error('no account listed');
    expect(await state.pressRemove(main)).toBe(false);
    expect(state.removalAsked).toBe('acc-1');
    expect(bridge.inputs('accounts:remove')).toHaveLength(0);
    expect(await state.pressRemove(main)).toBe(true);
    expect(state.removalAsked).toBeNull();
    expect(bridge.inputs('accounts:remove')).toEqual([{ accountId: 'acc-1' }]);
    expect(state.list).toEqual([]);
    expect(state.notice).toBe('Removed Main and its secret.');
  });

  test('pressing Remove on another account asks about that one instead', async () => {
    const { bridge, state } = setup([account(), account({ id: 'acc-2', label: 'Spare' })]);
    await state.load();
    const [first, second] = state.list;
    if (!first || !second) throw new Error('two accounts expected');
    await state.pressRemove(first);
    await state.pressRemove(second);
    expect(state.removalAsked).toBe('acc-2');
    expect(bridge.inputs('accounts:remove')).toHaveLength(0);
  });

  test('adding tells where the secret went; a refusal is shown in main’s words', async () => {
    const { bridge, state } = setup([]);
    bridge.answer('accounts:add', (input) => account({ label: input.label }));
    const input = { label: 'Main', baseUrl: 'https://x.example', apiKey: 'k', secret: 's' };
    expect(await state.add(input)).toBe(true);
    expect(state.notice).toMatch(/^Added Main\. Its secret is kept in the system keychain\.$/);
    bridge.fail('accounts:add', { kind: 'conflict', message: 'That key is already added.' });
    expect(await state.add(input)).toBe(false);
    expect(state.error).toBe('That key is already added.');
    expect(state.notice).toBeNull();
    expect(state.busy).toBe(false);
  });

  test('switching to paper trading says so, and the app learns the new mode', async () => {
    const { bridge, app, state } = setup();
    bridge.answer('accounts:switch', () => appInfo({ mode: 'paper', accountLabel: 'Paper' }));
    expect(await state.switchTo(null)).toBe(true);
    expect(state.notice).toBe('Now paper trading.');
    expect(app.info?.mode).toBe('paper');
  });
});
