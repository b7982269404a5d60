/**
 * Every bet adds up (issue 28): a model of one wallet's lots on the sandbox, driven by random buys,
 * sells, index moves, knockouts, closes of betting and resolutions, with the checks made after
 * every step and at the end of every position (docs/api.md 2.5 to 2.7 and the sandbox's reading of
 * them at GET /docs). The domain's property test and the one over HTTP share it, each through its
 * own Driver.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Order, Position, Settlement } from '../../src/shared/api/schemas.js';
import { Dec, dec, price, usd, usdFloor } from '../../src/shared/money.js';

export interface Market {
  contractId: string;
  home: string;
  away: string;
}

/** What the checks need of an exchange: the domain in process, or the sandbox over HTTP. */
export interface Driver {
  /** A fresh fixture (lot size 1, minimum 1) whose home index is `homePrice`. */
  market(homePrice: string): Promise<Market>;
  /** A MARKET order in contracts, after its block; undefined when refused before its 202. */
  order(
    m: Market,
    outcome: string,
    side: 'BUY' | 'SELL',
    contracts: number,
    boost: number,
  ): Promise<Order | undefined>;
  setPrice(m: Market, outcome: string, indexPrice: string): Promise<number>;
  closeBetting(m: Market): Promise<void>;
  resolve(m: Market, winner: string): Promise<void>;
  positions(): Promise<Position[]>;
  /** The wallet's settlement rows on one outcome, newest first. */
  settlements(m: Market, outcome: string): Promise<Settlement[]>;
}

type Where = { market: number; away: boolean };
export type Step =
  | (Where & { kind: 'buy'; contracts: number; boost: number })
  | (Where & { kind: 'sell'; contracts: number })
  | (Where & { kind: 'sellAll' })
  | (Where & { kind: 'move'; by: number })
  | (Where & { kind: 'knockout'; below: number })
  | { kind: 'close'; market: number }
  | { kind: 'resolve'; market: number; winner: 'home' | 'away' | 'DRAW' };

export const MARKETS = 2;

// Mostly the home team, so that fewer buys meet the other outcome held (-2030).
const where = {
  market: fc.integer({ min: 0, max: MARKETS - 1 }),
  away: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
};
const boost = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 }), fc.constant(100));
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      ...where,
      contracts: fc.integer({ min: 1, max: 400 }),
      boost,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('sell' as const),
      ...where,
      contracts: fc.integer({ min: 1, max: 300 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sellAll' as const), ...where }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      ...where,
      by: fc.integer({ min: -400, max: 400 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('knockout' as const),
      ...where,
      below: fc.integer({ min: 0, max: 40 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('close' as const), market: where.market }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('resolve' as const),
      market: where.market,
      winner: fc.constantFrom('home' as const, 'away' as const, 'DRAW' as const),
    }),
  },
);

/** A run: the markets' starting home index (in ticks of 0.0001) and the steps. */
export interface Run {
  starts: number[];
  steps: Step[];
}

export const runs: fc.Arbitrary<Run> = fc.record({
  starts: fc.array(fc.integer({ min: 500, max: 9500 }), { minLength: MARKETS, maxLength: MARKETS }),
  steps: fc.array(step, { minLength: 4, maxLength: 30, size: 'max' }),
});

interface Lot {
  contracts: number;
  entryPrice: string;
  collateralPerContract: Dec;
  loan: Dec;
  cost: Dec;
  knockout?: string;
}

/** One position from open to flat: its lots and the money that moved. */
interface Life {
  lots: Lot[];
  bought: Dec;
  proceeds: Dec;
  sold: number;
  soldNotional: Dec;
  knocked: number;
  knockedNotional: Dec;
}

interface MarketState {
  m: Market;
  homeTicks: number;
  status: 'OPEN' | 'CLOSED' | 'RESOLVED';
}

const BOOST_LOAN_PER_POINT = dec('0.009');
const CENT = dec('0.01');

const ticksPrice = (ticks: number): string => dec(ticks).dividedBy(10_000).toFixed(4);
const held = (life: Life): number => life.lots.reduce((n, l) => n + l.contracts, 0);
const sum = (lots: Lot[], f: (l: Lot) => Dec): Dec => lots.reduce((t, l) => t.plus(f(l)), dec(0));

function newLife(): Life {
  return {
    lots: [],
    bought: dec(0),
    proceeds: dec(0),
    sold: 0,
    soldNotional: dec(0),
    knocked: 0,
    knockedNotional: dec(0),
  };
}

/** How much a series of runs exercised: a property that never reached a knockout proves little. */
export interface Reach {
  buys: number;
  boostedBuys: number;
  fullCloses: number;
  knockedRows: number;
  closedRows: number;
  settlementRows: number;
}

export function noReach(): Reach {
  return {
    buys: 0,
    boostedBuys: 0,
    fullCloses: 0,
    knockedRows: 0,
    closedRows: 0,
    settlementRows: 0,
  };
}

/** Plays one run against the driver, checking after every step; resolves what is left at the end. */
export async function play(driver: Driver, run: Run, reach: Reach = noReach()): Promise<void> {
  const markets: MarketState[] = [];
  for (const start of run.starts) {
    markets.push({ m: await driver.market(ticksPrice(start)), homeTicks: start, status: 'OPEN' });
  }
  const lives = new Map<string, Life>();
  const rowsSeen = new Map<string, number>();
  const lastSeen = new Map<string, Position>();
  const key = (m: Market, outcome: string) => `${m.contractId}|${outcome}`;
  const indexTicks = (ms: MarketState, outcome: string) =>
    outcome === ms.m.home ? ms.homeTicks : 10_000 - ms.homeTicks;

  /** The position just went flat: its rows must add up to the money that moved. */
  async function finish(ms: MarketState, outcome: string, payout?: { row: Dec; basis: Dec }) {
    const k = key(ms.m, outcome);
    const life = lives.get(k)!;
    lives.delete(k);
    const rows = await driver.settlements(ms.m, outcome);
    const fresh = rows.slice(0, rows.length - (rowsSeen.get(k) ?? 0));
    rowsSeen.set(k, rows.length);
    const closed = fresh.filter((r) => r.type === 'CLOSED');
    const knocked = fresh.filter((r) => r.type === 'KNOCKED_OUT');
    const settled = fresh.filter((r) => r.type === 'SETTLEMENT');
    reach.closedRows += closed.length;
    reach.knockedRows += knocked.length;
    reach.settlementRows += settled.length;
    expect(closed.map((r) => [r.contracts, r.price])).toEqual(
      life.sold > 0 ? [[life.sold, price(life.soldNotional.dividedBy(life.sold))]] : [],
    );
    // A knocked-out lot closes at its knockout: the row writes them averaged by contracts.
    expect(knocked.map((r) => [r.contracts, r.price])).toEqual(
      life.knocked > 0 ? [[life.knocked, price(life.knockedNotional.dividedBy(life.knocked))]] : [],
    );
    expect(settled.map((r) => r.payout)).toEqual(payout ? [usdFloor(payout.row)] : []);
    // Σ row pnl + (payout − what the settled contracts cost) = proceeds + payouts − buy costs.
    const rowPnl = [...closed, ...knocked].reduce((t, r) => t.plus(r.pnl!), dec(0));
    const settledPnl = payout ? dec(settled[0]!.payout!).minus(payout.basis) : dec(0);
    const moved = life.proceeds.plus(settled[0]?.payout ?? 0).minus(life.bought);
    expect(rowPnl.plus(settledPnl).minus(moved).abs().lte(CENT.times(fresh.length))).toBe(true);
  }

  /** Knocks out, in the model, every lot of the market whose knockout the index has reached. */
  async function knockOuts(ms: MarketState): Promise<number> {
    let positions = 0;
    for (const outcome of [ms.m.home, ms.m.away]) {
      const life = lives.get(key(ms.m, outcome));
      if (life === undefined) continue;
      const index = dec(ticksPrice(indexTicks(ms, outcome)));
      const out = life.lots.filter((l) => l.knockout !== undefined && dec(l.knockout).gte(index));
      if (out.length === 0) continue;
      positions += 1;
      for (const l of out) {
        life.knocked += l.contracts;
        life.knockedNotional = life.knockedNotional.plus(dec(l.knockout!).times(l.contracts));
      }
      life.lots = life.lots.filter((l) => !out.includes(l));
      if (life.lots.length === 0) await finish(ms, outcome);
    }
    return positions;
  }

  async function setIndex(ms: MarketState, outcome: string, ticks: number): Promise<void> {
    const t = Math.min(9999, Math.max(1, ticks));
    const knockedOut = await driver.setPrice(ms.m, outcome, ticksPrice(t));
    ms.homeTicks = outcome === ms.m.home ? t : 10_000 - t;
    expect(knockedOut).toBe(await knockOuts(ms));
  }

  async function buy(ms: MarketState, outcome: string, contracts: number, b: number) {
    const o = await driver.order(ms.m, outcome, 'BUY', contracts, b);
    if (o?.status !== 'FILLED') return;
    reach.buys += 1;
    if (b > 0) reach.boostedBuys += 1;
    const k = key(ms.m, outcome);
    const life = lives.get(k) ?? newLife();
    lives.set(k, life);
    const c = dec(o.entryPrice).times(dec(1).minus(BOOST_LOAN_PER_POINT.times(b)));
    const lot: Lot = {
      contracts: o.contracts,
      entryPrice: o.entryPrice,
      collateralPerContract: c,
      loan: dec(o.entryPrice).minus(c),
      cost: dec(o.cost),
    };
    if (o.knockout !== undefined) lot.knockout = o.knockout;
    life.lots.push(lot);
    life.bought = life.bought.plus(o.cost);
  }

  async function sell(ms: MarketState, outcome: string, contracts: number | 'all') {
    const k = key(ms.m, outcome);
    const life = lives.get(k);
    const have = life === undefined ? 0 : held(life);
    const before = lastSeen.get(k);
    const o = await driver.order(
      ms.m,
      outcome,
      'SELL',
      contracts === 'all' ? have || 1 : contracts,
      0,
    );
    if (o?.status !== 'FILLED') return;
    expect(life).toBeDefined();
    expect(o.contracts).toBe(contracts === 'all' ? have : Math.min(contracts, have));
    if (o.contracts === have) {
      reach.fullCloses += 1;
      // A close of everything at estimatedClosingPrice pays the value less the fee it shows.
      expect(o.entryPrice).toBe(before!.estimatedClosingPrice);
      expect(dec(before!.value).minus(dec(o.proceeds!).plus(o.cost)).abs().lt(CENT)).toBe(true);
    }
    let left = o.contracts;
    const lots: Lot[] = [];
    for (const lot of life!.lots) {
      const take = Math.min(left, lot.contracts);
      left -= take;
      if (take === lot.contracts) continue;
      const share = lot.cost.times(take).dividedBy(lot.contracts);
      lots.push({ ...lot, contracts: lot.contracts - take, cost: lot.cost.minus(share) });
    }
    life!.lots = lots;
    life!.proceeds = life!.proceeds.plus(o.proceeds!);
    life!.sold += o.contracts;
    life!.soldNotional = life!.soldNotional.plus(dec(o.entryPrice).times(o.contracts));
    if (lots.length === 0) await finish(ms, outcome);
  }

  async function resolve(ms: MarketState, winner: string) {
    await driver.resolve(ms.m, winner);
    ms.status = 'RESOLVED';
    for (const outcome of [ms.m.home, ms.m.away]) {
      const life = lives.get(key(ms.m, outcome));
      if (life === undefined) continue;
      const settle = (l: Lot) =>
        winner === 'DRAW' ? dec(l.entryPrice) : dec(winner === outcome ? 1 : 0);
      const row = sum(life.lots, (l) => Dec.max(0, settle(l).minus(l.loan).times(l.contracts)));
      await finish(ms, outcome, { row, basis: sum(life.lots, (l) => l.cost) });
    }
  }

  async function check() {
    const seen = await driver.positions();
    lastSeen.clear();
    for (const p of seen) lastSeen.set(`${p.contractId}|${p.outcome}`, p);
    expect([...lastSeen.keys()].sort()).toEqual([...lives.keys()].sort());
    for (const [k, life] of lives) {
      const p = lastSeen.get(k)!;
      const collateral = sum(life.lots, (l) => l.collateralPerContract.times(l.contracts));
      const contracts = held(life);
      expect(p.contracts).toBe(contracts);
      expect(dec(p.value).gte(0) && dec(p.value).lte(p.maxPayout), `value ${p.value}`).toBe(true);
      // value = posted collateral + pnl, to the cent; never a loss above the collateral.
      expect(
        dec(p.value).minus(p.pnl).minus(collateral).abs().lte(CENT),
        `${k} ${p.value} ${p.pnl} ${collateral.toString()}`,
      ).toBe(true);
      expect(dec(p.pnlPercent).gte(-100), `pnlPercent ${p.pnlPercent}`).toBe(true);
      // costBasis and entryPrice are those of the contracts still held.
      expect(p.costBasis).toBe(usd(sum(life.lots, (l) => l.cost)));
      expect(p.entryPrice).toBe(
        price(sum(life.lots, (l) => dec(l.entryPrice).times(l.contracts)).dividedBy(contracts)),
      );
      expect(p.boosted).toBe(life.lots.some((l) => l.knockout !== undefined));
    }
  }

  await check();
  for (const s of run.steps) {
    const ms = markets[s.market]!;
    const outcome = 'away' in s ? (s.away ? ms.m.away : ms.m.home) : ms.m.home;
    if (ms.status === 'RESOLVED') continue;
    switch (s.kind) {
      case 'buy':
        await buy(ms, outcome, s.contracts, s.boost);
        break;
      case 'sell':
        await sell(ms, outcome, s.contracts);
        break;
      case 'sellAll':
        await sell(ms, outcome, 'all');
        break;
      case 'move':
        await setIndex(ms, outcome, Math.min(9900, Math.max(100, indexTicks(ms, outcome) + s.by)));
        break;
      case 'knockout': {
        const lots = lives.get(key(ms.m, outcome))?.lots ?? [];
        const kos = lots
          .filter((l) => l.knockout !== undefined)
          .map((l) => dec(l.knockout!).times(10_000).toNumber());
        if (kos.length > 0) await setIndex(ms, outcome, Math.max(...kos) - s.below);
        break;
      }
      case 'close':
        await driver.closeBetting(ms.m);
        if (ms.status === 'OPEN') ms.status = 'CLOSED';
        break;
      case 'resolve':
        await resolve(
          ms,
          s.winner === 'home' ? ms.m.home : s.winner === 'away' ? ms.m.away : 'DRAW',
        );
        break;
    }
    await check();
  }
  for (const ms of markets) if (ms.status !== 'RESOLVED') await resolve(ms, 'DRAW');
  await check();
}
