import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/shared/api/schemas.js';
import { BLOCK_MS, buy, domain, fixture, placeAndSettle, sell } from './helpers.js';

describe('order lists', () => {
  it('lists orders newest first, filters before paging and never repeats or omits across pages', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const g = fixture(d, 'XXX', 'YYY');
    const placed: Order[] = [];
    for (let i = 0; i < 23; i++)
      placed.push(
        await d.placeOrder(w, buy(i % 2 === 0 ? f : g, i % 2 === 0 ? 'HOM' : 'XXX', '1')),
      );
    const all = d.listOrders(w, { limit: 100 });
    expect(all.total).toBe(23);
    expect(all.orders.map((o) => o.orderId)).toEqual(placed.map((o) => o.orderId).reverse());
    const seen: string[] = [];
    for (let offset = 0; offset < 23; offset += 5) {
      const page = d.listOrders(w, { limit: 5, offset });
      expect(page).toMatchObject({ total: 23, limit: 5, offset });
      seen.push(...page.orders.map((o) => o.orderId));
    }
    expect(seen).toEqual(all.orders.map((o) => o.orderId));
    expect(d.listOrders(w, { offset: 500 })).toMatchObject({ orders: [], total: 23, offset: 500 });
    expect(d.listOrders(w, {}).limit).toBe(50);
    const filtered = d.listOrders(w, { contractId: f.contractId.toLowerCase(), limit: 3 });
    expect(filtered.total).toBe(12);
    expect(filtered.orders).toHaveLength(3);
    expect(d.listOrders(w, { team: 'xxx' }).total).toBe(11);
    expect(d.listOrders(w, { status: 'FILLED' }).total).toBe(0);
    d.advanceClock(BLOCK_MS);
    expect(d.listOrders(w, { status: 'FILLED' }).total).toBe(23);
  });

  it('shows a wallet only its own orders', async () => {
    const d = await domain();
    const a = d.createWallet();
    const b = d.createWallet();
    const f = fixture(d);
    await d.placeOrder(a, buy(f, 'HOM', '1'));
    expect(d.listOrders(b, {}).total).toBe(0);
    expect(d.orderUpdates(b, undefined).orders).toEqual([]);
  });
});

describe('order updates cursor', () => {
  it('returns every order without since, then only changes, and advances with nothing new', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await d.placeOrder(w, buy(f, 'HOM', '1'));
    await d.placeOrder(w, buy(f, 'HOM', '1'));
    const first = d.orderUpdates(w, undefined);
    expect(first.orders).toHaveLength(2);
    const quiet = d.orderUpdates(w, first.cursor);
    expect(quiet.orders).toEqual([]);
    expect(quiet.cursor).toBeGreaterThanOrEqual(first.cursor);
    d.advanceClock(BLOCK_MS);
    const changed = d.orderUpdates(w, quiet.cursor);
    expect(changed.orders.map((o) => o.status)).toEqual(['FILLED', 'FILLED']);
    expect(changed.cursor).toBeGreaterThan(quiet.cursor);
    // an older cursor replays more, never an error
    expect(d.orderUpdates(w, 0).orders).toHaveLength(2);
  });

  it('never loses an update when many orders change within the same millisecond', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '1000'));
    const latest = new Map<string, number>();
    const missed: string[] = [];
    let cursor: number | undefined;
    const drain = (): void => {
      const u = d.orderUpdates(w, cursor);
      cursor = u.cursor;
      for (const o of u.orders) {
        if (o.updatedAt <= (latest.get(o.orderId) ?? -1)) missed.push(`${o.orderId} went back`);
        latest.set(o.orderId, o.updatedAt);
      }
      // Nothing changed since the poll, so what was seen must be the current state of every
      // order. Plain comparisons keep this fast, so the next changes share the poll's millisecond.
      for (let offset = 0; ; offset += 100) {
        const page = d.listOrders(w, { limit: 100, offset }).orders;
        if (page.length === 0) break;
        for (const o of page) {
          if (latest.get(o.orderId) !== o.updatedAt) missed.push(`${o.orderId}@${o.updatedAt}`);
        }
      }
    };
    for (let round = 0; round < 20; round++) {
      // a burst of placements, a poll in the middle of it, then more changes: all synchronous,
      // so most of them share the same clock millisecond
      const burst: Promise<Order>[] = [];
      for (let i = 0; i < 10; i++)
        burst.push(d.placeOrder(w, i % 3 === 0 ? sell(f, 'HOM', '1') : buy(f, 'HOM', '1')));
      drain();
      for (let i = 0; i < 10; i++) burst.push(d.placeOrder(w, buy(f, 'HOM', '1')));
      await Promise.all(burst);
      drain();
      if (round % 4 === 3) {
        d.advanceClock(BLOCK_MS);
        drain();
      }
    }
    d.advanceClock(BLOCK_MS);
    drain();
    expect(missed).toEqual([]);
    expect(latest.size).toBe(d.listOrders(w, {}).total);
  });

  it('stamps every change strictly later than any cursor handed out before it', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    for (let i = 0; i < 50; i++) {
      const { cursor } = d.orderUpdates(w, undefined);
      const o = await d.placeOrder(w, buy(f, 'HOM', '1'));
      expect(o.updatedAt).toBeGreaterThan(cursor);
      expect(d.orderUpdates(w, cursor).orders.map((u) => u.orderId)).toEqual([o.orderId]);
    }
  });
});

describe('fixture list', () => {
  it('pages and filters fixtures ordered by kick-off then contractId', async () => {
    const d = await domain();
    const all = d.listFixtures({ limit: 100 });
    const sorted = [...all.fixtures].sort(
      (a, b) => a.startsAt - b.startsAt || a.contractId.localeCompare(b.contractId),
    );
    expect(all.fixtures.map((f) => f.contractId)).toEqual(sorted.map((f) => f.contractId));
    const open = d.listFixtures({ bettingOpen: 'true', limit: 100 });
    expect(open.fixtures.length).toBeGreaterThan(0);
    expect(open.fixtures.every((f) => f.bettingOpen)).toBe(true);
    const notOpen = d.listFixtures({ bettingOpen: 'false', limit: 100 });
    expect(open.total + notOpen.total).toBe(all.total);
    const nba = d.listFixtures({ league: 'nba', limit: 100 });
    expect(nba.total).toBeGreaterThan(0);
    expect(nba.fixtures.every((f) => f.league === 'NBA')).toBe(true);
    const team = all.fixtures[0]!.awayTeam;
    const byTeam = d.listFixtures({ team: team.toLowerCase(), limit: 100 });
    expect(byTeam.fixtures.length).toBeGreaterThan(0);
    expect(byTeam.fixtures.every((f) => f.homeTeam === team || f.awayTeam === team)).toBe(true);
    expect(d.listFixtures({ limit: 2, offset: 1 }).fixtures.map((f) => f.contractId)).toEqual(
      all.fixtures.slice(1, 3).map((f) => f.contractId),
    );
    expect(d.listFixtures({ offset: 1000 })).toMatchObject({ fixtures: [], total: all.total });
  });
});
