/**
 * The knockout watch: alerts when a boosted position comes near its knockout, and when it is
 * knocked out. It listens to one account's sync engine and keeps no state of its own beyond
 * what the store can rebuild: every alert is stored once under a dedup key and emitted as
 * `alert:knockout` only when that store succeeded (recorder.ts), so an alert is never
 * repeated, not even across restarts.
 *
 * This class owns the wiring and the public surface; the parts each own one concern:
 * - near-watch.ts: "near" alerts, a ladder of levels per boosted position, on its index price
 *   (index-price.ts), checked on every positions pass and whenever a held fixture's price moves.
 * - knocked-out.ts: "knocked out" alerts, from a new KNOCKED_OUT settlement row (not the
 *   history backfill, unless it explains a position seen vanishing) or from a loss below.
 * - loss-judge.ts: a boosted position that shrank or vanished, explained (a sale, a
 *   resolution, a settlement row) before what is left is reported as a knockout.
 */
import { silentLogger } from '../../shared/log.js';
import type { DecimalInput } from '../../shared/money.js';
import type { Alert } from '../store/index.js';
import { TypedEmitter, type Listener } from '../sync/emitter.js';
import type {
  FixturesChangedEvent,
  PositionsChangedEvent,
  SettlementsChangedEvent,
  SyncStatus,
} from '../sync/events.js';
import { DEFAULT_LEVELS, DEFAULT_MARGIN, ladder } from './distance.js';
import { movesBoosted } from './index-price.js';
import { KnockedOutAlerts } from './knocked-out.js';
import { LossJudge } from './loss-judge.js';
import { NearWatch } from './near-watch.js';
import { AlertRecorder } from './recorder.js';
import type {
  KnockoutSource,
  KnockoutWatchEvents,
  KnockoutWatchOptions,
  WatchContext,
} from './watch-types.js';

export type {
  KnockoutAlertEvent,
  KnockoutSource,
  KnockoutWatchEvents,
  KnockoutWatchOptions,
} from './watch-types.js';

export class KnockoutWatch {
  readonly accountId: number;
  readonly #engine: KnockoutSource;
  readonly #ctx: WatchContext;
  readonly #events: TypedEmitter<KnockoutWatchEvents>;
  readonly #near: NearWatch;
  readonly #knockedOut: KnockedOutAlerts;
  readonly #losses: LossJudge;
  #unsubscribe: (() => void)[] = [];

  constructor(opts: KnockoutWatchOptions) {
    this.accountId = opts.accountId;
    this.#engine = opts.engine;
    const logger = opts.logger ?? silentLogger;
    this.#ctx = { store: opts.store, accountId: opts.accountId, now: opts.now ?? Date.now, logger };
    this.#events = new TypedEmitter<KnockoutWatchEvents>((event, err) =>
      logger.warn('a knockout alert listener failed', {
        event,
        error: err instanceof Error ? err.message : String(err),
      }),
    );
    const alerts = new AlertRecorder(this.#ctx, (e) => this.#events.emit('alert:knockout', e));
    this.#near = new NearWatch(
      this.#ctx,
      alerts,
      ladder(opts.levels ?? DEFAULT_LEVELS, opts.margin ?? DEFAULT_MARGIN),
    );
    this.#knockedOut = new KnockedOutAlerts(this.#ctx, alerts);
    this.#losses = new LossJudge(
      this.#ctx,
      opts.engine,
      this.#knockedOut,
      opts.settleWaitMs ?? 60_000,
    );
  }

  /** Subscribes to the engine and checks the positions the store holds now. */
  start(): void {
    if (this.#unsubscribe.length > 0) return;
    this.#losses.start();
    const e = this.#engine;
    this.#unsubscribe = [
      e.on('positions:changed', (ev) => this.#onPositions(ev)),
      // Every positions pass: an index price that was stale may be fresh again. A changed pass
      // was checked already, by positions:changed just before.
      e.on('positions:synced', (ev) => {
        if (!ev.changed) this.#near.check(this.#positions());
      }),
      e.on('fixtures:changed', (ev) => this.#onFixtures(ev)),
      e.on('settlements:changed', (ev) => this.#onSettlements(ev)),
      e.on('orders:changed', () => this.#losses.recheck()),
      e.on('sync:status', (ev) => this.#onStatus(ev)),
    ];
    const current = this.#positions();
    for (const p of current) this.#knockedOut.remember(p);
    this.#near.check(current);
  }

  /**
   * Unsubscribes and stores nothing more: a check waiting for the engine (which may wait for
   * the exchange to come back) is dropped, so stop() never hangs and the store may be closed
   * right after.
   */
  stop(): Promise<void> {
    for (const u of this.#unsubscribe.splice(0)) u();
    this.#losses.stop();
    return Promise.resolve();
  }

  /**
   * New alert levels and margin, applied at once: every position's ladder is rebuilt from the
   * alerts stored for it, then checked against the latest snapshot (a position already inside
   * a new level alerts now). Throws RangeError for levels `ladder()` refuses.
   */
  configure(levels: readonly DecimalInput[], margin: DecimalInput): void {
    this.#near.configure(ladder(levels, margin));
    if (this.#unsubscribe.length > 0) this.#near.check(this.#positions());
  }

  on<E extends keyof KnockoutWatchEvents>(
    event: E,
    listener: Listener<KnockoutWatchEvents[E]>,
  ): () => void {
    return this.#events.on(event, listener);
  }

  /**
   * Resolves when no loss of contracts is being explained right now (a check waits for the
   * engine's orders and settlements passes, and so for the exchange).
   */
  idle(): Promise<void> {
    return this.#losses.idle();
  }

  /** Losses still waiting for an explanation (our SELL in flight, a settlement row). */
  get pending(): number {
    return this.#losses.pending;
  }

  /** The account's stored knockout alerts, newest first. */
  alerts(filter: { kind?: Alert['kind']; limit?: number; offset?: number } = {}): {
    alerts: Alert[];
    total: number;
  } {
    return this.#ctx.store.alerts.list(this.accountId, filter);
  }

  // ------------------------------------------------------------------ events from the engine

  #onPositions(e: PositionsChangedEvent): void {
    for (const p of e.positions) this.#knockedOut.remember(p);
    this.#near.check(e.positions);
    this.#losses.compare(e.previous, e.positions);
  }

  /** A held boosted fixture's index price moved (the price watch or the fixtures refresh). */
  #onFixtures(e: FixturesChangedEvent): void {
    const positions = this.#positions();
    if (movesBoosted(positions, e.fixtures)) this.#near.check(positions);
  }

  #onSettlements(e: SettlementsChangedEvent): void {
    if (!e.initial) {
      // Oldest first, so coverage by earlier rows is known when a later one is looked at.
      for (const row of [...e.inserted].reverse()) {
        if (row.type === 'KNOCKED_OUT') this.#knockedOut.fromRow(row);
      }
    }
    this.#losses.recheck();
  }

  #onStatus(s: SyncStatus): void {
    if (s.state === 'idle' || s.state === 'syncing') this.#losses.retry();
  }

  #positions() {
    return this.#ctx.store.positions.list(this.accountId);
  }
}
