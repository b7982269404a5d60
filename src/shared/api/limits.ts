/** The rate limits of docs/api.md section 8.1: one table for the exchange and the client. */

export type LimitGroup = 'positions' | 'quotes' | 'orders' | 'reads' | 'fixtures';

export interface BucketSpec {
  readonly perMinute: number;
  readonly burst: number;
}

export const GROUP_LIMITS: Readonly<Record<LimitGroup, BucketSpec>> = {
  positions: { perMinute: 20, burst: 5 },
  quotes: { perMinute: 60, burst: 10 },
  orders: { perMinute: 60, burst: 10 },
  reads: { perMinute: 60, burst: 10 },
  fixtures: { perMinute: 120, burst: 20 },
};

/** The per-IP cap across the whole API, checked first. */
export const IP_LIMIT = { perSecond: 100, burst: 200 } as const;

/** Which bucket a route draws from; routes not listed draw only from the per-IP cap. */
export const ROUTE_GROUPS: Readonly<Record<string, LimitGroup>> = {
  'GET /positions': 'positions',
  'POST /order/rfq': 'quotes',
  'POST /order': 'orders',
  'GET /order': 'reads',
  'GET /orders': 'reads',
  'GET /orders/updates': 'reads',
  'GET /settlements': 'reads',
  'GET /fixtures': 'fixtures',
};

/** Cost in the shared price-feed budget; a POST /order with an rfqId costs 1, without it 2. */
export function priceFeedCost(route: string, hasRfqId: boolean): number {
  switch (route) {
    case 'GET /positions':
      return 28;
    case 'POST /order/rfq':
      return 2;
    case 'POST /order':
      return hasRfqId ? 1 : 2;
    default:
      return 0;
  }
}

/** Sandbox default capacity of the shared price-feed budget, in cost units per second. */
export const DEFAULT_PRICE_BUDGET_PER_SECOND = 200;

export const QUOTE_TTL_MS = 30_000;
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;
export const BODY_LIMIT_BYTES = 1024 * 1024;
