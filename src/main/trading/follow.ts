/**
 * Following an accepted order to its end: GET /order polled with a growing wait until the
 * status is final, each report stored (closing the intent it settles). A transient failure is
 * tried again; any other ends the wait with that error.
 */
import { isFinalStatus } from '../../shared/api/schemas.js';
import { Backoff } from '../../shared/backoff.js';
import { ExchangeError } from '../client/index.js';
import { Priority } from '../governor/index.js';
import { storeOrder, type TradingContext } from './context.js';
import { errorOf, outcomeOfOrder, type OrderOutcome, type OutcomeError } from './outcome.js';
import { isTransientReadError } from './retry.js';

export interface PollTimes {
  /** First wait before reading an order's status, ms; grows 1.5x per poll. */
  initialMs: number;
  /** Longest wait between polls, ms. */
  maxMs: number;
  /** The wait gives up after this long, ms. */
  timeoutMs: number;
}

export interface WaitOptions {
  /** Overrides polling.timeoutMs. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Polls until the order is final; after the timeout, its last status and error TIMEOUT. */
export async function followOrder(
  ctx: TradingContext,
  poll: PollTimes,
  orderId: string,
  opts: WaitOptions = {},
): Promise<OrderOutcome> {
  const timeoutMs = opts.timeoutMs ?? poll.timeoutMs;
  const deadline = ctx.now() + timeoutMs;
  const backoff = new Backoff(
    { initialMs: poll.initialMs, maxMs: poll.maxMs, factor: 1.5 },
    ctx.random,
  );
  let last = ctx.store.orders.getByOrderId(ctx.accountId, orderId);
  if (last && isFinalStatus(last.status)) return outcomeOfOrder(last);
  let lastError: OutcomeError | undefined;
  let floor = 0;
  for (;;) {
    // Waits first: an order just accepted is SUBMITTED for at least a block.
    const left = deadline - ctx.now();
    if (left <= 0) break;
    await ctx.sleep(Math.min(backoff.next(floor), left));
    floor = 0;
    opts.signal?.throwIfAborted();
    try {
      const order = await ctx.client.getOrder(
        { orderId },
        { priority: Priority.orderStatus, ...(opts.signal ? { signal: opts.signal } : {}) },
      );
      storeOrder(ctx, order);
      last = order;
      lastError = undefined;
      if (isFinalStatus(order.status)) return outcomeOfOrder(order);
    } catch (err) {
      opts.signal?.throwIfAborted();
      if (!isTransientReadError(err)) {
        return {
          clientOrderId: last?.clientOrderId ?? '',
          status: last?.status ?? 'UNKNOWN',
          ...(last ? { order: last } : {}),
          error: errorOf(err),
        };
      }
      lastError = errorOf(err);
      if (err instanceof ExchangeError && err.retryAfterMs !== undefined) {
        floor = err.retryAfterMs;
      }
    }
  }
  const status = last?.status ?? 'UNKNOWN';
  return {
    clientOrderId: last?.clientOrderId ?? '',
    status,
    ...(last ? { order: last } : {}),
    error: {
      code: 'TIMEOUT',
      message:
        `The order ${orderId} was still ${status} after ${Math.round(timeoutMs / 1000)} s` +
        (lastError ? ` (last problem: ${lastError.message})` : '') +
        '; its final status will arrive with the next sync.',
    },
  };
}
