/**
 * Every account watched (docs/desk.md, "Every account watched"), with the real parts: paper mode,
 * two exchange accounts on one sandbox and one on another (over HTTP), the store in a temp dir,
 * the system keychain (run with `bash build/test.sh test/main/app`). A knockout coming near on
 * an account that is not on screen raises its alert, named, counts in the tray's summary, and
 * fires its armed guardian: one SELL on that wallet, none on the others. Switching starts no
 * session twice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import type { Account, AlertRaised } from '../../../src/shared/ipc/contract.js';
import { nearKnockoutPrice } from '../../../src/shared/rules/knockout.js';
import { startSandbox, type Credentials, type Sandbox } from '../../exchange/harness.js';
import { AppHarness, marketBet, midFixture, type Seen } from './support.js';

const app = new AppHarness('every-account');
let one: Sandbox;
let other: Sandbox;

beforeAll(async () => {
  [one, other] = await Promise.all([
    startSandbox({ blockMs: 50, rateLimits: false }),
    startSandbox({ blockMs: 50, rateLimits: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([one.close(), other.close()]);
});
afterEach(app.cleanup);

const WAIT = { timeout: 45_000, interval: 100 };

async function addAccount(
  services: AppServices,
  sandbox: Sandbox,
  label: string,
): Promise<{ account: Account; key: Credentials }> {
  const key = await sandbox.newAccount('trade');
  const account = await services.call('accounts:add', {
    label,
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: key.secret,
  });
  return { account, key };
}

/** The SELL orders the exchange holds for the wallet of `key`. */
async function sells(sandbox: Sandbox, key: Credentials): Promise<number> {
  const res = await sandbox.signed<{ orders: { side: string }[] }>(key, 'GET', '/orders', {
    query: { limit: 100 },
  });
  expect(res.status).toBe(200);
  return res.body.orders.filter((o) => o.side === 'SELL').length;
}

const raised = (seen: Seen[]) =>
  seen.filter((s) => s.event === 'alert:raised').map((s) => s.payload as AlertRaised);

describe('every account watched', { timeout: 120_000 }, () => {
  it('an account off screen alerts, counts in the tray and its guardian sells, once', async () => {
    const { services, seen } = await app.start();
    await services.call('status:get', {});
    const paper = services.session()!;
    const a = await addAccount(services, one, 'Live A');
    const b = await addAccount(services, one, 'Live B');
    const c = await addAccount(services, other, 'Live C');
    expect(services.sessions.starts).toBe(4);

    // Live B holds a boosted bet with a knockout guard armed; then Live A goes on screen.
    await services.call('accounts:switch', { accountId: b.account.id });
    const f = await midFixture(services);
    await services.call(
      'order:place',
      marketBet(f, { clientOrderId: 'bd-every-b-1', qty: '10', boost: 50 }),
    );
    let knockout: string | undefined;
    await expect
      .poll(async () => {
        const p = (await services.call('positions:list', {})).positions.find(
          (x) => x.contractId === f.contractId && x.outcome === f.homeTeam,
        );
        knockout = p?.knockout ?? undefined;
        return p?.contracts ?? 0;
      }, WAIT)
      .toBe(10);
    await services.call('guards:arm', {
      contractId: f.contractId,
      outcome: f.homeTeam,
      rules: [{ kind: 'knockout', percent: '3', sharePercent: 30, confirmations: 1 }],
    });
    await services.call('accounts:switch', { accountId: a.account.id });
    await services.call('accounts:switch', { accountId: null });
    await services.call('accounts:switch', { accountId: a.account.id });
    const onScreen = services.session()!;
    expect(onScreen.accountId).toBe(Number(a.account.id));

    // The index comes near the knockout on the exchange; Live B is not on screen.
    one.domain.setPrice(f.contractId, f.homeTeam, nearKnockoutPrice(knockout!));

    await expect.poll(() => raised(seen).some((r) => r.alert.kind === 'near'), WAIT).toBe(true);
    const near = raised(seen).find((r) => r.alert.kind === 'near')!;
    expect(near.alert).toMatchObject({ accountId: b.account.id, account: 'Live B' });
    // Its summary is the screen's (Live A's), with every account's counts beside it.
    expect(near.summary.accountId).toBe(a.account.id);
    const tray = await services.alertsSummary();
    expect(tray.accountId).toBe(a.account.id);
    // The contract's fields, no more (the bridge refuses an event with others).
    expect(Object.keys(tray).sort()).toEqual(
      ['accountId', 'everyAccount', 'nearKnockout', 'unread', 'unreadDanger'].sort(),
    );
    expect(tray.everyAccount.map((x) => x.account).sort()).toEqual([
      'Live A',
      'Live B',
      'Live C',
      'Paper',
    ]);
    expect(tray.everyAccount.find((x) => x.account === 'Live B')?.unreadDanger).toBeGreaterThan(0);

    // The guardian of Live B sold 30 % of it, once; no other wallet sold anything.
    await expect.poll(() => sells(one, b.key), WAIT).toBe(1);
    const rules = await onScreenRules(services, b.account.id);
    expect(rules).toEqual(['closed']);
    expect(await sells(one, b.key)).toBe(1);
    expect(await sells(one, a.key)).toBe(0);
    expect(await sells(other, c.key)).toBe(0);
    await expect
      .poll(
        () => raised(seen).some((r) => r.alert.kind === 'guard' && r.alert.account === 'Live B'),
        WAIT,
      )
      .toBe(true);

    // Nothing was restarted by the switches, and every session still runs.
    expect(services.sessions.starts).toBe(4);
    expect(services.sessions.running).toHaveLength(4);
    expect(services.sessions.running).toContain(paper);
    for (const s of services.sessions.running) expect(s.engine.running).toBe(true);
    // The screens still show Live A.
    expect(services.session()).toBe(onScreen);
    expect((await services.call('positions:list', {})).accountId).toBe(a.account.id);
  });

  it('two trade keys of one wallet, each with a rule on its position: one close, never two', async () => {
    const { services } = await app.start();
    const first = await one.newAccount('trade');
    const second = await one.newKey({ wallet: first.wallet, permission: 'trade' });
    const add = (label: string, key: Credentials) =>
      services.call('accounts:add', {
        label,
        baseUrl: one.url,
        apiKey: key.apiKey,
        secret: key.secret,
      });
    const w1 = await add('Key 1', first);
    const w2 = await add('Key 2', second);

    await services.call('accounts:switch', { accountId: w1.id });
    const f = await midFixture(services);
    await services.call(
      'order:place',
      marketBet(f, { clientOrderId: 'bd-wallet-1', qty: '10', boost: 50 }),
    );
    const held = async (accountId: string) => {
      await services.call('accounts:switch', { accountId });
      let knockout: string | undefined;
      await expect
        .poll(async () => {
          const p = (await services.call('positions:list', {})).positions.find(
            (x) => x.contractId === f.contractId && x.outcome === f.homeTeam,
          );
          knockout = p?.knockout ?? undefined;
          return p?.contracts ?? 0;
        }, WAIT)
        .toBe(10);
      return knockout!;
    };
    // Both keys hold the position and the order that tells them one wallet.
    const knockout = await held(w1.id);
    await held(w2.id);
    await expect
      .poll(() => services.store.wallets.sameWalletAs(Number(w1.id)), WAIT)
      .toEqual([Number(w2.id)]);
    const guard = { kind: 'knockout', percent: '3', sharePercent: 100, confirmations: 1 } as const;
    const arm = async (accountId: string) => {
      await services.call('accounts:switch', { accountId });
      const view = await services.call('guards:arm', {
        contractId: f.contractId,
        outcome: f.homeTeam,
        rules: [guard],
      });
      return view.rules[0]!.id;
    };
    const rules = [await arm(w2.id), await arm(w1.id)];

    one.domain.setPrice(f.contractId, f.homeTeam, nearKnockoutPrice(knockout));

    // One close sold the position; the other key's rule waited for it, then ended with it.
    const ended = () =>
      rules.every((id) => {
        const r = services.store.guards.get(id);
        return r !== undefined && r.state !== 'armed' && r.state !== 'firing';
      });
    await expect.poll(ended, WAIT).toBe(true);
    const sent = rules.filter((id) => {
      const { accountId } = services.store.guards.get(id)!;
      return services.store.guards.logCount(accountId, { ruleId: id, event: 'sent' }) > 0;
    });
    expect(sent).toHaveLength(1);
    expect(await sells(one, first)).toBe(1);
    expect(rules.map((id) => services.store.guards.get(id)!.state).sort()).toEqual([
      'closed',
      'ended',
    ]);
  });
});

/** The states of `accountId`'s rules, read with that account on screen, then Live A back. */
async function onScreenRules(services: AppServices, accountId: string): Promise<string[]> {
  const back = services.session()!.bridgeId;
  await services.call('accounts:switch', { accountId });
  try {
    let states: string[] = [];
    await expect
      .poll(async () => {
        states = (await services.call('guards:list', {})).rules.map((r) => r.state);
        return states.every((s) => s === 'closed');
      }, WAIT)
      .toBe(true);
    return states;
  } finally {
    await services.call('accounts:switch', { accountId: back });
  }
}
