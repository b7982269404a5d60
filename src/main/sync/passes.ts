/**
 * What each stream's pass does and announces. The engine (engine.ts) decides when a pass runs;
 * StreamPasses runs it through its streams/ module, emits what changed, and asks the engine for
 * the passes a result calls for (a fill asks for positions, a shrunken position for
 * settlements). It keeps what passes remember between runs: the settlements total that would
 * not reconcile, the price watch's turn, whether a boosted position is open, the history sweeps.
 */
import type { Logger } from '../../shared/log.js';
import type { Order, Settlement } from '../../shared/api/schemas.js';
import { asError } from './errors.js';
import type { TypedEmitter } from './emitter.js';
import type { HistorySweepReason, SyncEvents, SyncStreamName } from './events.js';
import { HistorySweeps, type Waiter } from './history.js';
import type { SyncIntervals } from './intervals.js';
import type { PassResult } from './report.js';
import type { StreamContext } from './streams/context.js';
import { syncFixtures } from './streams/fixtures.js';
import type { HistorySweepPass } from './streams/history.js';
import { syncOrders } from './streams/orders.js';
import { positionKey, syncPositions } from './streams/positions.js';
import { boostedPositions, watchPrices, type PricesMemory } from './streams/prices.js';
import { isBackfilled, syncSettlements, type SettlementsMemory } from './streams/settlements.js';

/** A pass that found nothing to ask the exchange (the price watch with no boosted position). */
export const NOTHING_ASKED = Symbol('nothing asked');

/** What the passes need of the engine. */
export interface PassHost {
  ctx(): StreamContext;
  now(): number;
  /** The engine's polling intervals (a price read records the interval it is read at). */
  readonly intervals: Readonly<SyncIntervals>;
  has(name: SyncStreamName): boolean;
  /** Asks for a pass of these streams soon. */
  trigger(...names: SyncStreamName[]): void;
  /** The settlements stream's syncNow() callers waiting now, taken (a sweep serves them). */
  takeSettlementsWaiters(): Waiter[];
  /** While a sweep reads the orders, the orders stream's timer polls are held. */
  holdOrders(): void;
  releaseOrders(): void;
}

export class StreamPasses {
  readonly history: HistorySweeps;
  /** A boosted position is open: positions poll fast and the price watch runs. */
  boostedOpen: boolean;

  readonly #host: PassHost;
  readonly #events: TypedEmitter<SyncEvents>;
  readonly #logger: Logger;
  readonly #accountId: number;
  readonly #settlementsMemory: SettlementsMemory = { unreconciledTotal: null };
  readonly #pricesMemory: PricesMemory = { turn: 0 };
  /** Knockouts the price watch already asked a check for, until the next positions pass. */
  readonly #reachedAsked = new Set<string>();

  constructor(host: PassHost, events: TypedEmitter<SyncEvents>, logger: Logger) {
    this.#host = host;
    this.#events = events;
    this.#logger = logger;
    const ctx = host.ctx();
    this.#accountId = ctx.accountId;
    this.history = new HistorySweeps({
      accountId: ctx.accountId,
      store: ctx.store,
      now: () => host.now(),
      emit: (p) => events.emit('history:progress', p),
    });
    // What the last run left in the store: a boosted position starts positions on the fast
    // interval.
    this.boostedOpen = boostedPositions(ctx).length > 0;
  }

  /**
   * The next settlements pass is a history sweep (the first sync, or a resync asked for or
   * left unfinished) that still has the orders to read.
   */
  sweepReadsOrders(): boolean {
    if (!this.#host.has('settlements')) return false;
    const reason = this.history.due(isBackfilled(this.#host.ctx()));
    return reason !== null && this.history.readsOrders(reason);
  }

  /** Prices the history refused as not exact: said, never rounded (docs/prices.md). */
  #refusedPrices(refused: readonly string[]): void {
    if (refused.length > 0) {
      this.#logger.warn('index prices not recorded: not exact in micros', { prices: refused });
    }
  }

  async run(name: SyncStreamName): Promise<PassResult | typeof NOTHING_ASKED> {
    const ctx = this.#host.ctx();
    switch (name) {
      case 'orders': {
        const r = await syncOrders(ctx);
        this.#ordersChanged(r.changed, r.cursor, r.initial);
        return r;
      }
      case 'settlements': {
        const reason = this.history.due(isBackfilled(ctx));
        if (reason !== null) return this.#sweep(ctx, reason);
        const r = await syncSettlements(ctx, this.#settlementsMemory);
        this.#settlementsStored(r.inserted, r.total, r.initial);
        return r;
      }
      case 'positions': {
        const r = await syncPositions(ctx);
        const wasBoosted = this.boostedOpen;
        this.boostedOpen = r.boostedOpen;
        this.#reachedAsked.clear();
        if (r.changed) {
          this.#events.emit('positions:changed', {
            accountId: this.#accountId,
            positions: r.positions,
            previous: r.previous,
            boostedOpen: r.boostedOpen,
            at: this.#host.now(),
          });
        }
        this.#events.emit('positions:synced', {
          accountId: this.#accountId,
          changed: r.changed,
          at: this.#host.now(),
        });
        // Something closed or shrank: its settlement row, or our SELL, explains it.
        if (r.shrank) this.#host.trigger('settlements', 'orders');
        if (r.boostedOpen && !wasBoosted) this.#host.trigger('prices');
        return r;
      }
      case 'fixtures': {
        const r = await syncFixtures(ctx, this.#host.intervals.fixturesMs);
        this.#refusedPrices(r.refusedPrices);
        if (r.changed.length > 0) {
          this.#events.emit('fixtures:changed', {
            accountId: this.#accountId,
            fixtures: r.changed,
            total: r.total,
            at: this.#host.now(),
          });
          const held = new Set(ctx.store.positions.list(this.#accountId).map((p) => p.contractId));
          if (r.changed.some((f) => f.status === 'RESOLVED' && held.has(f.contractId))) {
            this.#host.trigger('settlements', 'positions');
          }
        }
        return r;
      }
      case 'prices': {
        const r = await watchPrices(ctx, this.#pricesMemory, this.#host.intervals.pricesMs);
        if (!r.asked) return NOTHING_ASKED;
        this.#refusedPrices(r.refusedPrices);
        if (r.changed.length > 0) {
          this.#events.emit('fixtures:changed', {
            accountId: this.#accountId,
            fixtures: r.changed,
            total: null,
            at: this.#host.now(),
          });
        }
        if (r.fixtures.length > 0) {
          this.#events.emit('index:read', {
            accountId: this.#accountId,
            contractIds: r.fixtures.map((f) => f.contractId),
            at: this.#host.now(),
          });
        }
        const fresh = r.reached.filter((p) => {
          const key = `${positionKey(p)}|${p.knockout ?? ''}`;
          if (this.#reachedAsked.has(key)) return false;
          this.#reachedAsked.add(key);
          return true;
        });
        if (fresh.length > 0) {
          this.#logger.info('an index price reached a knockout; checking at once', {
            positions: fresh.map(positionKey),
          });
          this.#host.trigger('settlements', 'positions');
        }
        return null;
      }
    }
  }

  /** `repaired`: older reports a history sweep put right; nothing moved because of them. */
  #ordersChanged(changed: Order[], cursor: number, initial: boolean, repaired = false): void {
    if (changed.length === 0) return;
    this.#events.emit('orders:changed', {
      accountId: this.#accountId,
      orders: changed,
      cursor,
      initial,
      at: this.#host.now(),
    });
    if (repaired) return;
    // A fill moves a position; a filled SELL may close one into a settlement row.
    const filled = changed.filter((o) => o.status === 'FILLED');
    if (filled.length > 0) this.#host.trigger('positions');
    if (filled.some((o) => o.side === 'SELL')) this.#host.trigger('settlements');
  }

  #settlementsStored(inserted: Settlement[], total: number, initial: boolean): void {
    if (inserted.length === 0) return;
    this.#events.emit('settlements:changed', {
      accountId: this.#accountId,
      inserted,
      total,
      initial,
      at: this.#host.now(),
    });
  }

  /** The settlements stream's pass as a history sweep (engine.ts says why it runs so). */
  async #sweep(ctx: StreamContext, reason: HistorySweepReason): Promise<HistorySweepPass> {
    const orders = this.#host.has('orders');
    // A sweep carried on past its orders read leaves the orders to their stream.
    const hold = orders && this.history.readsOrders(reason);
    if (hold) this.#host.holdOrders();
    try {
      const { pass, newestWanted } = await this.history.run(reason, ctx, {
        orders,
        memory: this.#settlementsMemory,
        onOrders: (r) => {
          // Orders changed after the stored cursor are news; the older ones the sweep repaired.
          const since = r.since;
          const news = since === undefined ? [] : r.changed.filter((o) => o.updatedAt > since);
          const repaired = r.changed.filter((o) => since === undefined || o.updatedAt <= since);
          this.#ordersChanged(repaired, r.cursor, true, true);
          this.#ordersChanged(news, r.cursor, false);
        },
        onRows: (rows, total, initial) => this.#settlementsStored(rows, total, initial),
        readNewest: async () => {
          const waiting = this.#host.takeSettlementsWaiters();
          try {
            const r = await syncSettlements(ctx, this.#settlementsMemory, {
              newestPageOnly: true,
            });
            this.#settlementsStored(r.inserted, r.total, r.initial);
            for (const w of waiting) w.resolve();
          } catch (err) {
            for (const w of waiting) w.reject(asError(err));
            throw err;
          }
        },
      });
      // Asked for after the last page: a settlements pass of its own follows the sweep.
      if (newestWanted) this.#host.trigger('settlements');
      return pass;
    } finally {
      if (hold) this.#host.releaseOrders();
    }
  }
}
