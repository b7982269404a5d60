/**
 * Prices over time on the bridge (docs/prices.md): the active account's recorded index prices,
 * read from the store so the lines and charts work offline. The reads (reads.ts) run on the
 * store's read worker (src/main/store/README.md, "Heavy reads").
 */
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { StoreReads } from '../store/read-worker.js';

export type PricesChannel = 'prices:lines' | 'prices:series';

export interface PricesContext {
  reads: Pick<StoreReads, 'run'>;
  active: Pick<ActiveAccount, 'started'>;
  now?: () => number;
}

export function pricesFeature(ctx: PricesContext): Handlers<PricesChannel> {
  const { active, reads } = ctx;
  const now = ctx.now ?? Date.now;
  return {
    'prices:lines': withSession(active, (s, query) =>
      reads.run('priceLines', { query: { ...query, accountId: s.accountId }, now: now() }),
    ),
    'prices:series': withSession(active, (s, query) =>
      reads.run('priceSeries', { query: { ...query, accountId: s.accountId }, now: now() }),
    ),
  };
}
