/**
 * Prices over time on the bridge (docs/prices.md): the active account's recorded index prices,
 * read from the store so the lines and charts work offline.
 */
import { withSession, type Handlers } from '../ipc/handler.js';
import type { ActiveAccount } from '../root/active.js';
import type { Store } from '../store/index.js';

export type PricesChannel = 'prices:lines' | 'prices:series';

export interface PricesContext {
  store: Store;
  active: Pick<ActiveAccount, 'started'>;
  now?: () => number;
}

export function pricesFeature(ctx: PricesContext): Handlers<PricesChannel> {
  const { active } = ctx;
  const now = ctx.now ?? Date.now;
  return {
    // Placeholder until the price history is recorded (issue 18): nothing is known yet.
    'prices:lines': withSession(active, () => ({ from: now() - 86_400_000, to: now(), lines: [] })),
    'prices:series': withSession(active, (_s, { contractId, outcome }) => ({
      contractId,
      outcome,
      points: [],
    })),
  };
}
