/**
 * Guardians with the app's real parts: paper mode (the sandbox exchange in process, over HTTP),
 * the store in a temp dir, the sync engine, the trading service. Each rule kind fires on a
 * practice price move and closes the share it names; a pause, the daily limit and a closed
 * market hold or end it in words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import type {
  AlertRaised,
  Fixture,
  GuardRuleView,
  GuardSpec,
  PositionRow,
} from '../../../src/shared/ipc/contract.js';
import { nearKnockoutPrice } from '../../../src/shared/rules/knockout.js';
import { dec, price } from '../../../src/shared/money.js';
import { AppHarness, marketBet, midFixture, type Seen } from '../app/support.js';

const app = new AppHarness('guardian');
afterEach(() => app.cleanup());

const WAIT = { timeout: 30_000, interval: 100 };
let bets = 0;

/** Buys `qty` contracts of the home team at the market, and waits for the position. */
async function hold(
  services: AppServices,
  f: Fixture,
  qty: number,
  boost = 0,
): Promise<PositionRow> {
  await services.call(
    'order:place',
    marketBet(f, {
      clientOrderId: `bd-guard-${Date.now().toString(36)}-${++bets}`,
      qty: String(qty),
      boost,
    }),
  );
  let row: PositionRow | undefined;
  await expect
    .poll(async () => {
      row = (await services.call('positions:list', {})).positions.find(
        (p) => p.contractId === f.contractId && p.outcome === f.homeTeam,
      );
      return row?.contracts ?? 0;
    }, WAIT)
    .toBe(qty);
  return row!;
}

async function contractsHeld(services: AppServices, f: Fixture): Promise<number> {
  const p = (await services.call('positions:list', {})).positions.find(
    (x) => x.contractId === f.contractId && x.outcome === f.homeTeam,
  );
  return p?.contracts ?? 0;
}

function spec(s: Partial<GuardSpec> & Pick<GuardSpec, 'kind'>): GuardSpec {
  return { sharePercent: 100, confirmations: 1, ...s };
}

async function arm(services: AppServices, f: Fixture, s: GuardSpec): Promise<GuardRuleView> {
  const view = await services.call('guards:arm', {
    contractId: f.contractId,
    outcome: f.homeTeam,
    rules: [s],
  });
  // The newest of its kind: arming judges at once, so it may already be firing.
  return view.rules.filter((r) => r.spec.kind === s.kind).reduce((a, b) => (b.id > a.id ? b : a));
}

async function rule(services: AppServices, id: number): Promise<GuardRuleView | undefined> {
  return (await services.call('guards:list', {})).rules.find((r) => r.id === id);
}

const move = (services: AppServices, f: Fixture, indexPrice: string) =>
  services.call('practice:price', { contractId: f.contractId, outcome: f.homeTeam, indexPrice });

async function events(services: AppServices, ruleId: number): Promise<string[]> {
  const page = await services.call('guards:log', { ruleId, limit: 100, offset: 0 });
  return page.rows.map((r) => r.event).reverse();
}

function guardAlerts(seen: Seen[]): AlertRaised[] {
  return seen
    .filter((s) => s.event === 'alert:raised')
    .map((s) => s.payload as AlertRaised)
    .filter((a) => a.alert.kind === 'guard');
}

/** Waits until the rule is closed, and its close's SELL has left `left` contracts. */
async function closedLeaving(
  services: AppServices,
  f: Fixture,
  id: number,
  left: number,
  logged = ['armed', 'fired', 'sent', 'filled'],
) {
  await expect.poll(async () => (await rule(services, id))?.state, WAIT).toBe('closed');
  await expect.poll(() => contractsHeld(services, f), WAIT).toBe(left);
  expect(await events(services, id)).toEqual(logged);
}

describe('guardians in paper mode', { timeout: 90_000 }, () => {
  it('a stop loss fires on a price fall and closes the half it names', async () => {
    const { services, seen } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    const r = await arm(services, f, spec({ kind: 'stop_loss', percent: '20', sharePercent: 50 }));
    expect(r.distance).toMatch(/points above the stop at −20 %/);

    await move(services, f, price(dec(f.homePrice).times('0.5')));
    await closedLeaving(services, f, r.id, 5);
    const closed = (await rule(services, r.id))!;
    expect(closed.contracts).toBe(5);
    expect(closed.reason).toMatch(/^sold 5 contracts/);
    expect(closed.clientOrderId).toMatch(new RegExp(`^bdg-${r.id}-[0-9a-z]{6}$`));
    const fired = (
      await services.call('guards:log', { ruleId: r.id, event: 'fired', limit: 1, offset: 0 })
    ).rows[0]!;
    expect(fired.message).toMatch(/^Fired: the stop loss at −20 %, closes 50 % on /);
    expect(fired.observation?.pnlPercent).toBeDefined();
    expect(dec(fired.observation!.pnlPercent!).lte(-20)).toBe(true);
    await expect
      .poll(() => guardAlerts(seen).map((a) => a.alert.message.split(':')[0]), WAIT)
      .toEqual(['Fired', 'Closed']);
    const view = await services.call('guards:list', {});
    expect(view.usedToday).toMatchObject({ closes: 1, contracts: 5 });
    expect(seen.some((s) => s.event === 'guards:changed')).toBe(true);
  });

  it('a take profit fires when the closing price reaches its price', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    const p = await hold(services, f, 6);
    const target = price(dec(p.estimatedClosingPrice).plus('0.05'));
    const r = await arm(services, f, spec({ kind: 'take_profit', price: target }));
    await move(services, f, price(dec(f.homePrice).plus('0.2')));
    await closedLeaving(services, f, r.id, 0);
  });

  it('a knockout guard fires when the index comes within its distance of the knockout', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    const p = await hold(services, f, 10, 50);
    expect(p.knockout).not.toBeNull();
    const r = await arm(services, f, spec({ kind: 'knockout', percent: '3', sharePercent: 30 }));
    expect(r.distance).toMatch(/^knockout [\d.]+ % away, fires at 3 %$/);
    await move(services, f, nearKnockoutPrice(p.knockout!));
    await closedLeaving(services, f, r.id, 7);
  });

  it('a trailing stop follows the best closing price up, then fires on the fall from it', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    const r = await arm(services, f, spec({ kind: 'trailing_stop', percent: '10' }));
    await expect.poll(async () => (await rule(services, r.id))?.best ?? null, WAIT).not.toBeNull();
    const first = (await rule(services, r.id))!.best!;
    const up = price(dec(f.homePrice).plus('0.15'));
    await move(services, f, up);
    await expect
      .poll(async () => dec((await rule(services, r.id))?.best ?? '0').gt(first), WAIT)
      .toBe(true);
    expect((await rule(services, r.id))!.state).toBe('armed');
    await move(services, f, price(dec(up).times('0.8')));
    await closedLeaving(services, f, r.id, 0);
  });

  it('a time exit closes the position once its minutes before kick-off have begun', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    // Armed 30 minutes before a kick-off 40 minutes away: its minutes are still to come.
    await services.call('practice:kickoff', { contractId: f.contractId, minutes: 40 });
    await expect
      .poll(async () => {
        const all = await services.call('fixtures:list', {
          openOnly: false,
          limit: 100,
          offset: 0,
        });
        return all.fixtures.find((x) => x.contractId === f.contractId)?.startsAt ?? 0;
      }, WAIT)
      .toBeLessThan(Date.now() + 41 * 60_000);
    const r = await arm(services, f, spec({ kind: 'time_exit', minutes: 30 }));
    expect(await contractsHeld(services, f)).toBe(10);
    // Kick-off moves to 20 minutes away: the next fresh observation fires it.
    await services.call('practice:kickoff', { contractId: f.contractId, minutes: 20 });
    await move(services, f, f.homePrice);
    await closedLeaving(services, f, r.id, 0);
  });

  it('refuses a time exit whose minutes have begun: it would close at once', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    await services.call('practice:kickoff', { contractId: f.contractId, minutes: 10 });
    await expect
      .poll(async () => {
        const all = await services.call('fixtures:list', {
          openOnly: false,
          limit: 100,
          offset: 0,
        });
        return all.fixtures.find((x) => x.contractId === f.contractId)?.startsAt ?? 0;
      }, WAIT)
      .toBeLessThan(Date.now() + 11 * 60_000);
    const refused = services.call('guards:arm', {
      contractId: f.contractId,
      outcome: f.homeTeam,
      rules: [spec({ kind: 'time_exit', minutes: 30 })],
    });
    await expect(refused).rejects.toThrow(
      /kicks off in (9|10) min, sooner than this time exit’s 30 min: it would close at once/,
    );
    expect((await services.call('guards:list', {})).rules).toEqual([]);
    await move(services, f, f.homePrice);
    expect(await contractsHeld(services, f)).toBe(10);
  });

  it('holds every rule while paused (logged once), and fires once resumed', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    const paused = await services.call('guards:pause', { paused: true });
    expect(paused.paused).toBe(true);
    const r = await arm(services, f, spec({ kind: 'stop_loss', percent: '20' }));
    await move(services, f, price(dec(f.homePrice).times('0.5')));
    await expect.poll(async () => (await rule(services, r.id))?.hold, WAIT).toBe('paused');
    await move(services, f, price(dec(f.homePrice).times('0.45')));
    await expect.poll(() => events(services, r.id), WAIT).toEqual(['armed', 'held']);
    const held = (
      await services.call('guards:log', { ruleId: r.id, event: 'held', limit: 1, offset: 0 })
    ).rows[0]!;
    expect(held).toMatchObject({ hold: 'paused' });
    expect(held.message).toMatch(/Guardians are paused: nothing fires until you resume them\.$/);
    expect(await contractsHeld(services, f)).toBe(10);

    // Resuming judges the figures at once: the condition still holds on them.
    await services.call('guards:pause', { paused: false });
    await closedLeaving(services, f, r.id, 0, ['armed', 'held', 'fired', 'sent', 'filled']);
  });

  it('holds a firing past the daily limit of closes, in words', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    await services.call('guards:configure', {
      limits: { closes: 0, contracts: null, stake: null },
      defaults: [],
    });
    const r = await arm(services, f, spec({ kind: 'stop_loss', percent: '20' }));
    await move(services, f, price(dec(f.homePrice).times('0.5')));
    await expect.poll(async () => (await rule(services, r.id))?.hold, WAIT).toBe('limit');
    expect((await rule(services, r.id))!.holdMessage).toMatch(
      /^The daily limit of 0 automatic closes is reached \(0 today\)/,
    );
    expect(await events(services, r.id)).toEqual(['armed', 'held']);
    expect(await contractsHeld(services, f)).toBe(10);
  });

  it('reports a closed market as the rule’s end, and does not try again', async () => {
    const { services, seen } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    const r = await arm(services, f, spec({ kind: 'stop_loss', percent: '20' }));
    await services.call('practice:close', { contractId: f.contractId });
    await move(services, f, price(dec(f.homePrice).times('0.5')));
    await expect.poll(async () => (await rule(services, r.id))?.state, WAIT).toBe('failed');
    expect((await rule(services, r.id))!.reason).toMatch(
      /^Betting on .* is closed, so the close was not sent\.$/,
    );
    expect(await events(services, r.id)).toEqual(['armed', 'fired', 'failed']);
    const failed = (
      await services.call('guards:log', { ruleId: r.id, event: 'failed', limit: 1, offset: 0 })
    ).rows[0]!;
    expect(failed.errorCode).toBe(-2019);
    await expect.poll(() => guardAlerts(seen).length, WAIT).toBe(2);
    // More updates change nothing: a failed rule stays failed.
    await move(services, f, price(dec(f.homePrice).times('0.45')));
    await services.call('guards:list', {});
    expect(await events(services, r.id)).toEqual(['armed', 'fired', 'failed']);
    expect(await contractsHeld(services, f)).toBe(10);
  });

  it('keeps the rules on what is left after a partial sell by hand, and they close the rest', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    // Lots of 5 in some leagues: 10 held, 5 sold by hand, 5 left.
    await hold(services, f, 10);
    const stop = await arm(services, f, spec({ kind: 'stop_loss', percent: '30' }));
    const target = await arm(services, f, spec({ kind: 'take_profit', percent: '50' }));
    await services.call(
      'order:place',
      marketBet(f, { clientOrderId: `bd-guard-hand-${++bets}`, side: 'SELL', qty: '5' }),
    );
    await expect.poll(() => contractsHeld(services, f), WAIT).toBe(5);
    await services.call('guards:list', {});
    expect((await rule(services, stop.id))?.state).toBe('armed');
    expect((await rule(services, target.id))?.state).toBe('armed');
    expect(await events(services, stop.id)).toEqual(['armed']);

    // The stop closes what is left, 5 contracts, once; the take profit then ends with it.
    await move(services, f, price(dec(f.homePrice).times('0.4')));
    await closedLeaving(services, f, stop.id, 0);
    const sells = (await services.call('orders:list', { side: 'SELL', limit: 50, offset: 0 })).rows
      .filter((o) => o.contractId === f.contractId)
      .map((o) => [o.clientOrderId.startsWith('bdg-') ? 'guardian' : 'hand', o.contracts]);
    expect(sells.sort()).toEqual([
      ['guardian', 5],
      ['hand', 5],
    ]);
    await expect.poll(async () => (await rule(services, target.id))?.state, WAIT).toBe('ended');
  });

  it('ends a position’s rules when everything is sold by hand, and sends nothing', async () => {
    const { services } = await app.start();
    const f = await midFixture(services);
    await hold(services, f, 10);
    const r = await arm(services, f, spec({ kind: 'stop_loss', percent: '20' }));
    await services.call(
      'order:place',
      marketBet(f, { clientOrderId: `bd-guard-hand-${++bets}`, side: 'SELL', qty: '10' }),
    );
    await expect.poll(() => contractsHeld(services, f), WAIT).toBe(0);
    await expect
      .poll(async () => (await rule(services, r.id))?.reason, WAIT)
      .toBe('you sold it by hand');
    expect((await rule(services, r.id))?.state).toBe('ended');
    expect(await events(services, r.id)).toEqual(['armed', 'ended']);
    await move(services, f, price(dec(f.homePrice).times('0.4')));
    const sells = (
      await services.call('orders:list', { side: 'SELL', limit: 50, offset: 0 })
    ).rows.filter((o) => o.contractId === f.contractId);
    expect(sells.map((o) => o.clientOrderId)).toEqual([`bd-guard-hand-${bets}`]);
  });
});
