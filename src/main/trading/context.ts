/**
 * What every part of the trading service works with (placements, reconciliation, status
 * polls, quotes): one account's client and store, its waits, and the two writes they share,
 * storing an exchange report and closing the intent it settles.
 */
import type { Order, OrderRequest } from '../../shared/api/schemas.js';
import type { BackoffOptions } from '../../shared/backoff.js';
import type { Logger } from '../../shared/log.js';
import type { ExchangeClient } from '../client/index.js';
import type { Store } from '../store/index.js';
import type { Bet } from './bet.js';

export interface TradingContext {
  /** The account (store row) whose wallet the client's key belongs to. */
  readonly accountId: number;
  readonly client: ExchangeClient;
  readonly store: Store;
  /** Local clock for deadlines of waits, ms. */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** For the backoff's jitter. */
  readonly random: () => number;
  /** Retry waits of placements, lookups and quotes. */
  readonly backoff: BackoffOptions;
  readonly log: Logger;
}

/** What an intent's row holds in `params`: the exact request, sent and resent byte for byte. */
export interface IntentParams {
  request: OrderRequest;
  /** The bet asked for, when known (null when a bare rfqId was executed). */
  bet: Bet | null;
}

/** Stores an exchange report and, in the same transaction, closes the intent it settles. */
export function storeOrder(ctx: TradingContext, order: Order): void {
  ctx.store.transaction(() => {
    ctx.store.orders.upsert(ctx.accountId, order);
    if (order.clientOrderId === '') return;
    const intent = ctx.store.intents.get(order.clientOrderId);
    if (intent && intent.accountId === ctx.accountId && intent.state !== 'done') {
      ctx.store.intents.markDone(order.clientOrderId, order.orderId);
    }
  });
}
