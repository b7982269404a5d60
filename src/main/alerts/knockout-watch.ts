/**
 * The knockout watch: alerts when a boosted position comes near its knockout, and when it is
 * knocked out. It listens to one account's sync engine and keeps no state of its own beyond
 * what the store can rebuild: every alert is stored once under a dedup key (keys.ts) and
 * emitted as `alert:knockout` only when that store succeeded, so an alert is never repeated,
 * not even across restarts.
 *
 * Near: on every positions snapshot, each boosted position's distance to its knockout
 * (distance.ts) is fed to its ladder of levels; a level fires once and re-arms only after the
 * distance recovers past level + margin.
 *
 * Knocked out, found two ways:
 * - a new KNOCKED_OUT settlement row (not the history backfill, unless it explains a position
 *   seen vanishing): the position went flat by a knockout. Contracts already reported by a
 *   partial-knockout alert since the position's previous settlement row are not reported
 *   again.
 * - a boosted position that shrank or vanished between two snapshots. The watch first brings
 *   orders and settlements up to date, then explains the loss by, in turn: a settlement row at
 *   or after the position's last update (KNOCKED_OUT rows alert by themselves; CLOSED and
 *   SETTLEMENT rows are a sale and a resolution), our own filled SELL orders since that update
 *   (the store's orders; intents and orders still in flight make it wait), the fixture having
 *   resolved. Whatever is left is a knockout: a partial one while the position stays open,
 *   or, for a vanished position, one whose row has not come after settleWaitMs.
 */
import type { Settlement } from '../../shared/api/schemas.js';
import { FINAL_ORDER_STATUSES } from '../../shared/api/schemas.js';
import { price as priceOf, type DecimalInput } from '../../shared/money.js';
import type { Logger } from '../client/index.js';
import type { Alert, Store, StoredPosition } from '../store/index.js';
import { TypedEmitter, type Listener } from '../sync/emitter.js';
import type {
  OrdersChangedEvent,
  PositionsChangedEvent,
  SettlementsChangedEvent,
  SyncEvents,
  SyncStreamName,
  SyncStatus,
} from '../sync/events.js';
import {
  DEFAULT_LEVELS,
  DEFAULT_MARGIN,
  initialStates,
  knockoutDistance,
  ladder,
  step,
  type Ladder,
  type LevelState,
} from './distance.js';
import {
  knockedOutKey,
  knockedOutPrefix,
  nearKey,
  nearPrefix,
  parseNearCount,
  parsePositionKnockout,
  type KnockedOutKind,
} from './keys.js';
import { knockedOutMessage, nearMessage } from './messages.js';

/** What the watch needs of the sync engine (SyncEngine has it). */
export interface KnockoutSource {
  on<E extends keyof SyncEvents>(event: E, listener: Listener<SyncEvents[E]>): () => void;
  syncNow(...names: SyncStreamName[]): Promise<void>;
}

export interface KnockoutWatchOptions {
  engine: KnockoutSource;
  store: Store;
  accountId: number;
  /** Distances (fractions of the price) that raise a "near" alert; default 0.10, 0.05, 0.02. */
  levels?: readonly DecimalInput[];
  /** How far past a level the distance must recover before it alerts again; default 0.01. */
  margin?: DecimalInput;
  /**
   * How long an unexplained loss may wait for our own SELL (still in flight) or a vanished
   * position for its settlement row, before it is reported as a knockout; default 60 s.
   */
  settleWaitMs?: number;
  /** Local clock (default Date.now). */
  now?: () => number;
  logger?: Logger;
}

export interface KnockoutAlertEvent {
  kind: 'near' | 'knocked_out';
  accountId: number;
  contractId: string;
  outcome: string;
  /** near: the level that fired, a fraction ("0.05"). */
  level?: string;
  /** near: the distance to the knockout, a fraction with 4 places ("0.0431"). */
  distance?: string;
  /** The knockout price, when known. */
  knockout?: string;
  /** knocked_out: contracts lost, when known. */
  contracts?: number;
  /** How people name the fixture ("ARS v CHE"), when the store knows it. */
  fixture?: string;
  /** One sentence for people. */
  message: string;
  /** Local time the alert was raised. */
  at: number;
  /** The stored alert's id. */
  alertId: number;
}

export interface KnockoutWatchEvents {
  'alert:knockout': KnockoutAlertEvent;
}

/** A boosted position's distance to its knockout now, for the positions screen. */
export interface KnockoutDistance {
  contractId: string;
  outcome: string;
  contracts: number;
  knockout: string;
  estimatedClosingPrice: string;
  /** Fraction of the price, 4 places; negative below the knockout. */
  distance: string;
}

/** A loss of contracts to explain. */
interface Suspect {
  prev: StoredPosition;
  cur: StoredPosition | undefined;
  /** Local time it was seen. */
  seenAt: number;
}

interface Track {
  knockout: string;
  states: LevelState[];
}

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {} };
const FINAL = new Set<string>(FINAL_ORDER_STATUSES);
/** Position-path knockout alerts older than this are not looked at when a row arrives. */
const ALERT_SCAN_LIMIT = 1000;

export class KnockoutWatch {
  readonly accountId: number;
  readonly #engine: KnockoutSource;
  readonly #store: Store;
  #ladder: Ladder;
  readonly #settleWaitMs: number;
  readonly #now: () => number;
  readonly #logger: Logger;
  readonly #events: TypedEmitter<KnockoutWatchEvents>;
  /** Per position (contract|outcome): the ladder state for its current knockout. */
  readonly #tracks = new Map<string, Track>();
  /** Per position: the last knockout price seen, for messages about it after it is gone. */
  readonly #lastKnockout = new Map<string, string>();
  #suspects: Suspect[] = [];
  #unsubscribe: (() => void)[] = [];
  #judging: Promise<void> = Promise.resolve();
  #judgeAgain = false;
  #judgeRunning = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(opts: KnockoutWatchOptions) {
    this.accountId = opts.accountId;
    this.#engine = opts.engine;
    this.#store = opts.store;
    this.#ladder = ladder(opts.levels ?? DEFAULT_LEVELS, opts.margin ?? DEFAULT_MARGIN);
    this.#settleWaitMs = opts.settleWaitMs ?? 60_000;
    this.#now = opts.now ?? Date.now;
    this.#logger = opts.logger ?? silent;
    this.#events = new TypedEmitter<KnockoutWatchEvents>((event, err) =>
      this.#logger.warn('a knockout alert listener failed', {
        event,
        error: err instanceof Error ? err.message : String(err),
      }),
    );
  }

  /** Subscribes to the engine and checks the positions the store holds now. */
  start(): void {
    if (this.#unsubscribe.length > 0) return;
    this.#stopped = false;
    const e = this.#engine;
    this.#unsubscribe = [
      e.on('positions:changed', (ev) => this.#onPositions(ev)),
      e.on('settlements:changed', (ev) => this.#onSettlements(ev)),
      e.on('orders:changed', (ev) => this.#onOrders(ev)),
      e.on('sync:status', (ev) => this.#onStatus(ev)),
    ];
    const current = this.#store.positions.list(this.accountId);
    for (const p of current) if (p.knockout !== undefined) this.#remember(p);
    this.#checkNear(current);
  }

  /**
   * Unsubscribes and stores nothing more: a check waiting for the engine (which may wait for
   * the exchange to come back) is dropped, so stop() never hangs and the store may be closed
   * right after.
   */
  stop(): Promise<void> {
    this.#stopped = true;
    for (const u of this.#unsubscribe.splice(0)) u();
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#suspects = [];
    return Promise.resolve();
  }

  /**
   * New alert levels and margin, applied at once: every position's ladder is rebuilt from the
   * alerts stored for it, then checked against the latest snapshot (a position already inside
   * a new level alerts now). Throws RangeError for levels `ladder()` refuses.
   */
  configure(levels: readonly DecimalInput[], margin: DecimalInput): void {
    this.#ladder = ladder(levels, margin);
    this.#tracks.clear();
    if (this.#unsubscribe.length > 0) this.#checkNear(this.#store.positions.list(this.accountId));
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
  async idle(): Promise<void> {
    while (this.#judgeRunning) await this.#judging;
  }

  /** Losses still waiting for an explanation (our SELL in flight, a settlement row). */
  get pending(): number {
    return this.#suspects.length;
  }

  /** Every boosted position's distance to its knockout, from the latest snapshot. */
  distances(): KnockoutDistance[] {
    return this.#store.positions
      .list(this.accountId)
      .filter((p) => p.boosted && p.knockout !== undefined)
      .map((p) => ({
        contractId: p.contractId,
        outcome: p.outcome,
        contracts: p.contracts,
        knockout: p.knockout!,
        estimatedClosingPrice: p.estimatedClosingPrice,
        distance: knockoutDistance(p.estimatedClosingPrice, p.knockout!).toFixed(4),
      }));
  }

  /** The account's stored knockout alerts, newest first. */
  alerts(filter: { kind?: Alert['kind']; limit?: number; offset?: number } = {}): {
    alerts: Alert[];
    total: number;
  } {
    return this.#store.alerts.list(this.accountId, filter);
  }

  // ------------------------------------------------------------------ events from the engine

  #onPositions(e: PositionsChangedEvent): void {
    for (const p of e.positions) if (p.knockout !== undefined) this.#remember(p);
    this.#checkNear(e.positions);

    const now = new Map(e.positions.map((p) => [key(p), p]));
    for (const prev of e.previous) {
      if (!prev.boosted) continue;
      const cur = now.get(key(prev));
      if (cur !== undefined && cur.contracts >= prev.contracts) continue;
      this.#suspects.push({ prev, cur, seenAt: this.#now() });
    }
    if (this.#suspects.length > 0) this.#judgeSoon();
  }

  #onSettlements(e: SettlementsChangedEvent): void {
    if (!e.initial) {
      // Oldest first, so coverage by earlier rows is known when a later one is looked at.
      for (const row of [...e.inserted].reverse()) {
        if (row.type === 'KNOCKED_OUT') this.#knockedOutRow(row);
      }
    }
    if (this.#suspects.length > 0) this.#judgeSoon();
  }

  #onOrders(_e: OrdersChangedEvent): void {
    if (this.#suspects.length > 0) this.#judgeSoon();
  }

  #onStatus(s: SyncStatus): void {
    if (this.#suspects.length > 0 && (s.state === 'idle' || s.state === 'syncing')) {
      this.#judgeSoon();
    }
  }

  // ------------------------------------------------------------------ near

  #checkNear(positions: readonly StoredPosition[]): void {
    const live = new Set<string>();
    for (const p of positions) {
      if (!p.boosted || p.knockout === undefined) continue;
      const k = key(p);
      live.add(k);
      let track = this.#tracks.get(k);
      if (track === undefined || track.knockout !== p.knockout) {
        track = { knockout: p.knockout, states: this.#loadStates(p) };
        this.#tracks.set(k, track);
      }
      const distance = knockoutDistance(p.estimatedClosingPrice, p.knockout);
      const i = step(this.#ladder, track.states, distance);
      if (i === null) continue;
      const level = this.#ladder.levels[i]!;
      const state = track.states[i]!;
      const levelText = level.toString();
      const fixture = this.#fixtureName(p.contractId);
      const message = nearMessage({
        outcome: p.outcome,
        fixture,
        distance,
        level,
        knockout: p.knockout,
      });
      const stored = this.#store.alerts.insertOnce({
        accountId: this.accountId,
        kind: 'near',
        contractId: p.contractId,
        outcome: p.outcome,
        level: p.estimatedClosingPrice,
        threshold: p.knockout,
        message,
        dedupKey: nearKey(p.contractId, p.outcome, p.knockout, levelText, state.fired),
        createdAt: this.#now(),
      });
      state.fired += 1;
      if (stored === undefined) continue;
      this.#emit({
        kind: 'near',
        accountId: this.accountId,
        contractId: p.contractId,
        outcome: p.outcome,
        level: levelText,
        distance: distance.toFixed(4),
        knockout: p.knockout,
        contracts: p.contracts,
        ...(fixture !== undefined ? { fixture } : {}),
        message,
        at: stored.createdAt,
        alertId: stored.id,
      });
    }
    for (const k of [...this.#tracks.keys()]) if (!live.has(k)) this.#tracks.delete(k);
  }

  /** The ladder for a position, from the near alerts stored for it and its knockout. */
  #loadStates(p: StoredPosition): LevelState[] {
    const prefix = nearPrefix(p.contractId, p.outcome, p.knockout!);
    const fired = this.#ladder.levels.map(() => 0);
    for (const a of this.#scanAlerts('near')) {
      this.#ladder.levels.forEach((level, i) => {
        const n = parseNearCount(a.dedupKey, `${prefix}${level.toString()}|`);
        if (n !== null) fired[i] = Math.max(fired[i]!, n + 1);
      });
    }
    return initialStates(fired);
  }

  // ------------------------------------------------------------------ knocked out

  /** A new KNOCKED_OUT row: alert for the contracts no position-path alert reported yet. */
  #knockedOutRow(row: Settlement): void {
    const at = timestampMs(row.timestamp);
    const before = this.#store.settlements.query(this.accountId, {
      contractId: row.contractId,
      team: row.outcome,
      to: at,
      limit: 1,
    }).settlements[0];
    const since = before === undefined ? -1 : timestampMs(before.timestamp);
    const prefix = knockedOutPrefix(row.contractId, row.outcome);
    let reported = 0;
    for (const a of this.#scanAlerts('knocked_out')) {
      const k = parsePositionKnockout(a.dedupKey, prefix);
      if (k !== null && k.at > since && k.at <= at) reported += k.contracts;
    }
    if (reported >= row.contracts) return;
    this.#raiseKnockedOut({
      contractId: row.contractId,
      outcome: row.outcome,
      kind: 's',
      at,
      contracts: row.contracts - reported,
      ...(row.price !== undefined ? { price: row.price } : {}),
    });
  }

  #judgeSoon(): void {
    if (this.#judgeRunning) {
      this.#judgeAgain = true;
      return;
    }
    this.#judgeRunning = true;
    this.#judging = this.#judgeAll().finally(() => {
      this.#judgeRunning = false;
      if (this.#judgeAgain && this.#suspects.length > 0 && this.#unsubscribe.length > 0) {
        this.#judgeAgain = false;
        this.#judgeSoon();
      }
    });
  }

  async #judgeAll(): Promise<void> {
    do {
      this.#judgeAgain = false;
      try {
        // Our SELL and the position's settlement row must be in the store before judging.
        await this.#engine.syncNow('orders', 'settlements');
      } catch (err) {
        this.#logger.debug('knockout check waits for the exchange', {
          error: err instanceof Error ? err.message : String(err),
        });
        return; // Tried again on the next event from the engine.
      }
      if (this.#stopped) return;
      const waiting: Suspect[] = [];
      for (const s of this.#suspects) if (!this.#judge(s)) waiting.push(s);
      this.#suspects = waiting;
    } while (this.#judgeAgain && this.#suspects.length > 0);
    this.#armRetry();
  }

  /** Re-checks waiting losses once their wait is over, even if nothing else happens. */
  #armRetry(): void {
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#suspects.length === 0 || this.#unsubscribe.length === 0) return;
    const due = Math.min(...this.#suspects.map((s) => s.seenAt + this.#settleWaitMs));
    this.#retryTimer = setTimeout(
      () => {
        this.#retryTimer = undefined;
        this.#judgeSoon();
      },
      Math.max(10, due - this.#now() + 10),
    );
    this.#retryTimer.unref();
  }

  /** True when the loss is explained or reported; false to wait for more information. */
  #judge(s: Suspect): boolean {
    const { prev, cur } = s;
    const lost = prev.contracts - (cur?.contracts ?? 0);
    if (lost <= 0) return true;
    const c = prev.contractId;
    const o = prev.outcome;
    const expired = this.#now() - s.seenAt >= this.#settleWaitMs;

    if (cur === undefined) {
      // A flat position always leaves a settlement row: CLOSED, KNOCKED_OUT or SETTLEMENT.
      const rows = this.#store.settlements.query(this.accountId, {
        contractId: c,
        team: o,
        from: prev.updatedAt,
        limit: 10,
      });
      if (rows.total > 0) {
        // Its KNOCKED_OUT row alerts once by its key, even when it came with the backfill.
        for (const row of [...rows.settlements].reverse()) {
          if (row.type === 'KNOCKED_OUT') this.#knockedOutRow(row);
        }
        return true;
      }
      if (this.#store.fixtures.get(c)?.status === 'RESOLVED') return true;
    }

    const sells = this.#store.orders
      .list(this.accountId, { contractId: c, team: o, limit: 1000 })
      .orders.filter((x) => x.side === 'SELL');
    const sold = sells
      .filter((x) => x.status === 'FILLED' && x.updatedAt > prev.updatedAt)
      .reduce((n, x) => n + x.contracts, 0);
    if (sold >= lost) return true;
    const inFlight = sells.some((x) => !FINAL.has(x.status)) || this.#sellIntentInFlight(c, o);
    if (!expired && (inFlight || cur === undefined)) return false;

    const knocked = lost - sold;
    this.#raiseKnockedOut({
      contractId: c,
      outcome: o,
      kind: cur === undefined ? 'v' : 'p',
      at: cur === undefined ? prev.updatedAt : cur.updatedAt,
      contracts: knocked,
    });
    return true;
  }

  /** An order intent of ours that may be a SELL on this position and has no order yet. */
  #sellIntentInFlight(contractId: string, outcome: string): boolean {
    return this.#store.intents.listOpen(this.accountId).some((i) => {
      if (i.state !== 'pending' && i.state !== 'sent' && i.state !== 'unknown') return false;
      const params = i.params as {
        rfqId?: unknown;
        legs?: { contractId?: unknown; outcome?: unknown; side?: unknown }[];
      } | null;
      const leg = params?.legs?.[0];
      if (leg === undefined) return typeof params?.rfqId === 'string'; // side unknown: maybe
      return (
        String(leg.side).toUpperCase() === 'SELL' &&
        String(leg.contractId).toUpperCase() === contractId &&
        String(leg.outcome).toUpperCase() === outcome
      );
    });
  }

  #raiseKnockedOut(k: {
    contractId: string;
    outcome: string;
    kind: KnockedOutKind;
    at: number;
    contracts: number;
    price?: string;
  }): void {
    const knockout = this.#lastKnockout.get(key(k));
    const fixture = this.#fixtureName(k.contractId);
    const message = knockedOutMessage({
      outcome: k.outcome,
      fixture,
      contracts: k.contracts,
      ...(k.price !== undefined ? { price: priceOf(k.price) } : {}),
      ...(knockout !== undefined ? { knockout } : {}),
    });
    const stored = this.#store.alerts.insertOnce({
      accountId: this.accountId,
      kind: 'knocked_out',
      contractId: k.contractId,
      outcome: k.outcome,
      level: k.price ?? null,
      threshold: knockout ?? null,
      message,
      dedupKey: knockedOutKey(k.contractId, k.outcome, k.kind, k.at, k.contracts),
      createdAt: this.#now(),
    });
    if (stored === undefined) return;
    this.#logger.info('a boosted position was knocked out', {
      contractId: k.contractId,
      outcome: k.outcome,
      contracts: k.contracts,
      seenBy: k.kind === 's' ? 'settlement' : 'positions',
    });
    this.#emit({
      kind: 'knocked_out',
      accountId: this.accountId,
      contractId: k.contractId,
      outcome: k.outcome,
      ...(knockout !== undefined ? { knockout } : {}),
      contracts: k.contracts,
      ...(fixture !== undefined ? { fixture } : {}),
      message,
      at: stored.createdAt,
      alertId: stored.id,
    });
  }

  // ------------------------------------------------------------------ helpers

  #remember(p: StoredPosition): void {
    if (p.knockout !== undefined) this.#lastKnockout.set(key(p), p.knockout);
  }

  #emit(e: KnockoutAlertEvent): void {
    this.#events.emit('alert:knockout', e);
  }

  #fixtureName(contractId: string): string | undefined {
    const f = this.#store.fixtures.get(contractId);
    return f === undefined ? undefined : `${f.homeTeam} v ${f.awayTeam}`;
  }

  /** The account's stored alerts of a kind, newest first (the first ALERT_SCAN_LIMIT). */
  #scanAlerts(kind: Alert['kind']): Alert[] {
    return this.#store.alerts.list(this.accountId, { kind, limit: ALERT_SCAN_LIMIT }).alerts;
  }
}

function key(p: { contractId: string; outcome: string }): string {
  return `${p.contractId}|${p.outcome}`;
}

/** ISO 8601 (UTC when no zone is given, as the spec says) to ms. */
function timestampMs(iso: string): number {
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(iso) || !iso.includes('T');
  return Date.parse(zoned ? iso : `${iso}Z`);
}
