/**
 * The order in which waiting requests get the exchange's capacity: a lower number goes first.
 * Placing an order beats everything; browsing fixtures waits for everything else.
 */
export const Priority = {
  placeOrder: 0,
  orderStatus: 1,
  quote: 2,
  updates: 3,
  settlements: 4,
  positions: 5,
  fixtures: 6,
} as const;

export type Priority = (typeof Priority)[keyof typeof Priority];

const ROUTE_PRIORITY: Readonly<Record<string, Priority>> = {
  'POST /order': Priority.placeOrder,
  'GET /order': Priority.orderStatus,
  // The clock must be right before an order can be signed, so a sync rides with order status.
  'GET /time': Priority.orderStatus,
  'GET /health': Priority.orderStatus,
  'POST /order/rfq': Priority.quote,
  'GET /orders/updates': Priority.updates,
  'GET /orders': Priority.updates,
  'GET /settlements': Priority.settlements,
  'GET /positions': Priority.positions,
  'GET /fixtures': Priority.fixtures,
};

/** The default priority of a route ("METHOD /path"); unknown routes go last. */
export function routePriority(route: string): Priority {
  return ROUTE_PRIORITY[route] ?? Priority.fixtures;
}
