/** The betting desk: placing, the order blotter, open positions. */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type DeskHandlers = FeatureHandlers<
  'order:place' | 'orders:list' | 'orders:get' | 'orders:fixtures' | 'positions:list'
>;

export function deskHandlers(s: Services): DeskHandlers {
  return {
    'order:place': (input) => s.trading.place(input),
    'orders:list': (filter) => s.orders.list(filter),
    'orders:get': async ({ clientOrderId }) => ({ row: await s.orders.get(clientOrderId) }),
    'orders:fixtures': () => s.orders.fixtures(),
    'positions:list': () => s.positions.view(),
  };
}
