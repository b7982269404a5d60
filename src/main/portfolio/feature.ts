/**
 * The Portfolio screen on the bridge (docs/portfolio.md): equity, exposure and the best and worst
 * positions, read from the store so it works offline.
 */
import type { Handlers } from '../ipc/handler.js';
import type { Store } from '../store/index.js';

export type PortfolioChannel = 'portfolio:view' | 'portfolio:equity';

export interface PortfolioContext {
  store: Store;
  now?: () => number;
}

export function portfolioFeature(ctx: PortfolioContext): Handlers<PortfolioChannel> {
  const now = ctx.now ?? Date.now;
  const zero = '0.00';
  return {
    // Placeholder until the portfolio lands (issue 18).
    'portfolio:view': ({ scope }) =>
      Promise.resolve({
        scope,
        accounts: [],
        realized: zero,
        unknownSettlements: 0,
        unrealized: zero,
        equity: zero,
        openPositions: 0,
        exposure: {
          atRisk: zero,
          maxPayout: zero,
          worstCase: zero,
          nearKnockout: { positions: 0, atRisk: zero },
          largestFixture: null,
          byLeague: [],
          byFixture: [],
          byOutcome: [],
        },
        best: [],
        worst: [],
        latest: [],
      }),
    'portfolio:equity': ({ scope, period }) =>
      Promise.resolve({ scope, period, from: now(), to: now(), stepMs: 1, points: [] }),
  };
}
