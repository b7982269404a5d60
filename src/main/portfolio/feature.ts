/**
 * The Portfolio screen on the bridge (docs/portfolio.md): equity, exposure and the best and worst
 * positions, read from the store so it works offline. No session: the portfolio spans accounts
 * and answers with no active exchange. The reads (reads.ts) run on the store's read worker, so
 * a long history never holds the main thread (src/main/store/README.md, "Heavy reads").
 */
import type { Handlers } from '../ipc/handler.js';
import type { StoreReads } from '../store/read-worker.js';

export type PortfolioChannel = 'portfolio:view' | 'portfolio:equity';

export interface PortfolioContext {
  reads: Pick<StoreReads, 'run'>;
  now?: () => number;
}

export function portfolioFeature(ctx: PortfolioContext): Handlers<PortfolioChannel> {
  const { reads } = ctx;
  const now = ctx.now ?? Date.now;
  return {
    'portfolio:view': (query) => reads.run('portfolioView', { query, now: now() }),
    'portfolio:equity': (query) => reads.run('equitySeries', { query, now: now() }),
  };
}
