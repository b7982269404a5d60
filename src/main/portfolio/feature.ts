/**
 * The Portfolio screen on the bridge (docs/portfolio.md): equity, exposure and the best and worst
 * positions, read from the store so it works offline. No session: the portfolio spans accounts
 * and answers with no active exchange. The reads are pure functions of the store (reads.ts), so
 * they can move to a worker thread's read connection unchanged.
 */
import type { Handlers } from '../ipc/handler.js';
import type { Store } from '../store/index.js';
import { equitySeries, portfolioView } from './reads.js';

export type PortfolioChannel = 'portfolio:view' | 'portfolio:equity';

export interface PortfolioContext {
  store: Store;
  now?: () => number;
}

export function portfolioFeature(ctx: PortfolioContext): Handlers<PortfolioChannel> {
  const { store } = ctx;
  const now = ctx.now ?? Date.now;
  return {
    'portfolio:view': (query) => Promise.resolve(portfolioView(store, query, now())),
    'portfolio:equity': (query) => Promise.resolve(equitySeries(store, query, now())),
  };
}
