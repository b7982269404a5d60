/**
 * Every bet adds up, whenever it was synced (docs/pnl.md; issue 28 item 10): random histories on
 * the real sandbox over HTTP (seeded), buys with boosts 0–100, partial sells, index moves that
 * knock boosted lots out, a result. Three stores follow the same wallet: one synced after every
 * step, one only at the end (then a history resync), one at random moments. In each, every
 * settlement row's realized P&L is known (every order is in the store), and a position's rows add
 * up to the cash that moved: payouts + sell proceeds − buy costs, to the cent. The three stores
 * agree row by row (within the cent where one used the exchange's costBasis and another the
 * orders'); the Portfolio's realized total is the rows added up; the CSV the app writes and the
 * one the CLI writes are the same bytes.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient, ExchangeError } from '../../../src/main/client/index.js';
import { exportSettlementsCsv } from '../../../src/main/export/csv.js';
import { portfolioView } from '../../../src/main/portfolio/reads.js';
import type { Store } from '../../../src/main/store/index.js';
import { SyncEngine } from '../../../src/main/sync/index.js';
import type { Order } from '../../../src/shared/api/schemas.js';
import { add, dec, fromMicros, sub } from '../../../src/shared/money.js';
import { runInProcess } from '../cli/in-process.js';
import {
  buy,
  newFixture,
  sell,
  startWorld,
  tempStore,
  untilFinal,
  type TempStore,
  type World,
} from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});
afterAll(async () => {
  await world.close();
});

type Step =
  | { kind: 'buy'; contracts: number; boost: number }
  | { kind: 'sell'; percent: number }
  | { kind: 'price'; ticks: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    contracts: fc.integer({ min: 1, max: 20 }),
    boost: fc.constantFrom(0, 0, 20, 50, 80, 100),
  }),
  fc.record({ kind: fc.constant('sell' as const), percent: fc.integer({ min: 10, max: 100 }) }),
  // Low prices knock boosted lots out; a move back up lets the rest be sold at a profit.
  fc.record({
    kind: fc.constant('price' as const),
    ticks: fc.oneof(fc.integer({ min: 500, max: 3000 }), fc.integer({ min: 3000, max: 9500 })),
  }),
);

interface Follower {
  db: TempStore;
  engine: SyncEngine;
  client: ExchangeClient;
}

function follower(): Follower {
  const db = tempStore(world.account.apiKey, world.sandbox.url);
  const client = new ExchangeClient({
    baseUrl: world.sandbox.url,
    credentials: world.account,
    account: world.account.wallet,
  });
  return {
    db,
    client,
    engine: new SyncEngine({ client, store: db.store, accountId: db.accountId }),
  };
}

const syncAll = (f: Follower) => f.engine.syncNow('orders', 'settlements', 'positions');

interface Row {
  contract_id: string;
  type: string;
  payout: string | null;
  realized_micros: number | null;
  pnl_source: string;
}
const rowsOf = (store: Store, contractId: string) =>
  store.db
    .prepare(
      `SELECT contract_id, type, payout, realized_micros, pnl_source FROM settlements
       WHERE contract_id = ? ORDER BY type, timestamp_ms, tx`,
    )
    .all(contractId) as Row[];

const filledOn = (store: Store, contractId: string) =>
  store.db
    .prepare(`SELECT side, cost, proceeds FROM orders WHERE contract_id = ? AND status = 'FILLED'`)
    .all(contractId) as Pick<Order, 'side' | 'cost' | 'proceeds'>[];

/** The rows' realized P&L and the cash of the orders and payouts on one fixture. */
function sums(store: Store, contractId: string): { realized: string; cash: string; rows: Row[] } {
  const rows = rowsOf(store, contractId);
  const orders = filledOn(store, contractId);
  const realized = add('0', ...rows.map((r) => fromMicros(r.realized_micros ?? 0)));
  const cash = sub(
    add(
      '0',
      ...rows.flatMap((r) => (r.payout === null ? [] : [r.payout])),
      ...orders.flatMap((o) => (o.side === 'SELL' ? [o.proceeds ?? 'NaN'] : [])),
    ),
    add('0', ...orders.flatMap((o) => (o.side === 'BUY' ? [o.cost] : []))),
  );
  return { realized, cash, rows };
}

describe('a random history, synced at random moments', () => {
  it('adds up to the cash in every store, and the stores agree', async () => {
    /** Runs whose position was knocked out in part, then settled: the case issue 28 found. */
    let knockedThenSettled = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 3, maxLength: 10 }),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        fc.boolean(),
        async (steps, gaps, homeWins) => {
          const every = follower();
          const end = follower();
          const some = follower();
          const all = [every, end, some];
          try {
            const { client, sandbox } = world;
            const f = await newFixture(sandbox);
            for (const [i, s] of steps.entries()) {
              if (s.kind === 'buy') {
                // A boost whose knockout would be at or above the index is refused (-1102).
                const placed = await client
                  .placeOrder(buy(f, s.contracts, s.boost))
                  .catch((err: unknown) => {
                    if (err instanceof ExchangeError && err.code === -1102) return null;
                    throw err;
                  });
                if (placed !== null) await untilFinal(client, placed.order.orderId);
              } else if (s.kind === 'sell') {
                const held = (await client.positions({ contractId: f.contractId })).positions[0];
                const n = held === undefined ? 0 : Math.ceil((held.contracts * s.percent) / 100);
                if (n > 0) {
                  const placed = await client.placeOrder(sell(f, n));
                  await untilFinal(client, placed.order.orderId);
                }
              } else {
                const index = dec(s.ticks).dividedBy(10_000).toFixed(4);
                sandbox.domain.setPrice(f.contractId, f.homeTeam, index);
              }
              await syncAll(every);
              if (gaps[i] === true) await syncAll(some);
            }
            sandbox.domain.resolveFixture(f.contractId, homeWins ? f.homeTeam : f.awayTeam);
            for (const x of all) await syncAll(x);
            await end.engine.resyncHistory();

            const figures = all.map((x) => sums(x.db.store, f.contractId));
            for (const { realized, cash, rows } of figures) {
              expect(rows.filter((r) => r.pnl_source === 'unknown')).toEqual([]);
              // Each SETTLEMENT may use the exchange's costBasis, rounded half-even apart.
              const settled = rows.filter((r) => r.type === 'SETTLEMENT').length;
              const off = dec(sub(realized, cash)).abs();
              expect(off.lte(dec('0.01').times(settled)), `${realized} vs cash ${cash}`).toBe(true);
            }
            const types = new Set(figures[0]!.rows.map((r) => r.type));
            if (types.has('KNOCKED_OUT') && types.has('SETTLEMENT')) knockedThenSettled++;
            const [a, b, c] = figures;
            expect(b!.rows.length).toBe(a!.rows.length);
            expect(c!.rows.length).toBe(a!.rows.length);
            a!.rows.forEach((r, k) => {
              for (const other of [b!.rows[k]!, c!.rows[k]!]) {
                expect(other.type).toBe(r.type);
                expect(
                  Math.abs((other.realized_micros ?? 0) - (r.realized_micros ?? 0)),
                ).toBeLessThanOrEqual(10_000);
              }
            });
            for (const x of all) {
              const view = portfolioView(
                x.db.store,
                { scope: { kind: 'account', accountId: String(x.db.accountId) } },
                Date.now(),
              );
              const rows = x.db.store.db
                .prepare('SELECT coalesce(sum(realized_micros), 0) FROM settlements')
                .pluck()
                .get() as number;
              expect(view.realized).toBe(fromMicros(rows));
            }
            // The CSV of the store synced at random moments: the app's writer and the CLI's.
            const dir = path.dirname(some.db.file);
            const app = path.join(dir, 'app.csv');
            const cli = path.join(dir, 'cli.csv');
            await exportSettlementsCsv(some.db.store, app, { accountId: some.db.accountId });
            const ran = await runInProcess(some.db.file, ['export', 'settlements', '--out', cli]);
            expect(ran.code, ran.stderr).toBe(0);
            expect(readFileSync(cli, 'utf8')).toBe(readFileSync(app, 'utf8'));
          } finally {
            for (const x of all) {
              await x.engine.stop();
              await x.client.close();
              x.db.cleanup();
            }
          }
        },
      ),
      { seed: 2811, numRuns: 30 },
    );
    // The property is about knockouts between trades: this seed makes some.
    expect(knockedThenSettled).toBeGreaterThan(2);
  }, 300_000);
});
