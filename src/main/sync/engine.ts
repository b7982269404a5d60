/**
 * The sync engine of one account: when each stream's pass runs. Five streams (orders,
 * settlements, positions, fixtures, prices) each loop on their own cadence (intervals.ts); one
 * runs at most once at a time, and a poll another's result asks for (a fill asks for
 * positions) runs as soon as the stream is free, no sooner than minSpacingMs after its last
 * start. While a history sweep (history.ts) holds the reads bucket, the orders stream stays off
 * its timer and settlements read only the newest page. Unreachable: every stream stops and the
 * orders stream alone probes with backoff (offline.ts); any other failure backs off its stream.
 * What a pass does is in passes.ts, its state in stream-state.ts, the status in status.ts.
 */
import { Backoff, type BackoffOptions } from '../../shared/backoff.js';
import { silentLogger, type Logger } from '../../shared/log.js';
import type { ExchangeClient } from '../client/index.js';
import { isDiskFull, type Store } from '../store/index.js';
import { TypedEmitter, type Listener } from './emitter.js';
import {
  HistorySweepInterruptedError,
  SyncStoppedError,
  asError,
  failureSentence,
  isAborted,
  isUnreachable,
  retryAfterMs,
} from './errors.js';
import type { HistorySweepProgress, SyncEvents, SyncStatus, SyncStreamName } from './events.js';
import type { Waiter } from './history.js';
import { DEFAULT_BACKOFF, DEFAULT_INTERVALS, type SyncIntervals } from './intervals.js';
import { Reachability } from './offline.js';
import { NOTHING_ASKED, StreamPasses, type PassHost } from './passes.js';
import { StatusChanges, engineStatus } from './status.js';
import { CachedReads } from './reads.js';
import { syncReport, type PassResult, type SyncReport } from './report.js';
import type { StreamContext } from './streams/context.js';
import { hasPendingOrders } from './streams/orders.js';
import {
  ALL_STREAMS,
  CORE_STREAMS,
  PROBE,
  newStreamState,
  nextPollAfter,
  type CadenceFacts,
  type StreamState,
} from './stream-state.js';
import { OneTimer, liveTime, type TimeSource } from './timers.js';

export type { SyncReport };

export interface SyncEngineOptions {
  /** The account's exchange client (with the process's RateGovernor, normally). */
  client: ExchangeClient;
  store: Store;
  /** The account's id in the store. */
  accountId: number;
  intervals?: Partial<SyncIntervals>;
  /** Retry waits while the exchange is unreachable, and after a refused poll. */
  backoff?: Partial<BackoffOptions>;
  /** Clock and timers (default: the real ones, which keep the process alive while running). */
  time?: TimeSource;
  /** For the backoff's jitter (default Math.random). */
  random?: () => number;
  logger?: Logger;
  /** The streams to run (default all five). */
  streams?: readonly SyncStreamName[];
}

export class SyncEngine {
  readonly accountId: number;
  /** Reads from the store, stamped with the time of the last sync and the engine's state. */
  readonly cache: CachedReads;

  readonly #client: ExchangeClient;
  readonly #store: Store;
  readonly #intervals: SyncIntervals;
  readonly #time: TimeSource;
  readonly #timer: OneTimer;
  readonly #logger: Logger;
  readonly #streams = new Map<SyncStreamName, StreamState>();
  readonly #events: TypedEmitter<SyncEvents>;
  readonly #reachability: Reachability;
  readonly #lastResult = new Map<SyncStreamName, PassResult>();
  readonly #probe: StreamState | undefined;
  readonly #passes: StreamPasses;
  readonly #statusChanges = new StatusChanges();

  #started = false;
  #paused = false;
  #stopped = false;
  #abort = new AbortController();
  #lastSyncAt: number | null;

  constructor(opts: SyncEngineOptions) {
    this.accountId = opts.accountId;
    this.#client = opts.client;
    this.#store = opts.store;
    this.#intervals = { ...DEFAULT_INTERVALS, ...opts.intervals };
    this.#time = opts.time ?? liveTime;
    this.#timer = new OneTimer(this.#time, () => this.#tick());
    this.#logger = opts.logger ?? silentLogger;
    const random = opts.random ?? Math.random;
    const backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.#reachability = new Reachability(new Backoff(backoff, random));
    this.#events = new TypedEmitter<SyncEvents>((event, err) =>
      this.#logger.warn('a sync event listener failed', { event, error: asError(err).message }),
    );
    for (const name of opts.streams ?? ALL_STREAMS) {
      this.#streams.set(name, newStreamState(name, backoff, random));
    }
    this.#probe = this.#streams.get(PROBE) ?? [...this.#streams.values()][0];
    this.#passes = new StreamPasses(this.#passHost(), this.#events, this.#logger);
    // What the last run left in the store: the time of its last sync.
    let last: number | null = null;
    for (const s of ['orders', 'settlements', 'positions', 'fixtures']) {
      const at = this.#store.cursors.get(this.accountId, s)?.lastSyncAt;
      if (at !== undefined && (last === null || at > last)) last = at;
    }
    this.#lastSyncAt = last;
    this.cache = new CachedReads(this.#store, this.accountId, () => this.status());
  }

  // ------------------------------------------------------------------ lifecycle

  /** Starts polling every stream now. Idempotent; a stopped engine may be started again. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#stopped = false;
    this.#abort = new AbortController();
    const now = this.#now();
    for (const s of this.#streams.values()) s.nextAt = now;
    if (this.#passes.sweepReadsOrders()) this.#holdOrders();
    this.#schedule();
    this.#emitStatus();
  }

  /**
   * Stops polling: clears every timer, cancels requests waiting in the governor or in flight,
   * and resolves once every stream's pass has ended. A batch already received is still
   * committed (with its cursor) or not at all. syncNow() callers still waiting are rejected,
   * and so are later ones until start() is called again.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#started = false;
    this.#timer.clear();
    this.#abort.abort();
    const running = [...this.#streams.values()].map((s) => s.running).filter((p) => p !== null);
    await Promise.allSettled(running);
    for (const s of this.#streams.values()) {
      s.nextAt = null;
      s.again = false;
      for (const w of s.waiting.splice(0)) w.reject(new SyncStoppedError());
    }
    this.#passes.history.stopped();
    this.#emitStatus();
  }

  /** Stops scheduling polls (a pass already running finishes). State: paused. */
  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    this.#timer.clear();
    this.#emitStatus();
  }

  /** Polls every stream now and carries on. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    const now = this.#now();
    for (const s of this.#streams.values()) if (s.running === null) s.nextAt = now;
    if (this.#passes.sweepReadsOrders()) this.#holdOrders();
    this.#schedule();
    this.#emitStatus();
  }

  get running(): boolean {
    return this.#started;
  }

  /** How often positions are read now: fast while a boosted position is open. */
  get positionsPollMs(): number {
    return this.#passes.boostedOpen
      ? this.#intervals.positionsBoostedMs
      : this.#intervals.positionsIdleMs;
  }

  // ------------------------------------------------------------------ on demand

  /**
   * Runs the given streams (default orders, settlements, positions, fixtures) as soon as
   * they are free and resolves when each has finished a pass that started after this call.
   * Rejects with the first failure. While the engine runs, a stream waits for its minimum
   * spacing (and, when the exchange is unreachable, for the exchange to come back); when it is
   * not started or paused the passes run at once. While a history sweep runs, a settlements
   * pass is the newest page, read between two of the sweep's pages.
   */
  syncNow(...names: SyncStreamName[]): Promise<void> {
    if (this.#stopped) return Promise.reject(new SyncStoppedError());
    const wanted = names.length > 0 ? names : CORE_STREAMS;
    const passes: Promise<void>[] = [];
    for (const name of new Set(wanted)) {
      const s = this.#streams.get(name);
      if (s === undefined) continue;
      passes.push(
        new Promise<void>((resolve, reject) => {
          s.waiting.push({ resolve, reject });
          this.#request(s, true);
        }),
      );
    }
    return Promise.all(passes).then(() => undefined);
  }

  /** One pass of orders, settlements, positions and fixtures; reports instead of throwing. */
  async syncOnce(): Promise<SyncReport> {
    const names = CORE_STREAMS.filter((n) => this.#streams.has(n));
    const outcomes = await Promise.allSettled(names.map((n) => this.syncNow(n)));
    const errors: SyncReport['errors'] = [];
    outcomes.forEach((o, i) => {
      if (o.status === 'rejected') {
        const stream = names[i]!;
        errors.push({ stream, message: failureSentence(stream, o.reason) });
      }
    });
    return syncReport(this.#lastResult, errors, this.status());
  }

  /** Asks for a pass of these streams soon, without waiting (e.g. after placing an order). */
  requestSync(...names: SyncStreamName[]): void {
    for (const name of names.length > 0 ? names : CORE_STREAMS) {
      const s = this.#streams.get(name);
      if (s) this.#request(s, false);
    }
  }

  // ------------------------------------------------------------------ the history

  /**
   * Reads the account's whole history again (every order, every settlements page) without
   * deleting anything first; progress through 'history:progress' and historyProgress(), which
   * says 'running' as soon as this returns. Resolves when the sweep is done; rejects when it
   * failed or was interrupted (the progress says which and why), at once with
   * HistorySweepRunningError while a sweep runs (the first sync's included) and with
   * SyncStoppedError once stopped. Like syncNow(), it runs when the engine is not started or is
   * paused, and waits while the exchange cannot be reached.
   */
  resyncHistory(): Promise<void> {
    if (this.#stopped) return Promise.reject(new SyncStoppedError());
    const s = this.#streams.get('settlements');
    if (s === undefined) {
      return Promise.reject(new Error('This sync engine does not sync settlements.'));
    }
    try {
      this.#passes.history.requestResync();
    } catch (err) {
      return Promise.reject(asError(err));
    }
    // Waits as a syncNow() caller does: for the settlements pass that runs the sweep.
    return new Promise<void>((resolve, reject) => {
      const interrupted = (err: Error): Error =>
        err instanceof SyncStoppedError || isAborted(err)
          ? new HistorySweepInterruptedError()
          : err;
      s.waiting.push({ resolve, reject: (err) => reject(interrupted(err)) });
      this.#request(s, true);
    });
  }

  /**
   * The latest history sweep's progress (first sync or resync); before one runs, the one the
   * store remembers unfinished ('interrupted', carried on at the next settlements pass); null
   * if none.
   */
  historyProgress(): HistorySweepProgress | null {
    return this.#passes.history.progress;
  }

  // ------------------------------------------------------------------ status and events

  status(): SyncStatus {
    return engineStatus({
      accountId: this.accountId,
      paused: this.#paused,
      reachability: this.#reachability,
      streams: this.#streams.values(),
      lastSyncAt: this.#lastSyncAt,
      nextPollAt: this.#nextPollAt(),
    });
  }

  on<E extends keyof SyncEvents>(event: E, listener: Listener<SyncEvents[E]>): () => void {
    return this.#events.on(event, listener);
  }

  off<E extends keyof SyncEvents>(event: E, listener: Listener<SyncEvents[E]>): void {
    this.#events.off(event, listener);
  }

  // ------------------------------------------------------------------ scheduling

  #active(): boolean {
    return this.#started && !this.#paused && !this.#stopped;
  }

  #mayRun(s: StreamState): boolean {
    return !this.#reachability.offline || s === this.#probe;
  }

  #now(): number {
    return this.#time.now();
  }

  #nextPollAt(): number | null {
    if (!this.#active()) return null;
    let at: number | null = null;
    for (const s of this.#streams.values()) {
      if (s.running !== null || s.nextAt === null || !this.#mayRun(s)) continue;
      if (at === null || s.nextAt < at) at = s.nextAt;
    }
    return at;
  }

  /** One timer, set for the earliest stream that is due and allowed to run. */
  #schedule(): void {
    this.#timer.setAt(this.#nextPollAt());
  }

  #tick(): void {
    if (!this.#active()) return;
    const now = this.#now();
    for (const s of this.#streams.values()) {
      if (s.running === null && s.nextAt !== null && s.nextAt <= now && this.#mayRun(s)) {
        this.#run(s);
      }
    }
    this.#schedule();
  }

  /**
   * A pass is wanted. `explicit` (syncNow) also runs when the engine is not started or is
   * paused, and overrides a stream's error backoff; a trigger (another stream's result,
   * requestSync) does neither.
   */
  #request(s: StreamState, explicit: boolean): void {
    if (this.#stopped) return;
    if (s.running !== null) {
      // A history sweep reads the newest page between two of its own instead.
      if (s.name === 'settlements' && this.#passes.history.wantNewest()) return;
      if (explicit || this.#active()) s.again = true;
      return;
    }
    if (!this.#active()) {
      if (explicit && !this.#stopped) this.#run(s);
      return;
    }
    if (!explicit && s.error !== null) return;
    const at = Math.max(this.#now(), s.lastStartedAt + this.#intervals.minSpacingMs);
    s.nextAt = s.nextAt === null ? at : Math.min(s.nextAt, at);
    this.#schedule();
  }

  #run(s: StreamState): void {
    const waiting = s.waiting.splice(0);
    s.again = false;
    s.nextAt = null;
    s.lastStartedAt = this.#now();
    s.running = this.#execute(s, waiting);
    this.#emitStatus();
  }

  async #execute(s: StreamState, waiting: Waiter[]): Promise<void> {
    try {
      const result = await this.#passes.run(s.name);
      if (result !== NOTHING_ASKED) this.#lastResult.set(s.name, result);
      this.#succeeded(s, result !== NOTHING_ASKED);
      for (const w of waiting) w.resolve();
    } catch (err) {
      this.#failed(s, err);
      for (const w of waiting) w.reject(asError(err));
    } finally {
      s.running = null;
      this.#afterRun(s);
    }
  }

  /** `asked`: the pass heard from the exchange (so it answers, and the data is fresh). */
  #succeeded(s: StreamState, asked: boolean): void {
    const now = this.#now();
    s.error = null;
    s.backoff.reset();
    if (!asked) return;
    this.#lastSyncAt = now;
    const offlineMs = this.#reachability.answered(now);
    if (offlineMs !== null) {
      this.#logger.info('the exchange answers again; syncing resumes', { offlineMs });
      for (const other of this.#streams.values()) if (other !== s) other.nextAt = now;
    }
  }

  #failed(s: StreamState, err: unknown): void {
    if (this.#stopped) return;
    const now = this.#now();
    if (isUnreachable(err)) {
      const message = asError(err).message;
      const probe = this.#probe ?? s;
      if (this.#reachability.lost(now)) {
        this.#logger.warn('the exchange cannot be reached; syncing waits for it', {
          stream: s.name,
          error: message,
        });
      } else if (s !== probe) {
        return; // The probe alone decides when to try again.
      }
      probe.nextAt = now + this.#reachability.probeFailed(message);
      if (probe !== s) s.nextAt = null;
      return;
    }
    s.error = failureSentence(s.name, err);
    if (isDiskFull(err)) this.#reuseWal();
    const wait = Math.max(retryAfterMs(err) ?? 0, s.backoff.next());
    s.nextAt = now + wait;
    this.#logger.warn('a sync pass failed', { stream: s.name, error: s.error, retryInMs: wait });
  }

  /**
   * A full disk rolled the pass's batch back with its cursor, so the retry reads the same
   * updates. A checkpoint first lets the retry reuse the room the WAL already takes; when the
   * copy finds no room either, the retry waits for the user to free some.
   */
  #reuseWal(): void {
    try {
      this.#store.checkpoint();
    } catch (err) {
      this.#logger.debug('the checkpoint after a full disk failed', {
        error: asError(err).message,
      });
    }
  }

  #afterRun(s: StreamState): void {
    if (this.#stopped) {
      for (const w of s.waiting.splice(0)) w.reject(new SyncStoppedError());
    } else if (!this.#active()) {
      // Not polling: only explicit requests run, straight away.
      if (s.waiting.length > 0) this.#run(s);
    } else {
      const wanted = s.again || s.waiting.length > 0;
      if (s.nextAt === null && this.#mayRun(s)) s.nextAt = this.#nextAfter(s.name);
      if (wanted && this.#mayRun(s)) {
        const at = Math.max(this.#now(), s.lastStartedAt + this.#intervals.minSpacingMs);
        s.nextAt = s.nextAt === null ? at : Math.min(s.nextAt, at);
      }
      s.again = false;
      this.#schedule();
    }
    this.#emitStatus();
  }

  /** When a stream polls next after a successful pass; null: only when triggered. */
  #nextAfter(name: SyncStreamName): number | null {
    return nextPollAfter(name, this.#intervals, this.#now(), this.#cadenceFacts());
  }

  #cadenceFacts(): CadenceFacts {
    const pendingOrders = () => hasPendingOrders(this.#ctx());
    const passes = this.#passes;
    return {
      get pendingOrders() {
        return pendingOrders();
      },
      get sweepReading() {
        return passes.history.reading;
      },
      get boostedOpen() {
        return passes.boostedOpen;
      },
    };
  }

  #trigger(...names: SyncStreamName[]): void {
    for (const name of names) {
      const s = this.#streams.get(name);
      if (s) this.#request(s, false);
    }
  }

  #emitStatus(): void {
    const status = this.status();
    if (this.#statusChanges.changed(status)) this.#events.emit('sync:status', status);
  }

  // ------------------------------------------------------------------ the passes

  #ctx(): StreamContext {
    return {
      client: this.#client,
      store: this.#store,
      accountId: this.accountId,
      signal: this.#abort.signal,
      now: () => this.#now(),
    };
  }

  #passHost(): PassHost {
    return {
      ctx: () => this.#ctx(),
      now: () => this.#now(),
      intervals: this.#intervals,
      has: (name) => this.#streams.has(name),
      trigger: (...names) => this.#trigger(...names),
      takeSettlementsWaiters: () => this.#streams.get('settlements')?.waiting.splice(0) ?? [],
      holdOrders: () => this.#holdOrders(),
      releaseOrders: () => {
        const orders = this.#streams.get('orders');
        if (orders === undefined || orders.running !== null || orders.nextAt !== null) return;
        if (!this.#active() || !this.#mayRun(orders)) return;
        orders.nextAt = this.#nextAfter('orders');
        this.#schedule();
      },
    };
  }

  /**
   * A history sweep reads the orders: the orders stream skips its timer polls until the sweep
   * ends, unless an order of ours is pending or the stream is the probe of an unreachable
   * exchange. Passes asked for (syncNow, triggers) still run.
   */
  #holdOrders(): void {
    const orders = this.#streams.get('orders');
    if (orders === undefined || orders.running !== null || orders.waiting.length > 0) return;
    if (this.#reachability.offline || hasPendingOrders(this.#ctx())) return;
    orders.nextAt = null;
  }
}
