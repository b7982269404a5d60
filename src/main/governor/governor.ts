/**
 * The client-side rate-limit governor: a mirror of the exchange's buckets (docs/api.md 8.1)
 * that holds every request back until the exchange would accept it, so the app never spends a
 * 429. One instance per process: the per-IP cap and the fixtures bucket are shared by every
 * account, the other groups are per account (wallet).
 *
 * Requests wait in one queue ordered by priority, then arrival, and each pass grants, in that
 * order, every request whose buckets all hold a token. So when several wait for the same token
 * the most urgent gets it, and a request never waits behind one stuck on a bucket it does not
 * need (an account out of quotes does not hold up another account's order).
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import {
  GROUP_LIMITS,
  IP_LIMIT,
  ROUTE_GROUPS,
  priceFeedCost,
  type BucketSpec,
  type LimitGroup,
} from '../../shared/api/limits.js';
import { TokenBucket, type BucketSnapshot } from './bucket.js';
import {
  parseRateLimitLimit,
  parseRateLimitRemaining,
  parseRetryAfterMs,
  type HeaderMap,
} from './headers.js';
import { routePriority } from './priority.js';
import { systemTime, type TimeSource } from './time.js';

/** The groups the exchange keys by wallet; `fixtures` is keyed by IP. */
export type WalletGroup = Exclude<LimitGroup, 'fixtures'>;
const WALLET_GROUPS: readonly WalletGroup[] = ['orders', 'quotes', 'reads', 'positions'];

export interface GovernorOptions {
  time?: TimeSource;
  groupLimits?: Readonly<Record<LimitGroup, BucketSpec>>;
  ipLimit?: { readonly perSecond: number; readonly burst: number };
  /**
   * Tokens held back from every bucket's burst against network jitter: at least `reserveTokens`
   * (default 1), and at least what the bucket refills in `jitterAllowanceMs` (default 100).
   */
  reserveTokens?: number;
  jitterAllowanceMs?: number;
  /** Share of the exchange's refill rate we allow ourselves, against clock drift (default 0.98). */
  rateFactor?: number;
  /** Added to every Retry-After (default 50 ms). */
  retryAfterMarginMs?: number;
  /** Wait after a -1003 without Retry-After: first wait, doubled each time up to the cap. */
  backoff?: { initialMs: number; maxMs: number };
}

export interface AcquireOptions {
  signal?: AbortSignal;
}

/** What the client saw of an answer. */
export interface ObservedResponse {
  /** HTTP status; absent when no answer arrived (network failure, timeout). */
  status?: number;
  headers?: HeaderMap;
  /** The `code` of an error body, when there was one. */
  code?: number;
}

export interface PriceFeedSnapshot {
  /** Until when the exchange told us to stop price-feed requests (ms, local clock), or null. */
  blockedUntil: number | null;
  queued: number;
}

export interface GovernorSnapshot {
  /** Local time of the snapshot, ms since epoch. */
  at: number;
  /** Requests waiting in all. */
  queued: number;
  ip: {
    /** The per-IP cap across the whole API. */
    requests: BucketSnapshot;
    /** GET /fixtures, keyed by IP. */
    fixtures: BucketSnapshot;
    /** The shared price-feed budget: capacity unknown, only the exchange's back-off is mirrored. */
    priceFeed: PriceFeedSnapshot;
  };
  accounts: Record<string, Record<WalletGroup, BucketSnapshot>>;
}

export class GovernorClosedError extends Error {
  constructor() {
    super('The rate-limit governor was closed before the request could be sent.');
    this.name = 'GovernorClosedError';
  }
}

interface PriceGate {
  blockedUntil: number;
  backoffMs: number;
  queued: number;
}

interface Waiter {
  seq: number;
  priority: number;
  account: string | null;
  buckets: TokenBucket[];
  priceGated: boolean;
  resolve: () => void;
  reject: (err: Error) => void;
  cleanup: () => void;
}

export class RateGovernor {
  private readonly time: TimeSource;
  private readonly limits: Readonly<Record<LimitGroup, BucketSpec>>;
  private readonly reserve: number;
  private readonly jitterMs: number;
  private readonly rateFactor: number;
  private readonly retryMargin: number;
  private readonly backoff: { initialMs: number; maxMs: number };

  private readonly ip: TokenBucket;
  private readonly fixtures: TokenBucket;
  private readonly priceGate: PriceGate;
  private readonly accounts = new Map<string, Record<WalletGroup, TokenBucket>>();

  private readonly waiters: Waiter[] = [];
  private seq = 0;
  private timer: unknown = undefined;
  private closed = false;
  private readonly listeners = new Set<() => void>();

  constructor(opts: GovernorOptions = {}) {
    this.time = opts.time ?? systemTime;
    this.limits = opts.groupLimits ?? GROUP_LIMITS;
    this.reserve = opts.reserveTokens ?? 1;
    this.jitterMs = opts.jitterAllowanceMs ?? 100;
    this.rateFactor = opts.rateFactor ?? 0.98;
    this.retryMargin = opts.retryAfterMarginMs ?? 50;
    this.backoff = opts.backoff ?? { initialMs: 1000, maxMs: 30_000 };
    const ipLimit = opts.ipLimit ?? IP_LIMIT;
    const now = this.time.now();
    this.ip = this.bucket(ipLimit.burst, ipLimit.perSecond, now);
    this.fixtures = this.groupBucket('fixtures', now);
    this.priceGate = { blockedUntil: 0, backoffMs: this.backoff.initialMs, queued: 0 };
  }

  /** Starts tracking an account's buckets (full, as the exchange starts them). Idempotent. */
  registerAccount(account: string): void {
    if (this.accounts.has(account)) return;
    const now = this.time.now();
    const groups = {} as Record<WalletGroup, TokenBucket>;
    for (const g of WALLET_GROUPS) groups[g] = this.groupBucket(g, now);
    this.accounts.set(account, groups);
    this.emit();
  }

  /** Forgets an account; its waiting requests are rejected. */
  unregisterAccount(account: string): void {
    for (const w of [...this.waiters]) {
      if (w.account === account) this.drop(w, new GovernorClosedError());
    }
    this.accounts.delete(account);
    this.pump();
  }

  /**
   * Resolves when `route` ("METHOD /path") may be sent for `account` (null for unsigned
   * requests) without any bucket refusing it; the tokens are taken on resolution. Every acquire
   * must be followed by exactly one `observe` for the same account and route.
   */
  acquire(
    account: string | null,
    route: string,
    priority: number = routePriority(route),
    opts: AcquireOptions = {},
  ): Promise<void> {
    if (this.closed) return Promise.reject(new GovernorClosedError());
    const { signal } = opts;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const buckets = [this.ip];
    try {
      const group = this.groupOf(account, route);
      if (group) buckets.push(group);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const priceGated = priceFeedCost(route, false) > 0;

    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        if (signal) this.drop(waiter, abortReason(signal));
        this.pump();
      };
      const waiter: Waiter = {
        seq: this.seq++,
        priority,
        account,
        buckets,
        priceGated,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.enqueue(waiter);
      this.pump();
    });
  }

  /** Feeds an answer (or its absence) back: settles the in-flight count and corrects buckets. */
  observe(account: string | null, route: string, res: ObservedResponse): void {
    const now = this.time.now();
    const group = this.groupOf(account, route);
    this.ip.settle();
    group?.settle();
    if (res.status !== undefined) this.correct(group, route, res, now);
    this.pump();
  }

  snapshot(): GovernorSnapshot {
    const now = this.time.now();
    const accounts: GovernorSnapshot['accounts'] = {};
    for (const [account, groups] of this.accounts) {
      const snap = {} as Record<WalletGroup, BucketSnapshot>;
      for (const g of WALLET_GROUPS) snap[g] = groups[g].snapshot(now);
      accounts[account] = snap;
    }
    return {
      at: now,
      queued: this.waiters.length,
      ip: {
        requests: this.ip.snapshot(now),
        fixtures: this.fixtures.snapshot(now),
        priceFeed: {
          blockedUntil: this.priceGate.blockedUntil > now ? this.priceGate.blockedUntil : null,
          queued: this.priceGate.queued,
        },
      },
      accounts,
    };
  }

  /** Calls `listener` after every change of state (for a status bar); returns an unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Rejects every waiting request and refuses new ones. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of [...this.waiters]) this.drop(w, new GovernorClosedError());
    if (this.timer !== undefined) this.time.clearTimer(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  // ------------------------------------------------------------------------------------------

  private bucket(burst: number, perSecond: number, now: number): TokenBucket {
    return new TokenBucket(this.capacityFor(burst, perSecond), perSecond * this.rateFactor, now);
  }

  private capacityFor(burst: number, perSecond: number): number {
    const reserve = Math.max(this.reserve, Math.ceil((perSecond * this.jitterMs) / 1000));
    return Math.max(1, burst - reserve);
  }

  private groupBucket(group: LimitGroup, now: number): TokenBucket {
    const spec = this.limits[group];
    return this.bucket(spec.burst, spec.perMinute / 60, now);
  }

  private groupOf(account: string | null, route: string): TokenBucket | undefined {
    const group = ROUTE_GROUPS[route];
    if (group === undefined) return undefined;
    if (group === 'fixtures') return this.fixtures;
    if (account === null) {
      throw new TypeError(`The route ${route} is limited per account; an account is required.`);
    }
    this.registerAccount(account);
    return this.accounts.get(account)?.[group];
  }

  private correct(
    group: TokenBucket | undefined,
    route: string,
    res: ObservedResponse,
    now: number,
  ): void {
    const headers = res.headers;
    const remaining = parseRateLimitRemaining(headers);
    const limit = parseRateLimitLimit(headers);
    if (group && limit !== undefined) {
      // The exchange may run smaller buckets than the table of docs/api.md 8.1; never assume more.
      const capacity = this.capacityFor(limit, group.refillPerSec / this.rateFactor);
      if (capacity < group.capacity) {
        group.capacity = capacity;
        group.lowerTo(capacity, now);
      }
    }
    // Requests still in flight will be charged after this answer's count was taken.
    if (group && remaining !== undefined) group.lowerTo(remaining - group.inFlight, now);

    const rateLimited = res.status === 429 || res.code === ErrorCodes.TOO_MANY_REQUESTS;
    const priceFeedRoute = priceFeedCost(route, false) > 0;
    if (rateLimited) {
      const retryAfter = parseRetryAfterMs(headers, now);
      if (res.status === 503) {
        // The shared price-feed budget is shedding load: its size is unknown, so back off.
        const wait = retryAfter ?? this.priceGate.backoffMs;
        this.priceGate.backoffMs = Math.min(this.backoff.maxMs, this.priceGate.backoffMs * 2);
        this.priceGate.blockedUntil = Math.max(
          this.priceGate.blockedUntil,
          now + wait + this.retryMargin,
        );
      } else {
        // The IP cap is checked first; a wallet bucket that refused says it has nothing left.
        const target = group && remaining === 0 ? group : this.ip;
        const wait = retryAfter ?? Math.ceil(1000 / target.refillPerSec);
        target.block(now + wait + this.retryMargin, now);
      }
    } else if (priceFeedRoute && res.status !== undefined && res.status < 500) {
      this.priceGate.backoffMs = this.backoff.initialMs;
    }
  }

  private enqueue(w: Waiter): void {
    // Sorted by (priority, seq): binary search for the first waiter that goes after w.
    let lo = 0;
    let hi = this.waiters.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.waiters[mid]!;
      if (m.priority < w.priority || (m.priority === w.priority && m.seq < w.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.waiters.splice(lo, 0, w);
    for (const b of w.buckets) b.queued += 1;
    if (w.priceGated) this.priceGate.queued += 1;
  }

  private remove(w: Waiter): boolean {
    const i = this.waiters.indexOf(w);
    if (i < 0) return false;
    this.waiters.splice(i, 1);
    for (const b of w.buckets) b.queued -= 1;
    if (w.priceGated) this.priceGate.queued -= 1;
    w.cleanup();
    return true;
  }

  private drop(w: Waiter, reason: Error): void {
    if (this.remove(w)) w.reject(reason);
  }

  /** Grants every waiter that can go now, then sleeps until the earliest one that cannot. */
  private pump(): void {
    if (this.timer !== undefined) {
      this.time.clearTimer(this.timer);
      this.timer = undefined;
    }
    if (this.closed) return;
    const now = this.time.now();
    let wakeAt = Infinity;
    let i = 0;
    while (i < this.waiters.length) {
      const w = this.waiters[i]!;
      let readyAt = now;
      for (const b of w.buckets) readyAt = Math.max(readyAt, b.availableAt(now));
      if (w.priceGated) readyAt = Math.max(readyAt, this.priceGate.blockedUntil);
      if (readyAt <= now) {
        this.remove(w);
        for (const b of w.buckets) b.take(now);
        w.resolve();
        continue;
      }
      wakeAt = Math.min(wakeAt, readyAt);
      i += 1;
    }
    if (wakeAt !== Infinity) {
      this.timer = this.time.setTimer(
        () => {
          this.timer = undefined;
          this.pump();
        },
        Math.max(1, wakeAt - now),
      );
    }
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        // A broken status-bar listener must not stop requests.
      }
    }
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('The request was aborted.', 'AbortError');
}
