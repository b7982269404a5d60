/** History: settlements from the store, their totals and P&L series, export, and resync. */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type HistoryHandlers = FeatureHandlers<
  | 'history:list'
  | 'history:summary'
  | 'history:detail'
  | 'history:choices'
  | 'history:resync'
  | 'history:status'
  | 'orders:totals'
  | 'export:start'
  | 'export:cancel'
>;

export function historyHandlers(s: Services): HistoryHandlers {
  return {
    'history:list': (query) => s.history.list(query),
    'history:summary': (query) => s.history.summary(query),
    'history:detail': ({ id }) => s.history.detail(id),
    'history:choices': () => s.history.choices(),
    'history:resync': () => s.history.resync(),
    'history:status': () => s.history.status(),
    'orders:totals': (scope) => s.orders.totals(scope),
    'export:start': (request) => s.exports.start(request),
    'export:cancel': ({ exportId }) => s.exports.cancel(exportId),
  };
}
