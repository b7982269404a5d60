/**
 * Prices over time on the bridge (docs/prices.md): the active account's recorded index prices,
 * read from the store so the lines and charts work offline. The reads are reads.ts's pure
 * functions, which a worker thread can run as well.
 */
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { Store } from '../store/index.js';
import { priceLines, priceSeries } from './reads.js';

export type PricesChannel = 'prices:lines' | 'prices:series';

export interface PricesContext {
  store: Store;
  active: Pick<ActiveAccount, 'started'>;
  now?: () => number;
}

export function pricesFeature(ctx: PricesContext): Handlers<PricesChannel> {
  const { active, store } = ctx;
  const now = ctx.now ?? Date.now;
  return {
    'prices:lines': withSession(active, (s, query) =>
      priceLines(store, { ...query, accountId: s.accountId }, now()),
    ),
    'prices:series': withSession(active, (s, query) =>
      priceSeries(store, { ...query, accountId: s.accountId }, now()),
    ),
  };
}
