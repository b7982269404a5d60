import { describe, expect, test } from 'vitest';
import type { Account } from '../../../src/shared/ipc/contract.js';
import { AccountsState } from '../../../src/renderer/src/lib/state/accounts.svelte.js';
import type { RemovalCounts } from '../../../src/shared/rules/account-removal.js';
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
    sameWalletAs: [],
    ...over,
  };
}

const COUNTS: RemovalCounts = {
  armedRules: 2,
  otherRules: 1,
  guardLogLines: 14,
  orders: 1234,
  settlements: 56,
  positions: 3,
  alerts: 7,
  priceSeries: 4,
  pricePoints: 3001,
  equityPoints: 900,
  fixtures: 20,
};

function setup(list: Account[] = [account()]) {
  const bridge = new FakeBridge();
  let accounts = list;
  bridge.answer('accounts:list', () => ({ accounts }));
  bridge.answer('accounts:remove', ({ accountId }) => {
    accounts = accounts.filter((a) => a.id !== accountId);
    return { removed: true };
  });
  bridge.answer('accounts:removal', () => COUNTS);
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
    expect(state.notice).toBe(
      'Removed Main: its guardian rules and log, orders, settlements, positions, alerts, recorded prices, equity points, fixtures and alert settings on this computer, and its secret in the system keychain. The exchange keeps its own records.',
    );
  });

  test('before the second press, it names everything that goes, with counts, armed rules first', async () => {
    const { bridge, state } = setup();
    await state.load();
    const [main] = state.list;
    if (!main) throw new Error('no account listed');
    await state.pressRemove(main);
    expect(bridge.inputs('accounts:removal')).toEqual([{ accountId: 'acc-1' }]);
    expect(state.removalText(main)).toBe(
      'Removing Main deletes what Betdesk keeps of it on this computer. 2 armed guardian rules will be deleted: their positions stay open on the exchange, unprotected. Also deleted: 1,234 orders, 56 settlements, 3 positions, 7 alerts, 1 ended guardian rule and 14 guardian log lines, 3,001 recorded prices of 4 outcomes, 900 equity points, 20 fixtures, its alert settings, and its secret in the system keychain. The exchange keeps its own records of the account.',
    );
  });

  test('when the counts cannot be read, it still names every kind, armed rules first', async () => {
    const { bridge, state } = setup();
    bridge.fail('accounts:removal', { kind: 'internal', message: 'The store is busy.' });
    await state.load();
    const [main] = state.list;
    if (!main) throw new Error('no account listed');
    expect(await state.pressRemove(main)).toBe(false);
    expect(state.removalText(main)).toBe(
      'Removing Main deletes what Betdesk keeps of it on this computer. Any armed guardian rules are deleted with it (their positions stay open on the exchange, unprotected), and its orders, settlements, positions, alerts, guardian log, recorded prices, equity points, fixtures, its alert settings, and its secret in the system keychain. The exchange keeps its own records of the account.',
    );
  });

  test('Keep it takes back the question, and nothing is removed', async () => {
    const { bridge, state } = setup();
    await state.load();
    const [main] = state.list;
    if (!main) throw new Error('no account listed');
    await state.pressRemove(main);
    state.cancelRemoval();
    expect(state.removalAsked).toBeNull();
    expect(await state.pressRemove(main)).toBe(false);
    expect(bridge.inputs('accounts:remove')).toHaveLength(0);
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
    expect(await state.add(input)).toBe('added');
    expect(state.notice).toMatch(/^Added Main\. Its secret is kept in the system keychain\.$/);
    bridge.fail('accounts:add', { kind: 'conflict', message: 'That key is already added.' });
    expect(await state.add(input)).toBe('refused');
    expect(state.addError).toBe('That key is already added.');
    expect(state.notice).toBeNull();
    expect(state.busy).toBe(false);
  });

  test('an exchange that could not be checked is reported as such, and a kept one says so', async () => {
    const { bridge, state } = setup([]);
    const why =
      'Nowhere was not added: its exchange could not be checked. The host name no-such-host.invalid was not found. Check the address.';
    bridge.fail('accounts:add', { kind: 'unchecked', message: why });
    const input = {
      label: 'Nowhere',
      baseUrl: 'http://no-such-host.invalid',
      apiKey: 'k',
      secret: 's',
    };
    expect(await state.add(input)).toBe('unchecked');
    expect(state.addError).toBe(why);
    expect(state.notice).toBeNull();

    bridge.answer('accounts:add', (sent) => ({
      ...account({ label: sent.label, permission: 'unknown' }),
      notice: 'Kept without a check, so its permission is unknown: the host was not found.',
    }));
    expect(await state.add({ ...input, keepUnchecked: true })).toBe('added');
    expect(bridge.inputs('accounts:add').at(-1)).toMatchObject({ keepUnchecked: true });
    expect(state.addError).toBeNull();
    expect(state.notice).toBe(
      'Added Nowhere. Its secret is kept in the system keychain. Kept without a check, so its permission is unknown: the host was not found.',
    );
  });

  test('switching to paper trading says so, and the app learns the new mode', async () => {
    const { bridge, app, state } = setup();
    bridge.answer('accounts:switch', () => appInfo({ mode: 'paper', accountLabel: 'Paper' }));
    expect(await state.switchTo(null)).toBe(true);
    expect(state.notice).toBe('Now paper trading.');
    expect(app.info?.mode).toBe('paper');
  });
});
