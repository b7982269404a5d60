/**
 * The exchange client: one instance per account (API key) and exchange. It signs every request
 * afresh with the exchange's clock, sends it through the rate-limit governor, checks the answer
 * against the shared schemas and turns every failure into ExchangeError, NetworkError or
 * ProtocolError. The API secret stays in a private field: it is read only to compute an HMAC.
 */
import { inspect } from 'node:util';
import type { Dispatcher, Pool } from 'undici';
import { ErrorCodes } from '../../shared/api/errors.js';
import {
  ErrorBody,
  FixtureList,
  Health,
  Order,
  OrderList,
  OrderUpdates,
  PositionList,
  Quote,
  ServerTime,
  SettlementList,
  type FixturesQuery,
  type OrderRequest,
  type OrdersQuery,
  type PositionsQuery,
  type RfqRequest,
  type SettlementsQuery,
} from '../../shared/api/schemas.js';
import {
  API_VERSION,
  HEADER_API_VERSION,
  RECV_WINDOW_DEFAULT,
  RECV_WINDOW_MAX,
  RECV_WINDOW_MIN,
  buildQuery,
} from '../../shared/api/signing.js';
import { silentLogger, type Logger } from '../../shared/log.js';
import type { RateGovernor } from '../governor/governor.js';
import { parseRetryAfterMs, type HeaderMap } from '../governor/headers.js';
import { routePriority } from '../governor/priority.js';
import { ServerClock } from './clock.js';
import {
  ExchangeError,
  NetworkError,
  ProtocolError,
  orderWarning,
  type OrderWarning,
} from './errors.js';
import { networkError } from './network.js';
import { borrowPool, returnPool } from './pool.js';
import {
  signHeaders,
  uniqueTimestamp,
  type Credentials,
  type CredentialsSource,
} from './signer.js';
import { bodyCheck, type BodyCheck } from './validate.js';

export interface ExchangeClientOptions {
  /** e.g. "http://127.0.0.1:8787" or "https://api.example.com/v0" (a path prefix is kept). */
  baseUrl: string;
  /** Needed for every signed endpoint; a function is asked before each request. */
  credentials?: CredentialsSource;
  /** This client's name in the governor; defaults to the API key. One per wallet. */
  account?: string;
  /** X-Recv-Window, 100 to 60000 ms (default 5000). */
  recvWindow?: number;
  governor?: RateGovernor;
  /** The local clock, ms since epoch (default Date.now). */
  clock?: () => number;
  logger?: Logger;
  /** Default per-request timeouts: until the answer's headers, and between body chunks. */
  timeouts?: { headersMs?: number; bodyMs?: number };
  /** GET /time round trips per sync (default 5) and how often to sync again (default 5 min). */
  clockSync?: { samples?: number; resyncMs?: number };
}

export interface CallOptions {
  signal?: AbortSignal;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Overrides the route's place in the governor's queue (see Priority). */
  priority?: number;
}

export interface PlacedOrder {
  order: Order;
  httpStatus: number;
  /** Set when the 202 carried an error (-5004): the order stands, GET /order tells its fate. */
  warning?: OrderWarning;
}

export type OrderLookup = { orderId: string } | { clientOrderId: string };

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

interface Call<T> {
  method: 'GET' | 'POST';
  /** Path of the endpoint, as docs/api.md 4 lists it ("/order/rfq"). */
  path: string;
  query?: Query;
  body?: unknown;
  signed: boolean;
  check: BodyCheck<T>;
}

const checks = {
  error: bodyCheck<ErrorBody>(ErrorBody),
  health: bodyCheck<Health>(Health),
  time: bodyCheck<ServerTime>(ServerTime),
  fixtures: bodyCheck<FixtureList>(FixtureList),
  quote: bodyCheck<Quote>(Quote),
  order: bodyCheck<Order>(Order),
  orders: bodyCheck<OrderList>(OrderList),
  updates: bodyCheck<OrderUpdates>(OrderUpdates),
  positions: bodyCheck<PositionList>(PositionList),
  settlements: bodyCheck<SettlementList>(SettlementList),
};

export class ExchangeClient {
  readonly baseUrl: string;
  readonly recvWindow: number;
  #credentials: CredentialsSource | undefined;
  readonly #account: string | undefined;
  readonly #origin: string;
  readonly #prefix: string;
  readonly #pool: Pool;
  readonly #governor: RateGovernor | undefined;
  readonly #logger: Logger;
  readonly #timeouts: { headersMs: number; bodyMs: number };
  readonly #clock: ServerClock;
  #closed = false;

  constructor(opts: ExchangeClientOptions) {
    const url = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl;
    this.#origin = url.origin;
    this.#prefix = url.pathname.replace(/\/+$/, '');
    this.recvWindow = opts.recvWindow ?? RECV_WINDOW_DEFAULT;
    if (
      !Number.isInteger(this.recvWindow) ||
      this.recvWindow < RECV_WINDOW_MIN ||
      this.recvWindow > RECV_WINDOW_MAX
    ) {
      throw new RangeError(
        `recvWindow must be a whole number of ms from ${RECV_WINDOW_MIN} to ${RECV_WINDOW_MAX}.`,
      );
    }
    this.#credentials = opts.credentials;
    this.#account = opts.account;
    this.#governor = opts.governor;
    this.#logger = opts.logger ?? silentLogger;
    this.#timeouts = {
      headersMs: opts.timeouts?.headersMs ?? 10_000,
      bodyMs: opts.timeouts?.bodyMs ?? 10_000,
    };
    const localNow = opts.clock ?? Date.now;
    this.#clock = new ServerClock(
      localNow,
      async () =>
        (await this.#request({ method: 'GET', path: '/time', signed: false, check: checks.time }))
          .value.serverTime,
      { samples: opts.clockSync?.samples ?? 5, resyncMs: opts.clockSync?.resyncMs ?? 5 * 60_000 },
      (offsetMs, rttMs) => this.#logger.info('exchange clock synchronised', { offsetMs, rttMs }),
    );
    this.#pool = borrowPool(this.#origin);
  }

  // ------------------------------------------------------------------ public endpoints

  async health(o?: CallOptions): Promise<Health> {
    return (
      await this.#request(
        { method: 'GET', path: '/health', signed: false, check: checks.health },
        o,
      )
    ).value;
  }

  async time(o?: CallOptions): Promise<ServerTime> {
    return (
      await this.#request({ method: 'GET', path: '/time', signed: false, check: checks.time }, o)
    ).value;
  }

  async fixtures(q: FixturesQuery = {}, o?: CallOptions): Promise<FixtureList> {
    return (
      await this.#request(
        { method: 'GET', path: '/fixtures', query: q, signed: false, check: checks.fixtures },
        o,
      )
    ).value;
  }

  // ------------------------------------------------------------------ signed endpoints

  async rfq(req: RfqRequest, o?: CallOptions): Promise<Quote> {
    return (
      await this.#request(
        { method: 'POST', path: '/order/rfq', body: req, signed: true, check: checks.quote },
        o,
      )
    ).value;
  }

  /**
   * Places an order. Resolves on HTTP 202 (the transaction is broadcast, not filled). A 202 with
   * error -5004 resolves too, with `warning` set. Any thrown error means nothing was placed,
   * except a NetworkError with `outcomeUnknown`: then look the order up by its clientOrderId.
   */
  async placeOrder(req: OrderRequest, o?: CallOptions): Promise<PlacedOrder> {
    const { value: order, status } = await this.#request(
      { method: 'POST', path: '/order', body: req, signed: true, check: checks.order },
      o,
    );
    if (order.error === undefined) return { order, httpStatus: status };
    const warning = orderWarning(order.error.code, order.error.msg);
    this.#logger.warn('order accepted with a warning', {
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      code: warning.code,
    });
    return { order, httpStatus: status, warning };
  }

  async getOrder(q: OrderLookup, o?: CallOptions): Promise<Order> {
    const query = 'orderId' in q ? { orderId: q.orderId } : { clientOrderId: q.clientOrderId };
    return (
      await this.#request(
        { method: 'GET', path: '/order', query, signed: true, check: checks.order },
        o,
      )
    ).value;
  }

  async orders(q: OrdersQuery = {}, o?: CallOptions): Promise<OrderList> {
    return (
      await this.#request(
        { method: 'GET', path: '/orders', query: q, signed: true, check: checks.orders },
        o,
      )
    ).value;
  }

  /** Orders changed since `since` (a cursor of a previous answer); all of them without it. */
  async orderUpdates(since?: number, o?: CallOptions): Promise<OrderUpdates> {
    return (
      await this.#request(
        {
          method: 'GET',
          path: '/orders/updates',
          query: { since },
          signed: true,
          check: checks.updates,
        },
        o,
      )
    ).value;
  }

  async positions(q: PositionsQuery = {}, o?: CallOptions): Promise<PositionList> {
    return (
      await this.#request(
        { method: 'GET', path: '/positions', query: q, signed: true, check: checks.positions },
        o,
      )
    ).value;
  }

  async settlements(q: SettlementsQuery = {}, o?: CallOptions): Promise<SettlementList> {
    return (
      await this.#request(
        { method: 'GET', path: '/settlements', query: q, signed: true, check: checks.settlements },
        o,
      )
    ).value;
  }

  // ------------------------------------------------------------------ clock and lifecycle

  /** Measures the offset to the exchange's clock now (it is also done lazily and periodically). */
  async syncClock(): Promise<{ offsetMs: number }> {
    await this.#clock.sync();
    return { offsetMs: this.#clock.offsetMs };
  }

  /** Exchange time minus local time, ms, as last measured (0 before the first sync). */
  get clockOffsetMs(): number {
    return this.#clock.offsetMs;
  }

  /** The exchange's time now, as best known. */
  serverNow(): number {
    return this.#clock.now();
  }

  /** Replaces the credentials (e.g. after the user rotated the key). */
  setCredentials(credentials: CredentialsSource | undefined): void {
    this.#credentials = credentials;
  }

  /** Lets requests in flight finish, then releases the connection pool. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await returnPool(this.#origin, this.#pool);
  }

  toString(): string {
    return `ExchangeClient(${this.baseUrl})`;
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  [inspect.custom](): string {
    return this.toString();
  }

  // ------------------------------------------------------------------ the one request path

  async #request<T>(c: Call<T>, o: CallOptions = {}): Promise<{ value: T; status: number }> {
    const route = `${c.method} ${c.path}`;
    if (this.#closed) {
      throw new NetworkError({
        route,
        kind: 'other',
        outcomeUnknown: false,
        cause: new Error('client closed'),
      });
    }
    // Built once: the bytes signed are the bytes sent, on every attempt.
    const qs = c.query ? buildQuery(c.query) : '';
    const body = c.body === undefined ? undefined : JSON.stringify(c.body);
    const path = this.#prefix + c.path;
    const pathWithQuery = qs === '' ? path : `${path}?${qs}`;

    let resynced = false;
    for (;;) {
      let credentials: Credentials | undefined;
      let account: string | null = null;
      if (c.signed) {
        credentials = await this.#resolveCredentials(route);
        account = this.#account ?? credentials.apiKey;
        await this.#clock.ensureFresh();
      }
      if (this.#governor) {
        try {
          await this.#governor.acquire(account, route, o.priority ?? routePriority(route), {
            ...(o.signal ? { signal: o.signal } : {}),
          });
        } catch (err) {
          throw new NetworkError({ route, kind: 'aborted', outcomeUnknown: false, cause: err });
        }
      }

      const headers: Record<string, string> = {
        [HEADER_API_VERSION]: String(API_VERSION),
        accept: 'application/json',
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (credentials) {
        // Signed after the wait in the queue, so the timestamp is fresh when it leaves.
        Object.assign(
          headers,
          signHeaders({
            credentials,
            timestamp: uniqueTimestamp(credentials.apiKey, this.#clock.now()),
            recvWindow: this.recvWindow,
            method: c.method,
            path,
            payload: body ?? qs,
          }),
        );
      }

      const answer = await this.#send(route, account, {
        method: c.method,
        path: pathWithQuery,
        headers,
        ...(body !== undefined ? { body } : {}),
        headersTimeout: o.headersTimeoutMs ?? this.#timeouts.headersMs,
        bodyTimeout: o.bodyTimeoutMs ?? this.#timeouts.bodyMs,
        ...(o.signal ? { signal: o.signal } : {}),
      });

      if (answer.status >= 200 && answer.status < 300) {
        const checked = c.check.check(answer.json);
        if (!checked.ok) throw this.#protocol(route, answer.status, checked.problem);
        return { value: checked.value, status: answer.status };
      }

      const err = this.#exchangeError(route, answer);
      if (err.code === ErrorCodes.TIMESTAMP_OUTSIDE_RECV_WINDOW && c.signed && !resynced) {
        // Our idea of the exchange's time is off: measure again and re-sign once.
        resynced = true;
        this.#logger.warn('timestamp refused; synchronising the clock and retrying', { route });
        await this.#clock.sync();
        continue;
      }
      throw err;
    }
  }

  /** Sends one request and reads its JSON answer; always reports back to the governor once. */
  async #send(
    route: string,
    account: string | null,
    req: Dispatcher.RequestOptions,
  ): Promise<{ status: number; headers: HeaderMap; json: unknown }> {
    const started = Date.now();
    let status: number | undefined;
    let headers: HeaderMap | undefined;
    let json: unknown;
    let code: number | undefined;
    try {
      let text: string;
      try {
        const res = await this.#pool.request(req);
        status = res.statusCode;
        headers = res.headers;
        text = await res.body.text();
      } catch (err) {
        throw networkError(route, err, req.signal as AbortSignal | undefined);
      }
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        const type = contentTypeOf(headers) ?? 'no content type';
        const detail = `the body is not JSON (${type}, ${text.length} characters)`;
        throw this.#notExchange(route, status, headers, detail);
      }
      if (status >= 400 && typeof json === 'object' && json !== null) {
        const c = (json as { code?: unknown }).code;
        if (typeof c === 'number') code = c;
      }
      this.#logger.debug('exchange answered', { route, status, code, ms: Date.now() - started });
      return { status, headers, json };
    } finally {
      this.#governor?.observe(account, route, {
        ...(status !== undefined ? { status } : {}),
        ...(headers !== undefined ? { headers } : {}),
        ...(code !== undefined ? { code } : {}),
      });
    }
  }

  #exchangeError(
    route: string,
    answer: { status: number; headers: HeaderMap; json: unknown },
  ): ExchangeError {
    const checked = checks.error.check(answer.json);
    if (!checked.ok) {
      // Every error of the exchange carries {code, msg} (docs/api.md 7): this is another server.
      const detail = `an error answer without {code, msg}: ${checked.problem}`;
      throw this.#notExchange(route, answer.status, answer.headers, detail);
    }
    const retryAfterMs = parseRetryAfterMs(answer.headers, Date.now());
    return new ExchangeError({
      code: checked.value.code,
      serverMsg: checked.value.msg,
      httpStatus: answer.status,
      route,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }

  /**
   * An answer no exchange gives (not JSON, or an error without {code, msg}): the server is not an
   * exchange. `detail` says what was wrong; the body is never quoted.
   */
  #notExchange(
    route: string,
    httpStatus: number,
    headers: HeaderMap,
    detail: string,
  ): ProtocolError {
    const err = new ProtocolError({
      route,
      httpStatus,
      detail,
      contentType: contentTypeOf(headers),
      notExchange: true,
    });
    this.#logger.warn('the server answered outside the API', { route, httpStatus, detail });
    return err;
  }

  #protocol(route: string, httpStatus: number, detail: string): ProtocolError {
    const err = new ProtocolError({ route, httpStatus, detail });
    this.#logger.warn('the exchange answered outside the API', { route, httpStatus, detail });
    return err;
  }

  async #resolveCredentials(route: string): Promise<Credentials> {
    const source = this.#credentials;
    if (source === undefined) {
      throw new TypeError(`${route} needs an API key, and this exchange client has none.`);
    }
    const creds = typeof source === 'function' ? await source() : source;
    if (!creds.apiKey || !creds.secret) {
      throw new TypeError(`${route} needs an API key and secret; the ones given are empty.`);
    }
    return creds;
  }
}

function contentTypeOf(headers: HeaderMap): string | undefined {
  const raw = headers['content-type'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === undefined ? undefined : String(value);
}
