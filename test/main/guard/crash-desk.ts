/**
 * A guardian desk for the exactly-once tests: one account's real store file, exchange client,
 * trading service, sync engine, GuardBook and Guardian over a sandbox reached by HTTP, built the
 * way the app's session builds them (src/main/root/session.ts), with short poll intervals so a
 * test does not wait for the default cadence. The crash worker (a child process) and the fault
 * test (in process) both use it, so the parent and the child judge the same guardian; so does
 * bench/guard.ts, with the app's own intervals.
 */
import { ExchangeClient, type ExchangeClientOptions } from '../../../src/main/client/index.js';
import { GuardBook, Guardian } from '../../../src/main/guard/index.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { SyncEngine, type SyncIntervals } from '../../../src/main/sync/index.js';
import { TradingService, type TradingServiceOptions } from '../../../src/main/trading/index.js';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';

export interface GuardDeskOptions {
  baseUrl: string;
  apiKey: string;
  secret: string;
  /** The store file; the account row is made on first use (label "guard"). */
  db: string;
  client?: Partial<ExchangeClientOptions>;
  trading?: Partial<TradingServiceOptions>;
  /** The sync engine's intervals (default FAST_INTERVALS; `{}`: the app's own). */
  intervals?: Partial<SyncIntervals>;
  /** Wraps the trading service the guardian sends through (the crash worker's hooks). */
  wrapTrading?: (t: TradingService) => Pick<TradingService, 'placeOrder' | 'waitForFinal'>;
}

export interface GuardDesk {
  store: Store;
  accountId: number;
  client: ExchangeClient;
  trading: TradingService;
  engine: SyncEngine;
  book: GuardBook;
  guardian: Guardian;
  close(): Promise<void>;
}

/** Positions every 300 ms: a fresh observation well inside a test's wait. */
export const FAST_INTERVALS = {
  positionsIdleMs: 300,
  positionsBoostedMs: 300,
  ordersIdleMs: 300,
  ordersPendingMs: 100,
  pricesMs: 300,
  fixturesMs: 5000,
  settlementsMs: 5000,
  minSpacingMs: 50,
};

/** A stop loss that fires once the P&L falls 10 %, closing the whole position. */
export const STOP_LOSS: GuardSpec = {
  kind: 'stop_loss',
  percent: '10',
  sharePercent: 100,
  confirmations: 1,
};

export function openGuardDesk(o: GuardDeskOptions): GuardDesk {
  const store = openStore(o.db);
  const account =
    store.accounts.getByLabel('guard') ??
    store.accounts.create({
      label: 'guard',
      baseUrl: o.baseUrl,
      apiKey: o.apiKey,
      permission: 'trade',
    });
  const client = new ExchangeClient({
    baseUrl: o.baseUrl,
    credentials: { apiKey: o.apiKey, secret: o.secret },
    clockSync: { samples: 1 },
    ...o.client,
  });
  const trading = new TradingService({
    client,
    store,
    accountId: account.id,
    placement: { backoff: { initialMs: 20, maxMs: 200 } },
    polling: { initialMs: 20, maxMs: 100, timeoutMs: 20_000 },
    ...o.trading,
  });
  const engine = new SyncEngine({
    client,
    store,
    accountId: account.id,
    intervals: o.intervals ?? FAST_INTERVALS,
    backoff: { initialMs: 50, maxMs: 500 },
  });
  const book = new GuardBook({ store });
  const guardian = new Guardian({
    store,
    book,
    accountId: account.id,
    bridgeId: String(account.id),
    engine,
    trading: o.wrapTrading ? o.wrapTrading(trading) : trading,
    ordersBucket: () => undefined,
  });
  return {
    store,
    accountId: account.id,
    client,
    trading,
    engine,
    book,
    guardian,
    async close() {
      await guardian.stop();
      await engine.stop();
      await client.close();
      store.close();
    },
  };
}
