/**
 * Sending a recorded order until its fate is known, and the placements running in this
 * process. The request is never changed by a byte and no new clientOrderId is ever made: a
 * refusal the API calls retryable is resent, a lost answer is looked up by clientOrderId
 * before any resend, and when the fate is still unknown after the attempts the intent is left
 * `unknown` for reconciliation (reconcile.ts). See service.ts for the whole guarantee.
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import type { Order, OrderRequest } from '../../shared/api/schemas.js';
import { Backoff } from '../../shared/backoff.js';
import { ExchangeError, type OrderWarning, type PlacedOrder } from '../client/index.js';
import { Priority } from '../governor/index.js';
import { DiskFullError, isDiskFull, isIoError, IoError, type OrderIntent } from '../store/index.js';
import { storeOrder, type IntentParams, type TradingContext } from './context.js';
import {
  NOT_PLACED_CODE,
  errorOf,
  exchangeErrorOf,
  outcomeOfOrder,
  type OrderOutcome,
  type OutcomeError,
} from './outcome.js';
import { classifyPlacementError } from './retry.js';

/** What GET /order?clientOrderId= said about an intent's order. */
export type Lookup =
  { seen: 'placed'; order: Order } | { seen: 'absent' } | { seen: 'unknown'; error: OutcomeError };

export interface PlacementLimits {
  /** Requests (sends and lookups) per placement before its fate is left to reconciliation. */
  attempts: number;
  /** How long to wait for the answer to POST /order, ms. */
  timeoutMs: number;
}

/** Attempts in a row that could not connect before a placement gives up. */
const UNREACHABLE_ATTEMPTS = 3;

/** Why an order was not placed when the exchange gave no refusal of its own. */
const NOT_PLACED_ERROR: OutcomeError = {
  code: NOT_PLACED_CODE,
  message: 'The order was not placed.',
};

export class Placements {
  readonly #ctx: TradingContext;
  readonly #limits: PlacementLimits;
  /** Placements running in this process, by clientOrderId. */
  readonly #running = new Map<string, Promise<OrderOutcome>>();

  constructor(ctx: TradingContext, limits: PlacementLimits) {
    this.#ctx = ctx;
    this.#limits = limits;
  }

  /** True while a placement of this clientOrderId runs in this process. */
  isRunning(clientOrderId: string): boolean {
    return this.#running.has(clientOrderId);
  }

  /**
   * Sends a request whose intent was just committed (nothing sent yet). Registered while it
   * runs, so a reconciliation never touches it and the same id again joins it.
   */
  start(clientOrderId: string, request: OrderRequest): Promise<OrderOutcome> {
    return this.#register(clientOrderId, () =>
      this.#sendUntilSettled(clientOrderId, request, false),
    );
  }

  /** The same clientOrderId again, with the same parameters: the answer of the first time. */
  async resume(intent: OrderIntent): Promise<OrderOutcome> {
    const id = intent.clientOrderId;
    const running = this.#running.get(id);
    if (running) return running;
    const request = (intent.params as IntentParams).request;
    const { store, accountId } = this.#ctx;
    switch (intent.state) {
      case 'done':
      case 'sent': {
        const order =
          (intent.orderId !== null
            ? store.orders.getByOrderId(accountId, intent.orderId)
            : undefined) ?? store.orders.getByClientOrderId(accountId, id);
        if (order) return outcomeOfOrder(order);
        return this.#register(id, () => this.#sendUntilSettled(id, request, true));
      }
      case 'failed':
        return {
          clientOrderId: id,
          status: 'NOT_PLACED',
          error:
            intent.lastErrorCode !== null
              ? exchangeErrorOf(intent.lastErrorCode, intent.lastErrorMsg ?? '')
              : NOT_PLACED_ERROR,
        };
      case 'pending':
      case 'unknown':
        return this.#register(id, () => this.#sendUntilSettled(id, request, true));
    }
  }

  /** Asks the exchange whether it has the order of this clientOrderId. */
  async lookup(clientOrderId: string): Promise<Lookup> {
    try {
      const order = await this.#ctx.client.getOrder(
        { clientOrderId },
        { priority: Priority.placeOrder },
      );
      return { seen: 'placed', order };
    } catch (err) {
      if (err instanceof ExchangeError && err.code === ErrorCodes.UNKNOWN_ORDER) {
        return { seen: 'absent' };
      }
      return { seen: 'unknown', error: errorOf(err) };
    }
  }

  /** Records that the fate of an intent's order is not known (with the last problem met). */
  markUnknown(clientOrderId: string, error: OutcomeError): void {
    this.#ctx.store.intents.markUnknown(
      clientOrderId,
      typeof error.code === 'number' ? { code: error.code, msg: error.message } : undefined,
    );
  }

  #register(clientOrderId: string, run: () => Promise<OrderOutcome>): Promise<OrderOutcome> {
    const p = run().finally(() => this.#running.delete(clientOrderId));
    this.#running.set(clientOrderId, p);
    return p;
  }

  /**
   * Sends the request until its fate is known, never changing a byte of it. `uncertain` says
   * an earlier attempt may have placed the order, so it is looked up before any resend and a
   * refusal is not taken as "not placed" without asking.
   */
  async #sendUntilSettled(
    clientOrderId: string,
    request: OrderRequest,
    uncertain: boolean,
  ): Promise<OrderOutcome> {
    const ctx = this.#ctx;
    const backoff = new Backoff(ctx.backoff, ctx.random);
    let lookFirst = uncertain;
    let lastError: OutcomeError | undefined;
    let unreachable = 0;
    for (let attempt = 1; attempt <= this.#limits.attempts; attempt++) {
      if (lookFirst) {
        const found = await this.lookup(clientOrderId);
        if (found.seen === 'placed') return this.#accepted(found.order);
        if (found.seen === 'unknown') {
          lastError = found.error;
          await ctx.sleep(backoff.next());
          continue;
        }
        // Absent: not placed (yet), and the exchange dedups the id, so resending is safe.
      }
      let placed: PlacedOrder;
      try {
        placed = await ctx.client.placeOrder(request, {
          priority: Priority.placeOrder,
          headersTimeoutMs: this.#limits.timeoutMs,
          bodyTimeoutMs: this.#limits.timeoutMs,
        });
      } catch (err) {
        const verdict = classifyPlacementError(err);
        lastError = errorOf(err);
        if (verdict.kind !== 'not-sent') unreachable = 0;
        ctx.log.warn('order attempt failed', {
          clientOrderId,
          attempt,
          verdict: verdict.kind,
          code: lastError.code,
        });
        switch (verdict.kind) {
          case 'lookup':
            uncertain = true;
            lookFirst = true;
            this.markUnknown(clientOrderId, lastError);
            await ctx.sleep(backoff.next());
            continue;
          case 'not-sent':
            // The exchange cannot be reached at all: say so soon rather than after every attempt.
            if (++unreachable >= UNREACHABLE_ATTEMPTS) {
              return uncertain
                ? this.#unknown(clientOrderId, lastError)
                : this.#notPlaced(clientOrderId, lastError);
            }
            lookFirst = uncertain;
            await ctx.sleep(backoff.next());
            continue;
          case 'resend':
            // Another request with this id is being placed right now.
            if (lastError.code === ErrorCodes.ORDER_IN_FLIGHT) uncertain = true;
            lookFirst = false;
            await ctx.sleep(backoff.next(verdict.waitMs));
            continue;
          case 'resync':
            // The client has measured the exchange's clock again already (client.ts): resend now.
            lookFirst = false;
            continue;
          case 'final': {
            if (uncertain) {
              // An earlier attempt may stand even though this one was refused.
              const found = await this.lookup(clientOrderId);
              if (found.seen === 'placed') return this.#accepted(found.order);
              if (found.seen === 'unknown') return this.#unknown(clientOrderId, found.error);
            }
            return this.#notPlaced(clientOrderId, lastError);
          }
        }
      }
      // Outside the try: a failure to store the answer must not pass for a refusal. It
      // propagates, and the intent, still open, is settled by the next reconciliation.
      return this.#accepted(placed.order, placed.warning);
    }
    if (uncertain) return this.#unknown(clientOrderId, lastError);
    return this.#notPlaced(clientOrderId, lastError);
  }

  #accepted(order: Order, warning?: OrderWarning): OrderOutcome {
    try {
      storeOrder(this.#ctx, order);
    } catch (err) {
      // The order stands; its intent stays open, so the sync or a reconciliation records it.
      if (isDiskFull(err)) {
        throw new DiskFullError(
          `Betdesk could not save order ${order.clientOrderId}, which the exchange accepted ` +
            `(order ${order.orderId}). It is saved once there is room; do not place it again.`,
          { cause: err },
        );
      }
      if (!isIoError(err)) throw err;
      throw new IoError(
        `Order ${order.clientOrderId}, which the exchange accepted (order ${order.orderId}), ` +
          'was not saved; its intent is kept, so the next sync saves it. Do not place it again.',
        { cause: err },
      );
    }
    const out = outcomeOfOrder(order);
    if (warning) out.warning = { code: warning.code, message: warning.message };
    return out;
  }

  #unknown(clientOrderId: string, error: OutcomeError | undefined): OrderOutcome {
    const reason = error?.message ?? 'The exchange could not be asked.';
    if (error) this.markUnknown(clientOrderId, error);
    else this.#ctx.store.intents.markUnknown(clientOrderId);
    return {
      clientOrderId,
      status: 'UNKNOWN',
      error: {
        code: error?.code ?? 'NETWORK',
        message:
          `Whether order ${clientOrderId} was placed is not known yet: ${reason} ` +
          'It is recorded and will be checked with the exchange again; do not place it a second time.',
      },
    };
  }

  #notPlaced(clientOrderId: string, error: OutcomeError | undefined): OrderOutcome {
    const e = error ?? NOT_PLACED_ERROR;
    this.#ctx.store.intents.markFailed(clientOrderId, {
      code: typeof e.code === 'number' ? e.code : NOT_PLACED_CODE,
      msg: e.message,
    });
    return { clientOrderId, status: 'NOT_PLACED', error: e };
  }
}
