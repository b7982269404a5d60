/** Markets from the store, and quotes from the exchange. */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type MarketHandlers = FeatureHandlers<'fixtures:list' | 'quote:request'>;

export function marketHandlers(s: Services): MarketHandlers {
  return {
    'fixtures:list': (filter) => s.fixtures.list(filter),
    'quote:request': (input) => s.quotes.request(input),
  };
}
