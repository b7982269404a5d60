/**
 * The guardian on a real store, fed by a stand-in engine and trading service: what it does with
 * stale figures, confirmations, a spent order budget, a close by hand, a refusal, a restart with
 * a close claimed, and two guardians on one store. (guardian.app.test.ts runs it against the
 * sandbox exchange.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order, Position } from '../../../src/shared/api/schemas.js';
import { dec } from '../../../src/shared/money.js';
import { GuardBook } from '../../../src/main/guard/book.js';
import { Guardian, type GuardFeed } from '../../../src/main/guard/guardian.js';
import type { BucketSnapshot } from '../../../src/main/governor/index.js';
import type { Store } from '../../../src/main/store/index.js';
import { TypedEmitter } from '../../../src/main/sync/emitter.js';
import { markIndexRead } from '../../../src/main/sync/streams/index-reads.js';
import type { SyncEvents } from '../../../src/main/sync/events.js';
import type { OrderOutcome, OrderParams } from '../../../src/main/trading/index.js';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';
import { fixture, order, position, tempStore } from '../store/support.js';

const NOW = 1_800_000_000_000;
const POLL = 1000;
let clock = NOW;
let t: ReturnType<typeof tempStore>;
let store: Store;
let book: GuardBook;

class Feed extends TypedEmitter<SyncEvents> implements GuardFeed {
  positionsPollMs = POLL;
  passes = 0;
  syncNow(): Promise<void> {
    this.passes++;
    return Promise.resolve();
  }
}

/** Stands in for the trading service: records each placement, answers as told. */
class Trading {
  placed: OrderParams[] = [];
  answer: (p: OrderParams) => OrderOutcome = (p) => accepted(p);
  placeOrder(p: OrderParams): Promise<OrderOutcome> {
    this.placed.push(p);
    return Promise.resolve(this.answer(p));
  }
  waitForFinal(orderId: string): Promise<OrderOutcome> {
    const o = sellOrder(this.placed.at(-1)!, { orderId, status: 'FILLED' });
    return Promise.resolve({ clientOrderId: o.clientOrderId, status: 'FILLED', order: o });
  }
}

function sellOrder(p: OrderParams, over: Partial<Order> = {}): Order {
  return order(1, {
    clientOrderId: p.clientOrderId!,
    orderId: '0xabc',
    contractId: p.contractId!,
    outcome: p.outcome!,
    side: 'SELL',
    contracts: Number(p.qty),
    qty: String(p.qty),
    status: 'SUBMITTED',
    ...over,
  });
}

function accepted(p: OrderParams): OrderOutcome {
  return { clientOrderId: p.clientOrderId!, status: 'SUBMITTED', order: sellOrder(p) };
}

beforeEach(() => {
  clock = NOW;
  t = tempStore({ now: () => clock });
  store = t.store;
  book = new GuardBook({ store, now: () => clock });
  store.fixtures.upsertMany(t.accountId, [fixture('EPL-1', { startsAt: NOW + 86_400_000 })], NOW);
  snapshot({ pnlPercent: '-1.0000' });
});
afterEach(() => t.done());

/** A positions pass read now (a millisecond on): 10 contracts of ARS, with these figures. */
function snapshot(over: Partial<Position> = {}): void {
  clock += 1;
  store.replacePositions(
    t.accountId,
    [position('EPL-1', 'ARS', { contracts: 10, boosted: false, knockout: undefined, ...over })],
    clock,
  );
}

function guardian(
  feed: Feed,
  trading: Trading,
  ordersBucket: () => BucketSnapshot | undefined = () => undefined,
): Guardian {
  return new Guardian({
    store,
    book,
    accountId: t.accountId,
    bridgeId: null,
    engine: feed,
    trading,
    ordersBucket,
    now: () => clock,
  });
}

const stop = (over: Partial<GuardSpec> = {}): GuardSpec => ({
  kind: 'stop_loss',
  percent: '5',
  sharePercent: 100,
  confirmations: 1,
  ...over,
});

function arm(s: GuardSpec = stop()): number {
  return book.arm(t.accountId, { contractId: 'EPL-1', outcome: 'ARS', rules: [s] })[0]!.id;
}

const events = (ruleId: number) =>
  store.guards
    .logPage(t.accountId, { ruleId, limit: 100 })
    .rows.map((r) => (r.hold ? `${r.event}:${r.hold}` : r.event))
    .reverse();

describe('the guardian', () => {
  it('never fires on stale figures: it holds, says so once, and fires on fresh ones', async () => {
    const feed = new Feed();
    const trading = new Trading();
    const g = guardian(feed, trading);
    const id = arm();
    g.start();
    snapshot({ pnlPercent: '-6.0000' });
    clock += 2 * POLL + 1;
    g.evaluate();
    g.evaluate();
    expect(events(id)).toEqual(['armed', 'held:stale']);
    expect(g.view().rules[0]).toMatchObject({
      hold: 'stale',
      holdMessage: 'Waiting for fresh prices.',
    });
    expect(trading.placed).toEqual([]);
    snapshot({ pnlPercent: '-6.0000' });
    feed.emit('positions:synced', { accountId: t.accountId, changed: false, at: clock });
    await g.idle();
    expect(trading.placed).toEqual([
      {
        type: 'MARKET',
        contractId: 'EPL-1',
        outcome: 'ARS',
        side: 'SELL',
        qty: '10',
        unit: 'BASE',
        clientOrderId: store.guards.get(id)!.clientOrderId,
      },
    ]);
    expect(events(id)).toEqual(['armed', 'held:stale', 'fired', 'sent', 'filled']);
    expect(store.guards.get(id)!.state).toBe('closed');
    expect(feed.passes).toBe(1);
    await g.stop();
  });

  it('counts an observation once towards its confirmations', async () => {
    const feed = new Feed();
    const trading = new Trading();
    const g = guardian(feed, trading);
    const id = arm(stop({ confirmations: 2 }));
    snapshot({ pnlPercent: '-6.0000' });
    g.evaluate();
    g.evaluate();
    expect(store.guards.get(id)).toMatchObject({ state: 'armed', streak: 1 });
    clock += 100;
    snapshot({ pnlPercent: '-2.0000' });
    g.evaluate();
    expect(store.guards.get(id)).toMatchObject({ state: 'armed', streak: 0 });
    for (let i = 0; i < 2; i++) {
      clock += 100;
      snapshot({ pnlPercent: '-5.5000' });
      g.evaluate();
    }
    await g.idle();
    expect(store.guards.get(id)!.state).toBe('closed');
    expect(trading.placed).toHaveLength(1);
  });

  it('holds a firing while the order budget is spent, and says when it will send', () => {
    const feed = new Feed();
    const trading = new Trading();
    const until = new Date(NOW + 30_000);
    const g = guardian(feed, trading, () => ({
      tokens: 0,
      capacity: 10,
      refillPerSec: 1,
      queued: 0,
      inFlight: 0,
      blockedUntil: until.getTime(),
    }));
    const id = arm();
    snapshot({ pnlPercent: '-9.0000' });
    g.evaluate();
    g.evaluate();
    const hh = (n: number) => String(n).padStart(2, '0');
    const at = `${hh(until.getHours())}:${hh(until.getMinutes())}:${hh(until.getSeconds())}`;
    expect(events(id)).toEqual(['armed', 'held:budget']);
    expect(g.view().rules[0]!.holdMessage).toBe(
      `The exchange’s order budget is spent: the close is sent at ${at}.`,
    );
    expect(trading.placed).toEqual([]);
    void g.stop();
  });

  it('waits while a sell by hand is under way, keeps the rules on what is left, ends them when all is sold', async () => {
    const feed = new Feed();
    const trading = new Trading();
    const g = guardian(feed, trading);
    const id = arm(stop({ sharePercent: 50 }));
    g.start();
    /** The sell by hand as the store learns it, and the sync says so. */
    const sell = (status: Order['status']) => {
      const o = order(2, {
        clientOrderId: 'bd-by-hand',
        contractId: 'EPL-1',
        outcome: 'ARS',
        side: 'SELL',
        status,
        contracts: 4,
        createdAt: clock + 1,
        updatedAt: clock + 1,
      });
      store.orders.upsert(t.accountId, o);
      feed.emit('orders:changed', {
        accountId: t.accountId,
        orders: [o],
        cursor: 2,
        initial: false,
        at: clock,
      });
    };
    // The desk places a sell of 4 by hand: the rule's condition holds, but it waits for it.
    g.handSell('EPL-1', 'ARS');
    snapshot({ pnlPercent: '-6.0000' });
    g.evaluate();
    sell('SUBMITTED');
    snapshot({ pnlPercent: '-6.0000' });
    g.evaluate();
    expect(trading.placed).toEqual([]);
    expect(store.guards.get(id)!.state).toBe('armed');

    // It filled. The positions read just after may not count it yet: the rule still waits.
    sell('FILLED');
    snapshot({ pnlPercent: '-6.0000' });
    g.evaluate();
    expect(trading.placed).toEqual([]);
    // Read again later, 6 are left: the rule stays armed and closes half of what is left.
    clock += 2500;
    snapshot({ contracts: 6, pnlPercent: '-6.0000' });
    feed.emit('positions:synced', { accountId: t.accountId, changed: true, at: clock });
    await g.idle();
    expect(trading.placed.map((p) => p.qty)).toEqual(['3']);
    expect(events(id)).toEqual(['armed', 'fired', 'sent', 'filled']);
    await g.stop();
  });

  it('ends the rules of a position sold whole by hand, with the reason, and sends nothing', async () => {
    const feed = new Feed();
    const trading = new Trading();
    const g = guardian(feed, trading);
    const id = arm();
    g.start();
    store.orders.upsert(
      t.accountId,
      order(2, {
        clientOrderId: 'bd-by-hand',
        contractId: 'EPL-1',
        outcome: 'ARS',
        side: 'SELL',
        status: 'FILLED',
        contracts: 10,
        createdAt: clock + 1,
        updatedAt: clock + 1,
      }),
    );
    feed.emit('orders:changed', {
      accountId: t.accountId,
      orders: [store.orders.getByClientOrderId(t.accountId, 'bd-by-hand')!],
      cursor: 2,
      initial: false,
      at: clock,
    });
    clock += 1;
    store.replacePositions(t.accountId, [], clock);
    feed.emit('positions:synced', { accountId: t.accountId, changed: true, at: clock });
    expect(store.guards.get(id)).toMatchObject({ state: 'ended', reason: 'you sold it by hand' });
    expect(trading.placed).toEqual([]);
    // A guardian's own sell is not a sell by hand.
    await g.stop();
  });

  it('reports a refusal in words, ends the rule, and never sends again', async () => {
    const feed = new Feed();
    const trading = new Trading();
    trading.answer = (p) => ({
      clientOrderId: p.clientOrderId!,
      status: 'NOT_PLACED',
      error: { code: -2029, message: 'Nothing is held on that outcome to sell.' },
    });
    const g = guardian(feed, trading);
    const id = arm();
    snapshot({ pnlPercent: '-9.0000' });
    g.evaluate();
    await g.idle();
    for (let i = 0; i < 3; i++) {
      clock += 100;
      snapshot({ pnlPercent: '-9.0000' });
      g.evaluate();
    }
    await g.idle();
    expect(trading.placed).toHaveLength(1);
    expect(store.guards.get(id)).toMatchObject({
      state: 'failed',
      reason: 'Nothing is held on that outcome to sell.',
    });
    const failed = store.guards.logPage(t.accountId, { ruleId: id, event: 'failed' }).rows[0]!;
    expect(failed.errorCode).toBe(-2029);
    expect(failed.message).toMatch(/could not sell\. Nothing is held on that outcome to sell\./);
    // It sold nothing: the daily limits count no close, no contracts and no stake for it.
    expect(g.view().usedToday).toMatchObject({ closes: 0, contracts: 0 });
    expect(dec(g.view().usedToday.stake).isZero()).toBe(true);
  });

  it('logs a knockout guard on its fresh index, without the closing price of an older read', async () => {
    const trading = new Trading();
    const g = guardian(new Feed(), trading);
    // The boosted bet of 10 in the store (what the guard sells is its boosted contracts).
    store.orders.upsert(
      t.accountId,
      order(1, {
        contractId: 'EPL-1',
        outcome: 'ARS',
        side: 'BUY',
        status: 'FILLED',
        contracts: 10,
        boost: 50,
        knockout: '0.4000',
      }),
    );
    // Positions read first (before the move): closing 0.9000, P&L −1 %.
    snapshot({ boosted: true, knockout: '0.4000', estimatedClosingPrice: '0.9000' });
    const id = arm({ kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1 });
    // Then the index falls to 0.4100 and is read: 2.4 % above the knockout.
    clock += 5;
    store.fixtures.upsertMany(
      t.accountId,
      [fixture('EPL-1', { startsAt: NOW + 86_400_000, homePrice: '0.4100', awayPrice: '0.5900' })],
      clock,
    );
    markIndexRead({ store, accountId: t.accountId, now: () => clock }, ['EPL-1'], POLL);
    g.evaluate();
    await g.idle();
    const fired = store.guards.logPage(t.accountId, { ruleId: id, event: 'fired' }).rows[0]!;
    expect(fired.observation).toMatchObject({
      indexPrice: '0.4100',
      closingPrice: null,
      pnl: null,
      pnlPercent: null,
      contracts: 10,
    });
    expect(trading.placed).toHaveLength(1);
  });

  it('after a restart sends a claimed close again under the same id when it was never placed', async () => {
    const id = arm();
    const clientOrderId = `bdg-${id}-zz0001`;
    store.guards.claim(id, {
      clientOrderId,
      contracts: 10,
      stakeMicros: 1,
      observation: {
        at: clock,
        closingPrice: null,
        indexPrice: null,
        pnl: null,
        pnlPercent: null,
        contracts: 10,
      },
      at: clock,
    });
    // The crash came between the intent and the send; reconciliation found no order.
    store.intents.create({ clientOrderId, accountId: t.accountId, params: {} });
    store.intents.markFailed(clientOrderId, { code: -2025, msg: 'Not placed.' });
    const trading = new Trading();
    trading.answer = (p) =>
      store.intents.get(p.clientOrderId!)?.state === 'failed'
        ? {
            clientOrderId: p.clientOrderId!,
            status: 'NOT_PLACED',
            error: { code: -2025, message: 'no' },
          }
        : accepted(p);
    const g = guardian(new Feed(), trading);
    g.start();
    await g.idle();
    expect(trading.placed.map((p) => p.clientOrderId)).toEqual([clientOrderId, clientOrderId]);
    expect(store.guards.get(id)!.state).toBe('closed');
  });

  it('lets only one of two guardians on one store send a close', async () => {
    const id = arm();
    const a = new Trading();
    const b = new Trading();
    const ga = guardian(new Feed(), a);
    const gb = guardian(new Feed(), b);
    snapshot({ pnlPercent: '-9.0000' });
    ga.evaluate();
    gb.evaluate();
    await Promise.all([ga.idle(), gb.idle()]);
    expect(a.placed.length + b.placed.length).toBe(1);
    expect(events(id)).toEqual(['armed', 'fired', 'sent', 'filled']);
  });

  it('judges 200 positions with 3 rules each from the store alone', async () => {
    const feed = new Feed();
    feed.positionsPollMs = 3500;
    // As in the app: the screens are told of each change.
    let views = 0;
    const g = new Guardian({
      store,
      book,
      accountId: t.accountId,
      bridgeId: null,
      engine: feed,
      trading: new Trading(),
      ordersBucket: () => undefined,
      now: () => clock,
      onChange: () => views++,
    });
    const positions: Position[] = [];
    const fixtures = [];
    for (let i = 0; i < 200; i++) {
      fixtures.push(fixture(`EPL-B${i}`, { startsAt: NOW + 86_400_000 }));
      positions.push(position(`EPL-B${i}`, 'ARS', { contracts: 10, knockout: '0.3012' }));
    }
    store.fixtures.upsertMany(t.accountId, fixtures, NOW);
    store.replacePositions(t.accountId, positions, clock);
    for (let i = 0; i < 200; i++) {
      book.arm(t.accountId, {
        contractId: `EPL-B${i}`,
        outcome: 'ARS',
        rules: [
          { kind: 'knockout', percent: '2', sharePercent: 100, confirmations: 1 },
          stop({ percent: '50' }),
          { kind: 'trailing_stop', percent: '30', sharePercent: 100, confirmations: 1 },
        ],
      });
    }
    g.evaluate(); // the first sets every trailing best and position seen
    const runs: number[] = [];
    for (let i = 0; i < 50; i++) {
      clock += 10;
      const t0 = performance.now();
      g.evaluate();
      runs.push(performance.now() - t0);
    }
    runs.sort((x, y) => x - y);
    console.log(
      `evaluate, 200 positions x 3 rules: median ${runs[25]!.toFixed(2)} ms, p95 ${runs[47]!.toFixed(2)} ms`,
    );
    expect(store.guards.live(t.accountId).filter((r) => r.state === 'armed')).toHaveLength(600);
    await expect.poll(() => views).toBe(1);
  });
});
