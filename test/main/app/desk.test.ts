/**
 * The betting desk's services with their real parts: paper mode (the sandbox exchange in
 * process, over HTTP), the store in a temp dir, the sync engine, the knockout watch. What a
 * user does at the desk, end to end below the bridge.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import { PRACTICE_REFUSED } from '../../../src/main/practice/feature.js';
import { Refusal } from '../../../src/main/refusal.js';
import { dispatch } from '../../../src/main/ipc/handlers.js';
import type {
  AlertRaised,
  BetTerms,
  Fixture,
  OrderRow,
  OrdersChanged,
  PositionsChanged,
} from '../../../src/shared/ipc/contract.js';
import { nearKnockoutPrice, pastKnockoutPrice } from '../../../src/shared/rules/knockout.js';
import { dec } from '../../../src/shared/money.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { addLiveAccount, AppHarness, marketBet, type Seen } from './support.js';

const app = new AppHarness('desk');
const sandboxes: Sandbox[] = [];

afterEach(async () => {
  await app.cleanup();
  for (const s of sandboxes.splice(0)) await s.close();
});

const start = () => app.start();

/** Fixtures open for betting, once the first sync stored them. */
async function openFixtures(services: AppServices): Promise<Fixture[]> {
  const all = { openOnly: true, limit: 100, offset: 0 };
  await expect
    .poll(async () => (await services.call('fixtures:list', all)).total, { timeout: 20_000 })
    .toBeGreaterThan(2);
  return (await services.call('fixtures:list', all)).fixtures;
}

let bets = 0;
const newClientOrderId = () => `bd-test-${Date.now().toString(36)}-${++bets}`;

/** A MARKET placement of a new bet (or of `clientOrderId`), 2 contracts unless told. */
const market = (f: Fixture, over: Partial<BetTerms> & { clientOrderId?: string } = {}) =>
  marketBet(f, { clientOrderId: newClientOrderId(), ...over });

function rowsFor(seen: Seen[], clientOrderId: string): OrderRow[] {
  return seen
    .filter((s) => s.event === 'orders:changed')
    .flatMap((s) => (s.payload as OrdersChanged).rows)
    .filter((r) => r.clientOrderId === clientOrderId);
}

function alerts(seen: Seen[], kind?: string): AlertRaised[] {
  return seen
    .filter((s) => s.event === 'alert:raised')
    .map((s) => s.payload as AlertRaised)
    .filter((a) => kind === undefined || a.alert.kind === kind);
}

/** Quotes and places a FOK BUY; resolves with the placement's answer. */
async function buy(services: AppServices, f: Fixture, qty: string, boost = 0, outcome?: string) {
  const { quote } = await services.call('quote:request', {
    contractId: f.contractId,
    outcome: outcome ?? f.homeTeam,
    side: 'BUY',
    qty,
    unit: 'BASE',
    boost,
  });
  const id = newClientOrderId();
  const placed = await services.call('order:place', {
    clientOrderId: id,
    type: 'FOK',
    rfqId: quote.rfqId,
  });
  return { id, quote, placed };
}

async function refusal(p: Promise<unknown>): Promise<Refusal> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Refusal);
  return err as Refusal;
}

describe('the betting desk', () => {
  it('places a FOK on a quote, follows it to Filled by the update cursor, and shows the position', async () => {
    const { services, seen } = await start();
    const [f] = await openFixtures(services);
    const { id, quote, placed } = await buy(services, f!, '5');

    expect(placed.repeated).toBe(false);
    expect(placed.row).toMatchObject({
      clientOrderId: id,
      status: 'SUBMITTED',
      side: 'BUY',
      orderType: 'FOK',
      outcome: f!.homeTeam,
      contracts: quote.contracts,
      entryPrice: quote.entryPrice,
    });
    expect(placed.row.fixture).toMatchObject({ homeTeam: f!.homeTeam, awayTeam: f!.awayTeam });

    await expect
      .poll(() => rowsFor(seen, id).map((r) => r.status), { timeout: 20_000 })
      .toContain('FILLED');
    await expect.poll(() => alerts(seen, 'filled').length, { timeout: 10_000 }).toBe(1);
    expect(alerts(seen, 'filled')[0]!.alert.message).toMatch(/^Filled: bought 5 contracts of/);

    await expect
      .poll(
        () =>
          seen
            .filter((s) => s.event === 'positions:changed')
            .flatMap((s) => (s.payload as PositionsChanged).view.positions)
            .some((p) => p.contractId === f!.contractId && p.contracts === quote.contracts),
        { timeout: 20_000 },
      )
      .toBe(true);
    const view = await services.call('positions:list', {});
    const position = view.positions.find((p) => p.contractId === f!.contractId)!;
    expect(position.fixture?.league).toBe(f!.league);
    expect(position.knockout).toBeNull();
    expect(view.snapshotAt).not.toBeNull();
    expect(view.staleAfterMs).toBe(2 * view.pollMs);

    const page = await services.call('orders:list', { limit: 100, offset: 0 });
    expect(page.rows.map((r) => r.clientOrderId)).toContain(id);
    expect(
      (await services.call('orders:get', { clientOrderId: id }).then((r) => r.row))?.status,
    ).toBe('FILLED');
  });

  it('places one order for one bet, however often or however fast it is repeated', async () => {
    const { services } = await start();
    const [f] = await openFixtures(services);
    const { quote } = await services.call('quote:request', {
      contractId: f!.contractId,
      outcome: f!.awayTeam,
      side: 'BUY',
      qty: '3',
      unit: 'BASE',
      boost: 0,
    });
    const id = newClientOrderId();
    const input = { clientOrderId: id, type: 'FOK' as const, rfqId: quote.rfqId };
    // A double click: both requests before either answer.
    const [a, b] = await Promise.all([
      services.call('order:place', input),
      services.call('order:place', input),
    ]);
    const again = await services.call('order:place', input);
    expect([a.repeated, b.repeated].sort()).toEqual([false, true]);
    expect(again.repeated).toBe(true);
    expect(new Set([a.row.orderId, b.row.orderId, again.row.orderId]).size).toBe(1);

    // A second bet (another window) on the same quote is refused before it is sent.
    const other = await refusal(
      services.call('order:place', {
        clientOrderId: newClientOrderId(),
        type: 'FOK',
        rfqId: quote.rfqId,
      }),
    );
    expect(other.kind).toBe('conflict');
    expect(other.message).toMatch(/already used/);

    const session = services.session()!;
    const onExchange = await session.client.orders({ limit: 100 });
    expect(onExchange.orders.filter((o) => o.clientOrderId === id)).toHaveLength(1);
    expect(onExchange.total).toBe(1);
  });

  it('places a boosted MARKET bet with the slip’s size, unit and boost', async () => {
    const { services, seen } = await start();
    const [f] = await openFixtures(services);
    const id = newClientOrderId();
    const placed = await services.call(
      'order:place',
      market(f!, { clientOrderId: id, qty: '20', unit: 'QUOTE', boost: 40 }),
    );
    expect(placed.row).toMatchObject({ orderType: 'MARKET', unit: 'QUOTE', qty: '20', boost: 40 });
    expect(placed.row.knockout).toMatch(/^0\.\d+$/);
    await expect
      .poll(() => rowsFor(seen, id).map((r) => r.status), { timeout: 20_000 })
      .toContain('FILLED');
  });

  it('explains refusals the store already knows, and sends nothing', async () => {
    // No margin between a fill's time and the snapshot's, so nothing waits it out.
    const { services } = await app.start({ clockMarginMs: 0 });
    const fixtures = await openFixtures(services);
    const f = fixtures[0]!;
    await buy(services, f, '2');
    const session = services.session()!;
    // Wait until the store's positions show the holding (and are newer than the fill).
    await expect
      .poll(
        async () => {
          await session.engine.syncNow('orders', 'positions');
          return (await services.call('positions:list', {})).positions.length;
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await session.engine.syncNow('positions');
    const sent = (await session.client.orders({ limit: 100 })).total;

    const opposite = await refusal(
      services.call('order:place', market(f, { outcome: f.awayTeam })),
    );
    expect(opposite).toMatchObject({ kind: 'exchange', code: -2030 });
    expect(opposite.message).toContain(`You hold ${f.homeTeam}`);

    const g = fixtures[1]!;
    const nothing = await refusal(services.call('order:place', market(g, { side: 'SELL' })));
    expect(nothing).toMatchObject({ kind: 'exchange', code: -2029 });

    // A kick-off moved by practice (a guardian's time exit) reaches the markets.
    const before = Date.now();
    const moved = await services.call('practice:kickoff', {
      contractId: g.contractId,
      minutes: 30,
    });
    expect(moved.message).toMatch(/now kicks off in 30 minutes\.$/);
    await expect
      .poll(
        async () =>
          (
            await services.call('fixtures:list', { openOnly: false, limit: 100, offset: 0 })
          ).fixtures.find((x) => x.contractId === g.contractId)?.startsAt ?? 0,
        { timeout: 20_000 },
      )
      .toBeGreaterThanOrEqual(before + 30 * 60_000 - 5_000);

    await services.call('practice:close', { contractId: g.contractId });
    await expect
      .poll(
        async () =>
          (
            await services.call('fixtures:list', { openOnly: false, limit: 100, offset: 0 })
          ).fixtures.find((x) => x.contractId === g.contractId)?.bettingOpen,
        { timeout: 20_000 },
      )
      .toBe(false);
    const closed = await refusal(services.call('order:place', market(g)));
    expect(closed).toMatchObject({ kind: 'exchange', code: -2019 });
    expect(closed.message).toContain('is closed');

    expect((await session.client.orders({ limit: 100 })).total).toBe(sent);
  });

  it('rehearses a knockout: near alert, then knocked out, the position gone', async () => {
    const { services, seen } = await start();
    const [f] = await openFixtures(services);
    const { placed } = await buy(services, f!, '10', 50);
    const knockout = placed.row.knockout!;
    expect(knockout).toMatch(/^0\.\d+$/);
    await expect
      .poll(async () => (await services.call('positions:list', {})).positions.length, {
        timeout: 20_000,
      })
      .toBe(1);

    // The practice panel's "Move near the knockout": the index just above the knockout, inside
    // the deepest alert level (the distance is measured on the index), not knocked out.
    const near = nearKnockoutPrice(knockout);
    const moved = await services.call('practice:price', {
      contractId: f!.contractId,
      outcome: f!.homeTeam,
      indexPrice: near,
    });
    expect(moved.message).toMatch(
      new RegExp(`index price is now ${near}, [\\d.]+% above the knockout \\(${knockout}\\)`),
    );
    await expect.poll(() => alerts(seen, 'near').length, { timeout: 20_000 }).toBeGreaterThan(0);
    const nearAlert = alerts(seen, 'near')[0]!;
    expect(nearAlert.alert.knockout).toBe(knockout);
    expect(nearAlert.notify).toBe(true);
    expect(nearAlert.summary.unreadDanger).toBeGreaterThan(0);
    const row = (await services.call('positions:list', {})).positions[0]!;
    expect(row.nearLevel).toBe('0.02');
    expect(row.indexPrice).toBe(near);
    expect(row.knockoutDistance).toEqual({
      price: dec(near).minus(knockout).toFixed(4),
      fraction: dec(near).minus(knockout).dividedBy(near).toFixed(4),
    });
    expect(nearAlert.alert.message).toContain(`index price ${near}`);
    expect(nearAlert.summary.nearKnockout).toBe(1); // the tray's "1 position near knockout"

    // "Move past the knockout".
    const past = pastKnockoutPrice(knockout);
    const out = await services.call('practice:price', {
      contractId: f!.contractId,
      outcome: f!.homeTeam,
      indexPrice: past,
    });
    expect(out.message).toContain('1 boosted position was knocked out');
    await expect.poll(() => alerts(seen, 'knocked_out').length, { timeout: 30_000 }).toBe(1);
    await expect
      .poll(async () => (await services.call('positions:list', {})).positions.length, {
        timeout: 20_000,
      })
      .toBe(0);

    const page = await services.call('alerts:list', { limit: 50, offset: 0 });
    expect(page.alerts.map((a) => a.kind)).toEqual(
      expect.arrayContaining(['near', 'knocked_out', 'filled']),
    );
    expect(page.summary.unread).toBe(page.total);
    const summary = await services.call('alerts:read', { all: true });
    expect(summary).toMatchObject({ unread: 0, unreadDanger: 0 });
    expect(
      (await services.call('alerts:list', { limit: 50, offset: 0, unreadOnly: true })).total,
    ).toBe(0);
  });

  it('closes a position with a SELL through the same path, and it disappears', async () => {
    const { services, seen } = await start();
    const [f] = await openFixtures(services);
    const { quote } = await buy(services, f!, '4');
    await expect
      .poll(async () => (await services.call('positions:list', {})).positions.length, {
        timeout: 20_000,
      })
      .toBe(1);
    const sell = await services.call('quote:request', {
      contractId: f!.contractId,
      outcome: f!.homeTeam,
      side: 'SELL',
      qty: String(quote.contracts),
      unit: 'BASE',
      boost: 0,
    });
    expect(sell.quote.isOpen).toBe(false);
    const id = newClientOrderId();
    const placed = await services.call('order:place', {
      clientOrderId: id,
      type: 'FOK',
      rfqId: sell.quote.rfqId,
    });
    expect(placed.row.side).toBe('SELL');
    await expect
      .poll(() => rowsFor(seen, id).map((r) => r.status), { timeout: 20_000 })
      .toContain('FILLED');
    await expect
      .poll(async () => (await services.call('positions:list', {})).positions.length, {
        timeout: 20_000,
      })
      .toBe(0);
    const filled = rowsFor(seen, id).find((r) => r.status === 'FILLED')!;
    expect(filled.proceeds).toMatch(/^\d+\.\d+$/);
  });

  it('shows a rejection after acceptance in words, as a row and an alert', async () => {
    const { services, seen } = await start();
    const [f] = await openFixtures(services);
    await services.call('practice:reject', {});
    const { id, placed } = await buy(services, f!, '2');
    expect(placed.row.status).toBe('SUBMITTED');
    await expect
      .poll(() => rowsFor(seen, id).map((r) => r.status), { timeout: 20_000 })
      .toContain('REJECTED');
    const rejected = rowsFor(seen, id).find((r) => r.status === 'REJECTED')!;
    expect(rejected.error).toMatchObject({ code: -2024 });
    expect(rejected.error!.message).toMatch(/reverted/i);
    await expect.poll(() => alerts(seen, 'rejected').length, { timeout: 10_000 }).toBe(1);
    expect(alerts(seen, 'rejected')[0]!.alert.message).toMatch(/^Rejected: your FOK bet on/);

    const rejectedOnly = await services.call('orders:list', {
      status: 'rejected',
      limit: 50,
      offset: 0,
    });
    expect(rejectedOnly.rows.map((r) => r.clientOrderId)).toEqual([id]);
  });

  it('lists an order the exchange refused before broadcast as Not placed, with the reason', async () => {
    const { services } = await start();
    const [f] = await openFixtures(services);
    // More contracts than the exchange can take: refused with -1102 naming the capacity.
    const tooMuch = market(f!, { qty: '999999999' });
    const id = tooMuch.clientOrderId;
    const placed = await services.call('order:place', tooMuch);
    expect(placed.row.status).toBe('NOT_PLACED');
    expect(placed.row.error?.message).toMatch(/capacity/);
    const notPlaced = await services.call('orders:list', {
      status: 'not_placed',
      limit: 50,
      offset: 0,
    });
    expect(notPlaced.rows.map((r) => r.clientOrderId)).toEqual([id]);
    expect(notPlaced.rows[0]).toMatchObject({
      side: 'BUY',
      outcome: f!.homeTeam,
      qty: '999999999',
    });
    // Placing the same bet again answers the same refusal; nothing new is sent.
    const again = await services.call('order:place', tooMuch);
    expect(again).toMatchObject({ repeated: true, row: { status: 'NOT_PLACED' } });
  });

  it('applies new alert levels at once and keeps them per account across a restart', async () => {
    const { services } = await start();
    await openFixtures(services);
    expect((await services.call('alerts:settings', {})).levels).toEqual(['0.1', '0.05', '0.02']);
    const next = await services.call('alerts:configure', {
      levels: ['0.02', '0.25'],
      margin: '0.005',
      notify: { near: true, knocked_out: true, filled: false, rejected: true, guard: true },
    });
    expect(next.levels).toEqual(['0.25', '0.02']);
    const bad = await refusal(
      services.call('alerts:configure', { ...next, levels: ['0.05', '0.05'] }),
    );
    expect(bad.kind).toBe('invalid-input');
    expect((await services.call('settings:set', { oneClickBetting: true })).oneClickBetting).toBe(
      true,
    );

    await app.stop(services);
    const { services: again } = await start();
    expect(await again.call('alerts:settings', {})).toEqual(next);
    expect((await again.call('settings:get', {})).oneClickBetting).toBe(true);
  });

  it('refuses every practice call on a live account: the sandbox is never reached', async () => {
    const sandbox = await startSandbox({ blockMs: 50 });
    sandboxes.push(sandbox);
    const { services } = await start();
    const [f] = await openFixtures(services);
    const account = await addLiveAccount(services, sandbox);
    await services.call('accounts:switch', { accountId: account.id });
    expect((await services.call('app:info', {})).mode).toBe('live');
    const paperPrice = f!.homePrice;

    for (const call of [
      () =>
        services.call('practice:price', {
          contractId: f!.contractId,
          outcome: f!.homeTeam,
          indexPrice: '0.2',
        }),
      () => services.call('practice:close', { contractId: f!.contractId }),
      () => services.call('practice:kickoff', { contractId: f!.contractId, minutes: 5 }),
      () => services.call('practice:resolve', { contractId: f!.contractId, winner: 'DRAW' }),
      () => services.call('practice:reject', {}),
    ]) {
      const err = await refusal(call());
      expect(err.kind).toBe('conflict');
      expect(err.message).toMatch(/only in paper mode/);
    }
    // Over the bridge, as a forged message from a page would arrive: refused in words.
    const forged = await dispatch(services.handlers, 'practice:resolve', {
      contractId: f!.contractId,
      winner: f!.homeTeam,
    });
    expect(forged).toEqual({
      ok: false,
      error: { kind: 'conflict', message: PRACTICE_REFUSED },
    });
    // The paper exchange was not touched either.
    await services.call('accounts:switch', { accountId: null });
    const after = (
      await services.call('fixtures:list', { openOnly: false, limit: 100, offset: 0 })
    ).fixtures.find((x) => x.contractId === f!.contractId)!;
    expect(after.homePrice).toBe(paperPrice);
    expect(after.bettingOpen).toBe(true);
  });
});
