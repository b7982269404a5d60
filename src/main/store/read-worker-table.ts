/**
 * The reads the store's read worker runs (read-worker.ts), by name: each a StoreRead,
 * `(store, input) => output`, kept in its feature's `reads.ts`. Adding one is one line here
 * (src/main/store/README.md, "Heavy reads"); the worker's entry and the in-thread fallback both run this table,
 * and `StoreReads.run` is typed from it.
 */
import type {
  EquityQuery,
  PortfolioQuery,
  PriceLinesQuery,
  PriceSeriesQuery,
} from '../../shared/ipc/contract.js';
import { orderFixtures } from '../desk/reads.js';
import { historyChoices, historySummary, ordersTotals } from '../history/reads.js';
import { equitySeries, portfolioView } from '../portfolio/reads.js';
import { priceLines, priceSeries } from '../prices/reads.js';
import { readerInfo, type StoreRead } from './read-worker-store.js';

export const STORE_READS = {
  readerInfo,
  historySummary,
  historyChoices,
  ordersTotals,
  orderFixtures,
  portfolioView: (store, { query, now }: { query: PortfolioQuery; now: number }) =>
    portfolioView(store, query, now),
  equitySeries: (store, { query, now }: { query: EquityQuery; now: number }) =>
    equitySeries(store, query, now),
  priceLines: (
    store,
    { query, now }: { query: PriceLinesQuery & { accountId: number }; now: number },
  ) => priceLines(store, query, now),
  priceSeries: (
    store,
    { query, now }: { query: PriceSeriesQuery & { accountId: number }; now: number },
  ) => priceSeries(store, query, now),
} satisfies Record<string, StoreRead<never, unknown>>;

export type StoreReadName = keyof typeof STORE_READS;
export type StoreReadInput<K extends StoreReadName> = Parameters<(typeof STORE_READS)[K]>[1];
export type StoreReadOutput<K extends StoreReadName> = ReturnType<(typeof STORE_READS)[K]>;

/** True when `name` is a read of the table (a message from another thread is checked so). */
export function isStoreReadName(name: unknown): name is StoreReadName {
  return typeof name === 'string' && Object.hasOwn(STORE_READS, name);
}
