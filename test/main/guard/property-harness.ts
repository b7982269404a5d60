/**
 * The scene of the guardian's property test (guardian.property.test.ts): one fresh account on
 * the sandbox exchange over HTTP, a real store file, the sync engine driven by hand (no timers:
 * each pass is a step), and the guardian built as crash-desk.ts builds it. Every interface the
 * test needs of today's code is here, so a change of API (issue 27) is adapted in this file.

 */
import type { Fixture, Order } from '../../../src/shared/api/schemas.js';
import type { ArmGuards, GuardSpec } from '../../../src/shared/ipc/contract.js';
import type { GuardRule } from '../../../src/main/store/index.js';
import { Guardian } from '../../../src/main/guard/index.js';
import type { Sandbox } from '../../exchange/harness.js';
import { allExchangeOrders } from '../trading/converge.js';
import { openGuardDesk, type GuardDesk } from './crash-desk.js';

/** Long intervals: figures read by a step stay fresh for the whole run (no timing in tests). */
const SLOW = {
  positionsIdleMs: 600_000,
  positionsBoostedMs: 600_000,
  ordersIdleMs: 600_000,
  ordersPendingMs: 600_000,
  pricesMs: 600_000,
  fixturesMs: 600_000,
  settlementsMs: 600_000,
  minSpacingMs: 0,
};

export const UNBOOSTED = 6;
export const BOOSTED = 4;

export interface Scene {
  sandbox: Sandbox;
  fixture: Fixture;
  desk: GuardDesk;
  db: string;
  creds: { apiKey: string; secret: string };
  /** Passes the guardian itself asked for (after a close), awaited by settle(). */
  pending: Promise<unknown>[];
}

function wire(scene: Omit<Scene, 'desk'>, desk: GuardDesk): GuardDesk {
  // The guardian over a feed that records the passes it asks for, so a step can wait for them.
  const engine = desk.engine;
  const feed = {
    on: engine.on.bind(engine),
    get positionsPollMs() {
      return engine.positionsPollMs;
    },
    syncNow: (...names: Parameters<typeof engine.syncNow>) => {
      const p = engine.syncNow(...names);
      scene.pending.push(p.catch(() => undefined));
      return p;
    },
  };
  const guardian = new Guardian({
    store: desk.store,
    book: desk.book,
    accountId: desk.accountId,
    bridgeId: String(desk.accountId),
    engine: feed,
    trading: desk.trading,
    ordersBucket: () => undefined,
  });
  const close = desk.close.bind(desk);
  return Object.assign(desk, {
    guardian,
    close: async () => {
      await guardian.stop();
      await close();
    },
  });
}

export function openDesk(scene: Omit<Scene, 'desk'>): GuardDesk {
  const desk = openGuardDesk({
    baseUrl: scene.sandbox.url,
    apiKey: scene.creds.apiKey,
    secret: scene.creds.secret,
    db: scene.db,
    intervals: SLOW,
  });
  // openGuardDesk's own guardian is never started; ours takes its place.
  return wire(scene, desk);
}

/** A fresh wallet holding UNBOOSTED plain and BOOSTED boosted contracts of a new fixture. */
export async function newScene(sandbox: Sandbox, db: string, n: number): Promise<Scene> {
  const key = await sandbox.newAccount('trade');
  const fixture = await sandbox.admin<Fixture>('POST', '/fixtures', {
    homeTeam: `H${String.fromCharCode(65 + (n % 26))}`,
    awayTeam: 'AWY',
    league: 'Guard League',
  });
  await setPrice(sandbox, fixture, '0.50');
  const base = { sandbox, fixture, db, creds: key, pending: [] as Promise<unknown>[] };
  const desk = openDesk(base);
  for (const [qty, boost] of [
    [UNBOOSTED, 0],
    [BOOSTED, 50],
  ] as const) {
    const r = await desk.trading.trade({
      contractId: fixture.contractId,
      outcome: fixture.homeTeam,
      side: 'BUY',
      qty: String(qty),
      unit: 'BASE',
      boost,
    });
    if (r.status !== 'FILLED') throw new Error(`the buy ended ${r.status}`);
  }
  await desk.engine.syncNow('orders', 'positions', 'fixtures', 'prices', 'settlements');
  desk.guardian.start();
  return { ...base, desk };
}

export function setPrice(sandbox: Sandbox, f: Fixture, price: string): Promise<unknown> {
  return sandbox.admin('POST', `/fixtures/${f.contractId}/price`, {
    outcome: f.homeTeam,
    indexPrice: price,
  });
}

/** Arms one rule on the home position and judges, as the app does; `fireNow` as the dialog's. */
export function armRule(s: Scene, spec: GuardSpec, fireNow: boolean): GuardRule {
  const input: ArmGuards = {
    contractId: s.fixture.contractId,
    outcome: s.fixture.homeTeam,
    rules: [spec],
    ...(fireNow ? { fireNow: true } : {}),
  };
  const rule = s.desk.book.arm(s.desk.accountId, input)[0]!;
  // As the bridge's guards:arm does (guard/feature.ts): judge at once.
  s.desk.guardian.evaluate();
  return rule;
}

/** A SELL by hand as the desk sends one (DeskTrading: onSell first, then the order). */
export async function sellByHand(s: Scene, contracts: number): Promise<Order | undefined> {
  s.desk.guardian.handSell(s.fixture.contractId, s.fixture.homeTeam);
  const r = await s.desk.trading.trade({
    contractId: s.fixture.contractId,
    outcome: s.fixture.homeTeam,
    side: 'SELL',
    qty: String(contracts),
    unit: 'BASE',
  });
  return r.order;
}

/** A sync pass of every stream, then whatever the guardian started, to its end. */
export async function settle(s: Scene): Promise<void> {
  await s.desk.engine.syncNow('orders', 'positions', 'fixtures', 'prices', 'settlements');
  for (let i = 0; i < 5; i++) {
    await s.desk.guardian.idle();
    const p = s.pending.splice(0);
    if (p.length === 0) break;
    await Promise.all(p);
  }
}

/** Stops the guardian and the engine, opens the same store again: a restart. */
export async function restart(s: Scene): Promise<void> {
  await s.desk.close();
  s.desk = openDesk(s);
  await s.desk.engine.syncNow('orders', 'positions', 'fixtures', 'prices', 'settlements');
  s.desk.guardian.start();
}

/** The wallet's orders as the exchange's own signed GET /orders has them. */
export function exchangeOrders(s: Scene): Promise<Order[]> {
  return allExchangeOrders(s.desk.client);
}

/** Contracts held on the exchange now (plain, boosted), by its signed GET /positions. */
export async function heldNow(s: Scene): Promise<{ total: number; boosted: boolean }> {
  const { positions } = await s.desk.client.positions({ limit: 100 });
  const mine = positions.filter(
    (p) => p.contractId === s.fixture.contractId && p.outcome === s.fixture.homeTeam,
  );
  return {
    total: mine.reduce((n, p) => n + p.contracts, 0),
    boosted: mine.some((p) => p.boosted),
  };
}
