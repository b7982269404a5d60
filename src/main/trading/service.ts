/**
 * The trading service of one account: quotes, orders and their outcomes, one request of the
 * user being at most one bet on the exchange whatever fails (docs/cli.md, "Every order gets a client
 * order id"). This file is the surface and the checks before an intent is recorded; sending
 * until the fate is known is placements.ts, after a restart reconcile.ts, waitForFinal
 * follow.ts, the quotes made here quotes.ts, what they share context.ts.
 *
 * One race docs/cli.md does not tell: a lookup can answer -2025 while an earlier request with
 * the same id is still inside the exchange. A resend then meets -2028 or the order itself; and
 * should the order land after its intent was marked not placed, the sync's applyOrderUpdates
 * marks the intent done when it sees the order, so the record never loses one.
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  isFinalStatus,
  type OrderRequest,
  type OrderType,
  type Quote,
} from '../../shared/api/schemas.js';
import { Backoff, type BackoffOptions } from '../../shared/backoff.js';
import { newClientOrderId } from '../../shared/client-order-id.js';
import { silentLogger, type Logger } from '../../shared/log.js';
import { ExchangeError, type ExchangeClient } from '../client/index.js';
import { Priority } from '../governor/index.js';
import {
  DiskFullError,
  IntentConflictError,
  isDiskFull,
  isIoError,
  IoError,
  type OrderIntent,
  type Store,
} from '../store/index.js';
import {
  inlineOrderRequest,
  parseOrderType,
  quotedOrderRequest,
  rfqRequest,
  validateBet,
  validateClientOrderId,
  type Bet,
  type BetInput,
} from './bet.js';
import { type IntentParams, type TradingContext } from './context.js';
import { BetRefusedError, OrderValidationError } from './errors.js';
import { followOrder, type PollTimes, type WaitOptions } from './follow.js';
import { sortedKeys } from './ids.js';
import { LiveQuote } from './live-quote.js';
import { betRefusalOf, errorOf, type OrderOutcome } from './outcome.js';
import { Placements } from './placements.js';
import { QuoteBook } from './quotes.js';
import { reconcileIntents, type ReconcileReport } from './reconcile.js';
import { PLACEMENT_BACKOFF, isTransientReadError } from './retry.js';

export interface TradingServiceOptions {
  client: ExchangeClient;
  store: Store;
  /** The account (store row) whose wallet the client's key belongs to. */
  accountId: number;
  /** Makes the clientOrderId of an order the caller gave none (default: "bd-<time>-<random>"). */
  newClientOrderId?: () => string;
  /** Local clock for deadlines of waits, ms (default Date.now). Quote expiry uses the exchange's. */
  now?: () => number;
  /** How waits are made (default a timer); tests may speed them up. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  placement?: {
    /** Requests (sends and lookups) per placement before its fate is left to reconciliation (default 8). */
    attempts?: number;
    /** Retry waits (default 200 ms doubling up to 5 s). */
    backoff?: Partial<BackoffOptions>;
    /** How long to wait for the answer to POST /order, ms (default 10 000). */
    timeoutMs?: number;
  };
  polling?: {
    /** First wait before reading an order's status, ms (default 250); grows 1.5x per poll. */
    initialMs?: number;
    /** Longest wait between polls, ms (default 2000). */
    maxMs?: number;
    /** waitForFinal gives up after this long, ms (default 120 000). */
    timeoutMs?: number;
  };
  logger?: Logger;
}

/**
 * An order as a caller asks for it. Either a bet (contractId, outcome, side, qty, unit, boost)
 * or a quote to execute (`quote`, or `rfqId` of one), never both.
 * - MARKET with a bet: placed inline at the current price.
 * - FOK with a bet: quoted, then that quote is executed at once (its terms or nothing).
 * - FOK or MARKET with a quote: that quote is executed; refused here if it has lapsed.
 */
export interface OrderParams extends Partial<BetInput> {
  /** MARKET (default) or FOK. */
  type?: string;
  quote?: LiveQuote | Quote;
  rfqId?: string;
  /** The caller's own id (letters, digits and _ : . -, at most 64); one is made when absent. */
  clientOrderId?: string;
}

export class TradingService {
  readonly accountId: number;
  readonly #ctx: TradingContext;
  readonly #newId: () => string;
  readonly #poll: PollTimes;
  readonly #placements: Placements;
  readonly #quotes: QuoteBook;
  #reconciled: Promise<void> | undefined;

  constructor(opts: TradingServiceOptions) {
    this.accountId = opts.accountId;
    const now = opts.now ?? Date.now;
    this.#ctx = {
      accountId: opts.accountId,
      client: opts.client,
      store: opts.store,
      now,
      sleep: opts.sleep ?? ((ms) => delay(ms)),
      random: opts.random ?? Math.random,
      backoff: { ...PLACEMENT_BACKOFF, ...opts.placement?.backoff },
      log: opts.logger ?? silentLogger,
    };
    this.#newId = opts.newClientOrderId ?? (() => newClientOrderId(now()));
    this.#poll = {
      initialMs: opts.polling?.initialMs ?? 250,
      maxMs: opts.polling?.maxMs ?? 2000,
      timeoutMs: opts.polling?.timeoutMs ?? 120_000,
    };
    this.#placements = new Placements(this.#ctx, {
      attempts: Math.max(1, opts.placement?.attempts ?? 8),
      timeoutMs: opts.placement?.timeoutMs ?? 10_000,
    });
    this.#quotes = new QuoteBook(opts.client);
    if (!opts.store.accounts.get(this.accountId)) {
      throw new RangeError(`There is no account ${this.accountId} in the store.`);
    }
  }

  // ------------------------------------------------------------------ quotes

  /**
   * Prices a bet without placing it. The quote lives 30 s by the exchange's clock; ask the
   * result `expiresInMs()`. Throws OrderValidationError for a bet the API would refuse, and the
   * client's ExchangeError / NetworkError when the exchange refuses or cannot be reached;
   * BetRefusedError, in words, when it refuses a rule of the bet (its size, its boost).
   */
  async quote(input: BetInput, orderType?: string): Promise<LiveQuote> {
    const bet = validateBet(input);
    const type = orderType === undefined ? undefined : parseOrderType(orderType);
    const request = rfqRequest(bet, type);
    const { client } = this.#ctx;
    const quote = await this.#readRetrying(() =>
      client.rfq(request, { priority: Priority.quote }),
    ).catch((err: unknown) => {
      const refusal = err instanceof ExchangeError && betRefusalOf(err.code, err.serverMsg);
      throw refusal ? new BetRefusedError(err.code, refusal.reason, refusal.message) : err;
    });
    const live = new LiveQuote(quote, bet, () => client.serverNow());
    this.#quotes.remember(live);
    return live;
  }

  // ------------------------------------------------------------------ orders

  /**
   * Places an order and resolves once the exchange accepted it (HTTP 202, status SUBMITTED) or
   * once its fate is settled otherwise (NOT_PLACED with the refusal's code, or UNKNOWN when the
   * exchange could not be asked: the intent stays open and is reconciled later).
   *
   * Placing the same clientOrderId again with the same parameters returns that order (it is
   * never placed twice); with other parameters it throws IntentConflictError. Throws
   * OrderValidationError for an order the API would refuse and QuoteExpiredError for a quote
   * that has lapsed; in both cases nothing is recorded or sent. Throws DiskFullError when the
   * intent cannot be recorded for want of room: nothing is sent either.
   */
  async placeOrder(params: OrderParams): Promise<OrderOutcome> {
    const type = parseOrderType(params.type);
    const quoteRef = this.#quotes.refOf(params);
    const hasBet = BET_FIELDS.some((f) => params[f] !== undefined);
    if (quoteRef !== undefined && hasBet) {
      throw new OrderValidationError(
        'rfqId',
        'Give either the bet (contract, outcome, side, qty, unit, boost) or a quote to execute, not both: a quote already fixes the bet.',
      );
    }
    if (quoteRef === undefined && !hasBet) {
      throw new OrderValidationError(
        'contractId',
        'Say what to bet on: contract, outcome, side, qty and unit (or give a quote to execute).',
      );
    }
    const bet = hasBet ? validateBet(params as BetInput) : null;
    const clientOrderId =
      params.clientOrderId !== undefined
        ? validateClientOrderId(params.clientOrderId)
        : validateClientOrderId(this.#newId());
    await this.#ensureReconciled();
    const { store } = this.#ctx;

    let request: OrderRequest;
    let intentBet: Bet | null = bet;
    if (quoteRef !== undefined) {
      // A lapsed quote is refused here, unless this is the same order again (answered below).
      if (!store.intents.get(clientOrderId)) this.#quotes.refuseIfLapsed(quoteRef);
      intentBet = quoteRef.live?.bet ?? null;
      request = quotedOrderRequest(type, quoteRef.rfqId, clientOrderId);
    } else if (type === 'FOK') {
      // FOK fills exactly a quote's terms: quote first, then execute that quote at once.
      const existing = store.intents.get(clientOrderId);
      if (existing) return this.#repeatQuotedBet(existing, bet, 'FOK');
      let live: LiveQuote;
      try {
        live = await this.quote(bet!, 'FOK');
      } catch (err) {
        if (err instanceof OrderValidationError) throw err;
        return { clientOrderId, status: 'NOT_PLACED', error: errorOf(err) };
      }
      this.#quotes.refuseIfLapsed({ rfqId: live.rfqId, live });
      request = quotedOrderRequest('FOK', live.rfqId, clientOrderId);
    } else {
      request = inlineOrderRequest(bet!, clientOrderId);
    }
    request = sortedKeys(request);

    const recorded: IntentParams = { request, bet: intentBet };
    let intent: OrderIntent;
    let created: boolean;
    try {
      ({ intent, created } = store.intents.create({
        clientOrderId,
        accountId: this.accountId,
        params: recorded,
      }));
    } catch (err) {
      if (err instanceof IntentConflictError) {
        // Another account's id is said as the store says it; other parameters, with advice.
        throw err.reason === 'other-account' ? err : conflict(clientOrderId);
      }
      // No intent, no request: an order Betdesk could not follow is never sent.
      if (isDiskFull(err)) throw new DiskFullError(BET_NOT_RECORDED, { cause: err });
      if (isIoError(err)) throw new IoError(BET_NOT_RECORDED_IO, { cause: err });
      throw err;
    }
    if (!created) return this.#placements.resume(intent);
    // From here the intent is committed: the first byte may leave.
    return this.#placements.start(clientOrderId, request);
  }

  /**
   * Polls GET /order until the order is final (FILLED, CANCELED, REJECTED, FAILED, EXPIRED),
   * storing each report. Resolves with the outcome; when the order is still not final after
   * the timeout, with its last status and error code TIMEOUT.
   */
  waitForFinal(orderId: string, opts: WaitOptions = {}): Promise<OrderOutcome> {
    return followOrder(this.#ctx, this.#poll, orderId, opts);
  }

  /** placeOrder, then waitForFinal when it was accepted: the whole life of an order. */
  async trade(params: OrderParams, opts: WaitOptions = {}): Promise<OrderOutcome> {
    const placed = await this.placeOrder(params);
    if (placed.order === undefined || isFinalStatus(placed.order.status)) return placed;
    const final = await this.waitForFinal(placed.order.orderId, opts);
    return placed.warning && final.warning === undefined
      ? { ...final, warning: placed.warning }
      : final;
  }

  /**
   * Settles every open intent of the account with the exchange (reconcile.ts). Run it first
   * after a start; placeOrder runs it itself before its first placement.
   */
  async reconcileOpenIntents(): Promise<ReconcileReport> {
    const run = reconcileIntents(this.#ctx, this.#placements);
    this.#reconciled ??= run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** True while a placement of this clientOrderId runs in this process. */
  isPlacing(clientOrderId: string): boolean {
    return this.#placements.isRunning(clientOrderId);
  }

  /** A live or recently lapsed quote this service made, by rfqId. */
  quoteOf(rfqId: string): LiveQuote | undefined {
    return this.#quotes.get(rfqId);
  }

  /** The intent of a clientOrderId as this account recorded it, if any. */
  intent(clientOrderId: string): OrderIntent | undefined {
    const i = this.#ctx.store.intents.get(clientOrderId);
    return i && i.accountId === this.accountId ? i : undefined;
  }

  // ------------------------------------------------------------------ helpers

  async #ensureReconciled(): Promise<void> {
    if (this.#reconciled === undefined) await this.reconcileOpenIntents();
    else await this.#reconciled;
  }

  /**
   * A FOK bet (to be quoted) under a clientOrderId already recorded: the first answer when it
   * is the same bet, a conflict otherwise.
   */
  #repeatQuotedBet(existing: OrderIntent, bet: Bet | null, type: OrderType): Promise<OrderOutcome> {
    const p = existing.params as IntentParams;
    const same =
      existing.accountId === this.accountId &&
      p.request.orderType === type &&
      p.request.rfqId !== undefined &&
      JSON.stringify(sortedKeys(p.bet)) === JSON.stringify(sortedKeys(bet));
    if (!same) throw conflict(existing.clientOrderId);
    return this.#placements.resume(existing);
  }

  /** Retries a harmless read (a quote) on a transient failure, a few times. */
  async #readRetrying<T>(call: () => Promise<T>): Promise<T> {
    const ctx = this.#ctx;
    const backoff = new Backoff(ctx.backoff, ctx.random);
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (attempt >= READ_ATTEMPTS || !isTransientReadError(err)) throw err;
        const floor = err instanceof ExchangeError ? err.retryAfterMs : undefined;
        await ctx.sleep(backoff.next(floor));
      }
    }
  }
}

/** Tries of a quote before its failure is the caller's. */
const READ_ATTEMPTS = 3;

const BET_FIELDS = ['contractId', 'outcome', 'side', 'qty', 'unit', 'boost'] as const;

const BET_NOT_RECORDED =
  'Betdesk could not record the bet, so it was not sent. Free some space and place it again.';
const BET_NOT_RECORDED_IO =
  'The bet was not recorded, so it was not sent; nothing else changed. Check the disk, then ' +
  'place it again.';

function conflict(clientOrderId: string): IntentConflictError {
  return new IntentConflictError(
    clientOrderId,
    'other-params',
    'with different order parameters; a clientOrderId names one bet only, so choose a new one ' +
      '(or leave it out) for a different order',
  );
}
