/**
 * The portfolio's data: which scope it reads (the mode's own until the user picks one, then that
 * one for the session), the period's curve, re-reads on the pushes that change the figures, the
 * figures' freshness in words, and rows that open what they name on their own account.
 */
import { describe, expect, test } from 'vitest';
import type { AppInfo, PortfolioScope } from '../../../src/shared/ipc/contract.js';
import { ManualClock } from '../../../src/renderer/src/lib/state/clock.svelte.js';
import { PortfolioState } from '../../../src/renderer/src/lib/state/portfolio.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { testRoot } from '../mount.js';
import {
  account,
  emptyPortfolio,
  equitySeries,
  portfolioPosition,
  portfolioView,
} from '../portfolio-rows.js';
import { appInfo, appStatus, NOW, positionsView, settlementRow } from '../rows.js';

const MAIN = account();
const ISA = account({ id: 'acc-isa', label: 'ISA', active: false });
const LIVE_MAIN = appInfo({ mode: 'live', activeAccountId: 'acc-main', accountLabel: 'Main' });

async function setup(info: AppInfo = LIVE_MAIN) {
  const bridge = new FakeBridge();
  // Main's answers follow a switch of account, as main's do.
  let current = info;
  bridge.answer('app:info', () => current);
  bridge.answer('accounts:switch', ({ accountId }) => {
    const label = [MAIN, ISA].find((a) => a.id === accountId)?.label ?? 'Paper';
    current =
      accountId === null
        ? appInfo()
        : { ...LIVE_MAIN, activeAccountId: accountId, accountLabel: label };
    return current;
  });
  bridge.answer('status:get', appStatus({ mode: info.mode }));
  bridge.answer('accounts:list', { accounts: [MAIN, ISA] });
  bridge.answer('portfolio:view', ({ scope }) => portfolioView({ scope }));
  bridge.answer('portfolio:equity', ({ scope, period }) => equitySeries(scope, period));
  const root = testRoot(bridge);
  root.app.start();
  await root.accounts.load();
  const clock = new ManualClock(NOW);
  const portfolio = new PortfolioState(
    bridge,
    { app: root.app, accounts: root.accounts, nav: root.nav, staleAfterMs: null },
    clock,
  );
  portfolio.start();
  await settle();
  bridge.calls.length = 0;
  return { bridge, root, clock, portfolio };
}

const reads = (bridge: FakeBridge) =>
  bridge.calls
    .filter((c) => c.channel.startsWith('portfolio:'))
    .map((c) => [c.channel, c.input] as [string, unknown]);

const view = (scope: PortfolioScope) => ['portfolio:view', { scope }];
const equity = (scope: PortfolioScope, period: string) => ['portfolio:equity', { scope, period }];

describe('the portfolio', () => {
  test('reads nothing until shown; then the figures, then the month’s curve', async () => {
    const { bridge, portfolio } = await setup();
    expect(reads(bridge)).toEqual([]);
    portfolio.show();
    await settle();
    expect(reads(bridge)).toEqual([view({ kind: 'live' }), equity({ kind: 'live' }, 'month')]);
    expect(portfolio.view?.equity).toBe('12.90');
    expect(portfolio.equity?.points).toHaveLength(4);
  });

  test('in paper mode it shows paper, on its own', async () => {
    const { bridge, portfolio } = await setup(appInfo());
    portfolio.show();
    await settle();
    expect(reads(bridge)[0]).toEqual(view({ kind: 'paper' }));
    expect(portfolio.scopeWords).toBe('Paper');
  });

  test('offers every exchange account together, each one, and paper apart', async () => {
    const { portfolio } = await setup();
    expect(portfolio.scopeChoices.map((c) => [c.key, c.text])).toEqual([
      ['live', 'All exchange accounts'],
      ['acc-main', 'Main'],
      ['acc-isa', 'ISA'],
      ['paper', 'Paper (practice money)'],
    ]);
    expect(portfolio.scopeWords).toBe('All exchange accounts (2)');
  });

  test('says which accounts read one wallet, and counts wallets in the scope’s words', async () => {
    const { bridge, portfolio } = await setup();
    bridge.answer('portfolio:view', ({ scope }) =>
      portfolioView({
        scope,
        sharedWallets: [
          {
            counted: { accountId: 'acc-isa', label: 'ISA' },
            others: [{ accountId: 'acc-main', label: 'Main' }],
          },
        ],
      }),
    );
    expect(portfolio.sharedWords).toBeNull();
    portfolio.show();
    await settle();
    expect(portfolio.scopeWords).toBe('All exchange accounts (2, 1 wallet)');
    expect(portfolio.sharedWords).toBe(
      '“Main” reads the same wallet as “ISA”: counted once, from “ISA”.',
    );
  });

  test('a scope chosen reads its figures and holds for the session, across a switch of account', async () => {
    const { bridge, root, portfolio } = await setup();
    portfolio.show();
    await settle();
    bridge.calls.length = 0;
    portfolio.scopeKey = 'acc-isa';
    expect(portfolio.view).toBeNull(); // never another scope's figures under this one's name
    await settle();
    const isa = { kind: 'account', accountId: 'acc-isa' } as const;
    expect(reads(bridge)).toEqual([view(isa), equity(isa, 'month')]);
    expect(portfolio.scopeWords).toBe('ISA');

    // Away and back: nothing changed, nothing read; the choice stays.
    portfolio.hide();
    portfolio.show();
    await settle();
    expect(reads(bridge)).toHaveLength(2);

    // The active account changes: the same scope, read again.
    await root.accounts.switchTo('acc-isa');
    await settle();
    expect(portfolio.scope).toEqual(isa);
    expect(reads(bridge).slice(2)).toEqual([view(isa), equity(isa, 'month')]);
  });

  test('an account added or removed reads the figures again; nothing changed, nothing read', async () => {
    const { bridge, root, portfolio } = await setup();
    portfolio.show();
    await settle();
    portfolio.follow();
    await settle();
    expect(reads(bridge)).toHaveLength(2);
    bridge.answer('accounts:list', { accounts: [MAIN] });
    await root.accounts.load();
    portfolio.follow(); // the screen calls it when the accounts change
    await settle();
    expect(reads(bridge).slice(2)).toEqual([
      view({ kind: 'live' }),
      equity({ kind: 'live' }, 'month'),
    ]);
    expect(portfolio.scopeWords).toBe('All exchange accounts (1)');
  });

  test('a period reads its curve alone; the figures stay', async () => {
    const { bridge, portfolio } = await setup();
    portfolio.show();
    await settle();
    bridge.calls.length = 0;
    portfolio.period = 'year';
    expect(portfolio.equity).toBeNull();
    await settle();
    expect(reads(bridge)).toEqual([equity({ kind: 'live' }, 'year')]);
    expect(portfolio.equity?.period).toBe('year');
    expect(portfolio.view).not.toBeNull();
  });

  test('positions:changed and history:changed read again while shown; hidden, on the next show', async () => {
    const { bridge, portfolio } = await setup();
    portfolio.show();
    await settle();
    bridge.calls.length = 0;
    bridge.emit('positions:changed', {
      accountId: 'acc-main',
      at: NOW,
      view: positionsView([]),
    });
    await settle();
    expect(reads(bridge).map(([c]) => c)).toEqual(['portfolio:view', 'portfolio:equity']);

    portfolio.hide();
    bridge.emit('history:changed', { accountId: 'acc-main', added: 1, at: NOW });
    await settle();
    expect(reads(bridge)).toHaveLength(2);
    portfolio.show();
    await settle();
    expect(reads(bridge).map(([c]) => c)).toEqual([
      'portfolio:view',
      'portfolio:equity',
      'portfolio:view',
      'portfolio:equity',
    ]);
  });

  test('says when the positions were read, and when the figures are stale or offline', async () => {
    const { bridge, root, clock, portfolio } = await setup();
    portfolio.show();
    await settle();
    expect(portfolio.freshness).toBe('positions read 2 min ago');
    expect(portfolio.staleWords).toBeNull();

    clock.now = NOW + 10 * 60_000;
    expect(portfolio.staleWords).toBe(
      'Stale: Main’s positions were read 12 min ago. Open positions and unrealized P&L may be out of date.',
    );

    bridge.emit('sync:status', appStatus({ mode: 'live', online: false }));
    expect(root.app.syncBehind).toBe('offline');
    expect(portfolio.staleWords).toMatch(/^Offline: these are the figures saved on this computer/);
  });

  test('two accounts: each says when its positions were read, or that they never were', async () => {
    const { bridge, portfolio } = await setup();
    bridge.answer('portfolio:view', ({ scope }) =>
      portfolioView({
        scope,
        accounts: [
          { accountId: 'acc-main', label: 'Main', positionsAt: NOW - 5_000 },
          { accountId: 'acc-isa', label: 'ISA', positionsAt: null },
        ],
      }),
    );
    portfolio.show();
    await settle();
    expect(portfolio.freshness).toBe('positions read: Main 5 s ago · ISA never');
  });

  test('a scope with nothing in it is empty; one with only unknown P&L is not', async () => {
    const { bridge, portfolio } = await setup();
    bridge.answer('portfolio:view', ({ scope }) => emptyPortfolio(scope));
    portfolio.show();
    await settle();
    expect(portfolio.empty).toBe(true);
    bridge.answer('portfolio:view', ({ scope }) => ({
      ...emptyPortfolio(scope),
      unknownSettlements: 2,
    }));
    portfolio.refresh();
    await settle();
    expect(portfolio.empty).toBe(false);
  });

  test('a failed read says why; Try again reads what failed', async () => {
    const { bridge, portfolio } = await setup();
    bridge.fail('portfolio:view', { kind: 'internal', message: 'The store could not be read.' });
    portfolio.show();
    await settle();
    expect(portfolio.viewReads.error).toBe('The store could not be read.');
    bridge.answer('portfolio:view', ({ scope }) => portfolioView({ scope }));
    portfolio.retry();
    await settle();
    expect(portfolio.viewReads.error).toBeNull();
    expect(portfolio.view).not.toBeNull();
  });
});

describe('opening a row', () => {
  test('a position of the active account opens its detail on Positions', async () => {
    const { bridge, root, portfolio } = await setup();
    await portfolio.openPosition(portfolioPosition());
    expect(bridge.inputs('accounts:switch')).toEqual([]);
    expect(root.nav.screen).toBe('positions');
  });

  test('a position of another account switches to it first, then opens it', async () => {
    const { bridge, root } = await setup();
    const shown: unknown[] = [];
    const nav = { show: (r: unknown) => shown.push(r) };
    const state = new PortfolioState(
      bridge,
      { app: root.app, accounts: root.accounts, nav, staleAfterMs: null },
      new ManualClock(NOW),
    );
    const p = portfolioPosition({ accountId: 'acc-isa', accountLabel: 'ISA' });
    expect(state.isActive('acc-isa')).toBe(false);
    await state.openPosition(p);
    expect(bridge.inputs('accounts:switch')).toEqual([{ accountId: 'acc-isa' }]);
    expect(shown).toEqual([
      { screen: 'positions', contractId: 'EPL-ARSCHE', outcome: 'ARS', detail: true },
    ]);
    expect(state.isActive('acc-isa')).toBe(true);
  });

  test('a paper settlement in live mode switches to paper, then opens it on History', async () => {
    const { bridge, root } = await setup();
    const shown: unknown[] = [];
    const state = new PortfolioState(
      bridge,
      {
        app: root.app,
        accounts: root.accounts,
        nav: { show: (r) => shown.push(r) },
        staleAfterMs: null,
      },
      new ManualClock(NOW),
    );
    await state.openSettlement('paper', 'Paper', settlementRow({ id: 42 }));
    expect(bridge.inputs('accounts:switch')).toEqual([{ accountId: null }]);
    expect(shown).toEqual([{ screen: 'history', settlementId: 42 }]);
  });

  test('when the switch fails, nothing opens and the row says why', async () => {
    const { bridge, root } = await setup();
    const shown: unknown[] = [];
    bridge.fail('accounts:switch', { kind: 'internal', message: 'The keychain is locked.' });
    const state = new PortfolioState(
      bridge,
      {
        app: root.app,
        accounts: root.accounts,
        nav: { show: (r) => shown.push(r) },
        staleAfterMs: null,
      },
      new ManualClock(NOW),
    );
    await state.openPosition(portfolioPosition({ accountId: 'acc-isa', accountLabel: 'ISA' }));
    expect(shown).toEqual([]);
    expect(state.openError).toBe('Could not switch to ISA to open it: The keychain is locked.');
    expect(state.switching).toBeNull();
  });
});
