/**
 * The trading service: quotes, orders and their outcomes for one account, with the guarantee
 * that one request of the user is at most one bet on the exchange, whatever fails.
 *
 * How that holds:
 * - Every order gets a clientOrderId before anything is sent, and an intent row (the id, the
 *   exact request, its hash, a state) is committed to SQLite before the first byte leaves.
 * - The request is built once, with sorted keys, so every resend (in this process or, read back
 *   from the intent, after a restart) is the same bytes with the same clientOrderId. The exchange
 *   makes a clientOrderId idempotent: resending it returns the order already placed.
 * - On trouble no new id is ever made. A refusal the spec calls retryable (-1003 after
 *   Retry-After, -2028, -5001..-5004) is resent; a lost answer (timeout, dropped connection,
 *   -1000, another 5xx) is looked up with GET /order?clientOrderId= first: found means placed,
 *   -2025 means not placed, so resending is safe. Attempts are bounded; when the fate is still
 *   unknown the intent stays `unknown` and reconcileOpenIntents() (or the sync engine, which
 *   marks an intent done when its order shows up) settles it later. It is never dropped.
 * - After a restart reconcileOpenIntents() runs before the first placement. An intent whose
 *   order the exchange does not have is marked not placed (state `failed`, code -2025): Betdesk
 *   does not place a bet by itself after a crash; the user decides whether to place it again.
 * - A lookup can answer -2025 while an earlier request with the same id is still on its way
 *   inside the exchange. A resend then meets -2028 ("being placed") or the order itself, so a
 *   placement in this process still ends right; and should such an order land after its intent
 *   was marked not placed, applyOrderUpdates (the sync) marks the intent done when it sees the
 *   order. The record never loses an order.
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  isFinalStatus,
  type Order,
  type OrderRequest,
  type OrderType,
  type Quote,
} from '../../shared/api/schemas.js';
import {
  ExchangeError,
  type ExchangeClient,
  type Logger,
  type OrderWarning,
  type PlacedOrder,
} from '../client/index.js';
import { Priority } from '../governor/index.js';
import { IntentConflictError, type OrderIntent, type Store } from '../store/index.js';
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
import { OrderValidationError, QuoteExpiredError } from './errors.js';
import { newClientOrderId, sortedKeys } from './ids.js';
import { LiveQuote } from './live-quote.js';
import {
  NOT_PLACED_CODE,
  errorOf,
  exchangeErrorOf,
  outcomeOfOrder,
  type OrderOutcome,
  type OutcomeError,
} from './outcome.js';
import {
  Backoff,
  classifyPlacementError,
  isTransientReadError,
  type BackoffOptions,
} from './retry.js';

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
    backoff?: BackoffOptions;
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

export interface WaitOptions {
  /** Overrides polling.timeoutMs. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface ReconcileReport {
  /** Open intents looked up on the exchange. */
  checked: number;
  /** Intents whose order the exchange has: now `done`, the order stored. */
  placed: string[];
  /** Intents the exchange has no order for: marked not placed (and not placed by us). */
  notPlaced: string[];
  /** Intents that could not be looked up (exchange unreachable): left `unknown` for next time. */
  unknown: string[];
}

/** What an intent's row holds in `params`. */
interface IntentParams {
  request: OrderRequest;
  /** The bet asked for, when known (null when a bare rfqId was executed). */
  bet: Bet | null;
}

const NOT_PLACED_AFTER_RESTART =
  'Not placed: the exchange has no order with this clientOrderId. Betdesk stopped before the ' +
  'order was confirmed and never places a bet by itself after a restart; place it again if you ' +
  'still want it.';

type Lookup =
  { seen: 'placed'; order: Order } | { seen: 'absent' } | { seen: 'unknown'; error: OutcomeError };

export class TradingService {
  readonly accountId: number;
  readonly #client: ExchangeClient;
  readonly #store: Store;
  readonly #newId: () => string;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #attempts: number;
  readonly #backoff: BackoffOptions;
  readonly #placeTimeoutMs: number;
  readonly #poll: { initialMs: number; maxMs: number; timeoutMs: number };
  readonly #log: Logger;
  /** Placements running in this process, by clientOrderId. */
  readonly #inflight = new Map<string, Promise<OrderOutcome>>();
  /** Quotes made here, by rfqId, so an order naming one can check its expiry first. */
  readonly #quotes = new Map<string, LiveQuote>();
  #reconciled: Promise<void> | undefined;

  constructor(opts: TradingServiceOptions) {
    this.accountId = opts.accountId;
    this.#client = opts.client;
    this.#store = opts.store;
    this.#now = opts.now ?? Date.now;
    this.#newId = opts.newClientOrderId ?? (() => newClientOrderId(this.#now));
    this.#sleep = opts.sleep ?? ((ms) => delay(ms));
    this.#random = opts.random ?? Math.random;
    this.#attempts = Math.max(1, opts.placement?.attempts ?? 8);
    this.#backoff = opts.placement?.backoff ?? {};
    this.#placeTimeoutMs = opts.placement?.timeoutMs ?? 10_000;
    this.#poll = {
      initialMs: opts.polling?.initialMs ?? 250,
      maxMs: opts.polling?.maxMs ?? 2000,
      timeoutMs: opts.polling?.timeoutMs ?? 120_000,
    };
    this.#log = opts.logger ?? { debug: () => {}, info: () => {}, warn: () => {} };
    if (!this.#store.accounts.get(this.accountId)) {
      throw new RangeError(`There is no account ${this.accountId} in the store.`);
    }
  }

  // ------------------------------------------------------------------ quotes

  /**
   * Prices a bet without placing it. The quote lives 30 s by the exchange's clock; ask the
   * result `expiresInMs()`. Throws OrderValidationError for a bet the API would refuse, and the
   * client's ExchangeError / NetworkError when the exchange refuses or cannot be reached.
   */
  async quote(input: BetInput, orderType?: string): Promise<LiveQuote> {
    const bet = validateBet(input);
    const type = orderType === undefined ? undefined : parseOrderType(orderType);
    const request = rfqRequest(bet, type);
    const quote = await this.#read(() => this.#client.rfq(request, { priority: Priority.quote }));
    const live = new LiveQuote(quote, bet, () => this.#client.serverNow());
    this.#remember(live);
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
   * that has lapsed; in both cases nothing is recorded or sent.
   */
  async placeOrder(params: OrderParams): Promise<OrderOutcome> {
    const type = parseOrderType(params.type);
    const quoteRef = this.#quoteRef(params);
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

    let request: OrderRequest;
    let intentBet: Bet | null = bet;
    if (quoteRef !== undefined) {
      // A lapsed quote is refused here, unless this is the same order again (answered below).
      if (!this.#store.intents.get(clientOrderId)) this.#refuseIfLapsed(quoteRef);
      intentBet = quoteRef.live?.bet ?? null;
      request = quotedOrderRequest(type, quoteRef.rfqId, clientOrderId);
    } else if (type === 'FOK') {
      // FOK fills exactly a quote's terms: quote first, then execute that quote at once.
      const existing = this.#store.intents.get(clientOrderId);
      if (existing) return this.#again(existing, bet, 'FOK');
      let live: LiveQuote;
      try {
        live = await this.quote(bet!, 'FOK');
      } catch (err) {
        if (err instanceof OrderValidationError) throw err;
        return { clientOrderId, status: 'NOT_PLACED', error: errorOf(err) };
      }
      this.#refuseIfLapsed({ rfqId: live.rfqId, live });
      request = quotedOrderRequest('FOK', live.rfqId, clientOrderId);
    } else {
      request = inlineOrderRequest(bet!, clientOrderId);
    }
    request = sortedKeys(request);

    const recorded: IntentParams = { request, bet: intentBet };
    let intent: OrderIntent;
    let created: boolean;
    try {
      ({ intent, created } = this.#store.intents.create({
        clientOrderId,
        accountId: this.accountId,
        params: recorded,
      }));
    } catch (err) {
      if (err instanceof IntentConflictError) {
        // Another account's id is said as the store says it; other parameters, with advice.
        throw /another account/.test(err.message) ? err : conflict(clientOrderId);
      }
      throw err;
    }
    if (!created) return this.#resume(intent);
    // From here the intent is committed: the first byte may leave.
    return this.#track(clientOrderId, () => this.#drive(clientOrderId, request, false));
  }

  /**
   * Polls GET /order until the order is final (FILLED, CANCELED, REJECTED, FAILED, EXPIRED),
   * storing each report. Resolves with the outcome; when the order is still not final after
   * the timeout, with its last status and error code TIMEOUT.
   */
  async waitForFinal(orderId: string, opts: WaitOptions = {}): Promise<OrderOutcome> {
    const timeoutMs = opts.timeoutMs ?? this.#poll.timeoutMs;
    const deadline = this.#now() + timeoutMs;
    const backoff = new Backoff(
      { initialMs: this.#poll.initialMs, maxMs: this.#poll.maxMs, factor: 1.5 },
      this.#random,
    );
    let last = this.#store.orders.getByOrderId(this.accountId, orderId);
    if (last && isFinalStatus(last.status)) return outcomeOfOrder(last);
    let lastError: OutcomeError | undefined;
    let floor = 0;
    for (;;) {
      // Waits first: an order just accepted is SUBMITTED for at least a block.
      const left = deadline - this.#now();
      if (left <= 0) break;
      await this.#sleep(Math.min(backoff.next(floor), left));
      floor = 0;
      opts.signal?.throwIfAborted();
      try {
        const order = await this.#client.getOrder(
          { orderId },
          { priority: Priority.orderStatus, ...(opts.signal ? { signal: opts.signal } : {}) },
        );
        this.#storeOrder(order);
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
        if (err instanceof ExchangeError && err.code === -1021) {
          await this.#client.syncClock().catch(() => undefined);
        }
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
   * Settles every open intent of the account with the exchange: GET /order?clientOrderId=
   * found -> the order is stored and the intent is `done`; -2025 -> the intent is marked not
   * placed (and nothing is placed); unreachable -> left `unknown` for the next time. Run it
   * first after a start; placeOrder runs it itself before its first placement.
   */
  async reconcileOpenIntents(): Promise<ReconcileReport> {
    const run = this.#reconcile();
    this.#reconciled ??= run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** True while a placement of this clientOrderId runs in this process. */
  isPlacing(clientOrderId: string): boolean {
    return this.#inflight.has(clientOrderId);
  }

  /** A live or recently lapsed quote this service made, by rfqId. */
  quoteOf(rfqId: string): LiveQuote | undefined {
    return this.#quotes.get(rfqId);
  }

  /** The intent of a clientOrderId as this account recorded it, if any. */
  intent(clientOrderId: string): OrderIntent | undefined {
    const i = this.#store.intents.get(clientOrderId);
    return i && i.accountId === this.accountId ? i : undefined;
  }

  // ------------------------------------------------------------------ placement

  /** Runs one placement, registered so a reconciliation never touches it while it runs. */
  #track(clientOrderId: string, run: () => Promise<OrderOutcome>): Promise<OrderOutcome> {
    const p = run().finally(() => this.#inflight.delete(clientOrderId));
    this.#inflight.set(clientOrderId, p);
    return p;
  }

  /**
   * Sends the request until its fate is known, never changing a byte of it. `uncertain` says
   * an earlier attempt may have placed the order, so it is looked up before any resend and a
   * refusal is not taken as "not placed" without asking.
   */
  async #drive(
    clientOrderId: string,
    request: OrderRequest,
    uncertain: boolean,
  ): Promise<OrderOutcome> {
    const backoff = new Backoff(this.#backoff, this.#random);
    let lookFirst = uncertain;
    let lastError: OutcomeError | undefined;
    let unreachable = 0;
    for (let attempt = 1; attempt <= this.#attempts; attempt++) {
      if (lookFirst) {
        const found = await this.#lookup(clientOrderId);
        if (found.seen === 'placed') return this.#accepted(found.order);
        if (found.seen === 'unknown') {
          lastError = found.error;
          await this.#sleep(backoff.next());
          continue;
        }
        // Absent: not placed (yet), and the exchange dedups the id, so resending is safe.
      }
      let placed: PlacedOrder;
      try {
        placed = await this.#client.placeOrder(request, {
          priority: Priority.placeOrder,
          headersTimeoutMs: this.#placeTimeoutMs,
          bodyTimeoutMs: this.#placeTimeoutMs,
        });
      } catch (err) {
        const verdict = classifyPlacementError(err);
        lastError = errorOf(err);
        if (verdict.kind !== 'not-sent') unreachable = 0;
        this.#log.warn('order attempt failed', {
          clientOrderId,
          attempt,
          verdict: verdict.kind,
          code: lastError.code,
        });
        switch (verdict.kind) {
          case 'lookup':
            uncertain = true;
            lookFirst = true;
            this.#markUnknown(clientOrderId, lastError);
            await this.#sleep(backoff.next());
            continue;
          case 'not-sent':
            // The exchange cannot be reached at all: say so soon rather than after every attempt.
            if (++unreachable >= UNREACHABLE_ATTEMPTS) {
              return uncertain
                ? this.#unknown(clientOrderId, lastError)
                : this.#notPlaced(clientOrderId, lastError);
            }
            lookFirst = uncertain;
            await this.#sleep(backoff.next());
            continue;
          case 'resend':
            // -2028: another request with this id is being placed right now.
            if (lastError.code === -2028) uncertain = true;
            lookFirst = false;
            await this.#sleep(backoff.next(verdict.waitMs));
            continue;
          case 'resync':
            lookFirst = false;
            await this.#client.syncClock().catch(() => undefined);
            continue;
          case 'final': {
            if (uncertain) {
              // An earlier attempt may stand even though this one was refused.
              const found = await this.#lookup(clientOrderId);
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

  /** Asks the exchange whether it has the order of this clientOrderId. */
  async #lookup(clientOrderId: string): Promise<Lookup> {
    try {
      const order = await this.#client.getOrder(
        { clientOrderId },
        { priority: Priority.placeOrder },
      );
      return { seen: 'placed', order };
    } catch (err) {
      if (err instanceof ExchangeError && err.code === -2025) return { seen: 'absent' };
      if (err instanceof ExchangeError && err.code === -1021) {
        await this.#client.syncClock().catch(() => undefined);
      }
      return { seen: 'unknown', error: errorOf(err) };
    }
  }

  #accepted(order: Order, warning?: OrderWarning): OrderOutcome {
    this.#storeOrder(order);
    const out = outcomeOfOrder(order);
    if (warning) out.warning = { code: warning.code, message: warning.message };
    return out;
  }

  /** Stores an exchange report and, in the same transaction, closes the intent it settles. */
  #storeOrder(order: Order): void {
    this.#store.transaction(() => {
      this.#store.orders.upsert(this.accountId, order);
      if (order.clientOrderId === '') return;
      const intent = this.#store.intents.get(order.clientOrderId);
      if (intent && intent.accountId === this.accountId && intent.state !== 'done') {
        this.#store.intents.markDone(order.clientOrderId, order.orderId);
      }
    });
  }

  #markUnknown(clientOrderId: string, error: OutcomeError): void {
    this.#store.intents.markUnknown(
      clientOrderId,
      typeof error.code === 'number' ? { code: error.code, msg: error.message } : undefined,
    );
  }

  #unknown(clientOrderId: string, error: OutcomeError | undefined): OrderOutcome {
    const reason = error?.message ?? 'The exchange could not be asked.';
    if (error) this.#markUnknown(clientOrderId, error);
    else this.#store.intents.markUnknown(clientOrderId);
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
    const e = error ?? { code: NOT_PLACED_CODE, message: 'The order was not placed.' };
    this.#store.intents.markFailed(clientOrderId, {
      code: typeof e.code === 'number' ? e.code : NOT_PLACED_CODE,
      msg: e.message,
    });
    return { clientOrderId, status: 'NOT_PLACED', error: e };
  }

  /** The same clientOrderId again, with the same parameters: the answer of the first time. */
  async #resume(intent: OrderIntent): Promise<OrderOutcome> {
    const id = intent.clientOrderId;
    const running = this.#inflight.get(id);
    if (running) return running;
    const request = (intent.params as IntentParams).request;
    switch (intent.state) {
      case 'done':
      case 'sent': {
        const order =
          (intent.orderId !== null
            ? this.#store.orders.getByOrderId(this.accountId, intent.orderId)
            : undefined) ?? this.#store.orders.getByClientOrderId(this.accountId, id);
        if (order) return outcomeOfOrder(order);
        return this.#track(id, () => this.#drive(id, request, true));
      }
      case 'failed':
        return {
          clientOrderId: id,
          status: 'NOT_PLACED',
          error:
            intent.lastErrorCode !== null
              ? exchangeErrorOf(intent.lastErrorCode, intent.lastErrorMsg ?? '')
              : { code: NOT_PLACED_CODE, message: 'The order was not placed.' },
        };
      case 'pending':
      case 'unknown':
        return this.#track(id, () => this.#drive(id, request, true));
    }
  }

  /** A FOK bet (to be quoted) under a clientOrderId that is already recorded. */
  #again(existing: OrderIntent, bet: Bet | null, type: OrderType): Promise<OrderOutcome> {
    const p = existing.params as IntentParams;
    const same =
      existing.accountId === this.accountId &&
      p.request.orderType === type &&
      p.request.rfqId !== undefined &&
      JSON.stringify(sortedKeys(p.bet)) === JSON.stringify(sortedKeys(bet));
    if (!same) throw conflict(existing.clientOrderId);
    return this.#resume(existing);
  }

  // ------------------------------------------------------------------ reconciliation

  async #ensureReconciled(): Promise<void> {
    if (this.#reconciled === undefined) await this.reconcileOpenIntents();
    else await this.#reconciled;
  }

  async #reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = { checked: 0, placed: [], notPlaced: [], unknown: [] };
    for (const intent of this.#store.intents.listOpen(this.accountId)) {
      // `failed` is settled (the exchange refused, or it was found not placed); a late order
      // for it still closes it when the sync engine sees that order.
      if (intent.state === 'failed' || this.#inflight.has(intent.clientOrderId)) continue;
      report.checked++;
      const found = await this.#lookupPatiently(intent.clientOrderId);
      if (found.seen === 'placed') {
        this.#storeOrder(found.order);
        report.placed.push(intent.clientOrderId);
      } else if (found.seen === 'absent') {
        this.#store.intents.markFailed(intent.clientOrderId, {
          code: NOT_PLACED_CODE,
          msg: NOT_PLACED_AFTER_RESTART,
        });
        report.notPlaced.push(intent.clientOrderId);
      } else {
        this.#markUnknown(intent.clientOrderId, found.error);
        report.unknown.push(intent.clientOrderId);
      }
    }
    if (report.checked > 0) this.#log.info('open order intents reconciled', { ...report });
    return report;
  }

  /** A lookup tried again on a refusal that passes (-1003, 5xx); a network failure ends it. */
  async #lookupPatiently(clientOrderId: string): Promise<Lookup> {
    const backoff = new Backoff(this.#backoff, this.#random);
    for (let attempt = 1; ; attempt++) {
      const found = await this.#lookup(clientOrderId);
      if (found.seen !== 'unknown' || found.error.code === 'NETWORK' || attempt >= 3) return found;
      await this.#sleep(backoff.next());
    }
  }

  // ------------------------------------------------------------------ helpers

  /** Retries a harmless read (a quote) on a transient failure, a few times. */
  async #read<T>(call: () => Promise<T>): Promise<T> {
    const backoff = new Backoff(this.#backoff, this.#random);
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (attempt >= 3 || !isTransientReadError(err)) throw err;
        if (err instanceof ExchangeError && err.code === -1021) {
          await this.#client.syncClock().catch(() => undefined);
        }
        const floor = err instanceof ExchangeError ? err.retryAfterMs : undefined;
        await this.#sleep(backoff.next(floor));
      }
    }
  }

  #quoteRef(params: OrderParams): { rfqId: string; live?: LiveQuote; quote?: Quote } | undefined {
    if (params.quote !== undefined && params.rfqId !== undefined) {
      if (rfqIdOf(params.quote) !== params.rfqId) {
        throw new OrderValidationError(
          'rfqId',
          'The rfqId given is not the id of the quote given.',
        );
      }
    }
    if (params.quote instanceof LiveQuote) return { rfqId: params.quote.rfqId, live: params.quote };
    if (params.quote !== undefined) {
      const live = this.#quotes.get(params.quote.rfqId);
      return live
        ? { rfqId: live.rfqId, live }
        : { rfqId: params.quote.rfqId, quote: params.quote };
    }
    if (params.rfqId !== undefined) {
      if (typeof params.rfqId !== 'string' || !/^[A-Za-z0-9_:.-]{1,128}$/.test(params.rfqId)) {
        throw new OrderValidationError('rfqId', 'The rfqId is not the id of a quote.');
      }
      const live = this.#quotes.get(params.rfqId);
      return live ? { rfqId: live.rfqId, live } : { rfqId: params.rfqId };
    }
    return undefined;
  }

  /** FOK (and MARKET) executing a quote: refused here once the quote has lapsed. */
  #refuseIfLapsed(ref: { rfqId: string; live?: LiveQuote; quote?: Quote }): void {
    const expiresAt = ref.live?.expiresAt ?? ref.quote?.expiresAt;
    if (expiresAt === undefined) return;
    const lapsedFor = this.#client.serverNow() - expiresAt;
    if (lapsedFor >= 0) throw new QuoteExpiredError(ref.rfqId, lapsedFor);
  }

  #remember(live: LiveQuote): void {
    for (const [id, q] of this.#quotes) {
      if (q.expiredForMs() < 60_000 && this.#quotes.size < 1000) break;
      this.#quotes.delete(id);
    }
    this.#quotes.set(live.rfqId, live);
  }
}

/** Attempts in a row that could not connect before a placement gives up. */
const UNREACHABLE_ATTEMPTS = 3;

const BET_FIELDS = ['contractId', 'outcome', 'side', 'qty', 'unit', 'boost'] as const;

function rfqIdOf(q: LiveQuote | Quote): string {
  return q instanceof LiveQuote ? q.rfqId : q.rfqId;
}

function conflict(clientOrderId: string): IntentConflictError {
  return new IntentConflictError(
    clientOrderId,
    'with different order parameters; a clientOrderId names one bet only, so choose a new one ' +
      '(or leave it out) for a different order',
  );
}
