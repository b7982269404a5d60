/**
 * Losses of boosted contracts found from positions, explained before anything is reported. A
 * boosted position that shrank or vanished between two snapshots is a suspect. The judge first
 * brings orders and settlements up to date, then explains the loss by, in turn: a settlement
 * row at or after the position's last update (KNOCKED_OUT rows alert by themselves; CLOSED and
 * SETTLEMENT rows are a sale and a resolution), our own filled SELL orders since that update
 * (the store's orders; order intents and orders still in flight make it wait), the fixture
 * having resolved. Whatever is left is a knockout: a partial one while the position stays
 * open, or, for a vanished position, one whose row has not come after settleWaitMs. So a
 * knockout is only ever the exchange's word (its rows and positions), never a guess from a
 * price: the near watch says nothing at or past the knockout, and no figure here is the
 * estimated closing price, which sits below the index the exchange knocks out on.
 */
import { FINAL_ORDER_STATUSES } from '../../shared/api/schemas.js';
import type { StoredPosition } from '../store/index.js';
import type { IntentParams } from '../trading/index.js';
import { positionKey } from './keys.js';
import type { KnockedOutAlerts } from './knocked-out.js';
import type { KnockoutSource, WatchContext } from './watch-types.js';

const FINAL = new Set<string>(FINAL_ORDER_STATUSES);

/** A loss of contracts to explain. */
interface Suspect {
  prev: StoredPosition;
  cur: StoredPosition | undefined;
  /** Local time it was seen. */
  seenAt: number;
}

export class LossJudge {
  readonly #ctx: WatchContext;
  readonly #engine: Pick<KnockoutSource, 'syncNow'>;
  readonly #knockedOut: KnockedOutAlerts;
  readonly #settleWaitMs: number;
  #suspects: Suspect[] = [];
  /** Between start() and stop(). */
  #running = false;
  #judging: Promise<void> = Promise.resolve();
  #judgeAgain = false;
  #judgeRunning = false;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    ctx: WatchContext,
    engine: Pick<KnockoutSource, 'syncNow'>,
    knockedOut: KnockedOutAlerts,
    settleWaitMs: number,
  ) {
    this.#ctx = ctx;
    this.#engine = engine;
    this.#knockedOut = knockedOut;
    this.#settleWaitMs = settleWaitMs;
  }

  start(): void {
    this.#running = true;
  }

  /** Forgets every waiting loss; a check waiting for the engine stores nothing more. */
  stop(): void {
    this.#running = false;
    if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#suspects = [];
  }

  /** Losses still waiting for an explanation (our SELL in flight, a settlement row). */
  get pending(): number {
    return this.#suspects.length;
  }

  /** Resolves when no loss is being explained right now. */
  async idle(): Promise<void> {
    while (this.#judgeRunning) await this.#judging;
  }

  /** A new snapshot: each boosted position that lost contracts since `previous` is a suspect. */
  compare(previous: readonly StoredPosition[], positions: readonly StoredPosition[]): void {
    const now = new Map(positions.map((p) => [positionKey(p), p]));
    for (const prev of previous) {
      if (!prev.boosted) continue;
      const cur = now.get(positionKey(prev));
      if (cur !== undefined && cur.contracts >= prev.contracts) continue;
      this.#suspects.push({ prev, cur, seenAt: this.#ctx.now() });
    }
    this.recheck();
  }

  /** Something that may explain a waiting loss happened: judge the waiting losses again. */
  recheck(): void {
    if (this.#suspects.length > 0) this.#judgeSoon();
  }

  /**
   * The engine synced (it may have been offline): judge the waiting losses again, unless a
   * judgement is under way, whose own sync is what the engine reports.
   */
  retry(): void {
    if (!this.#judgeRunning) this.recheck();
  }

  #judgeSoon(): void {
    if (this.#judgeRunning) {
      this.#judgeAgain = true;
      return;
    }
    this.#judgeRunning = true;
    this.#judging = this.#judgeAll().finally(() => {
      this.#judgeRunning = false;
      if (this.#judgeAgain && this.#suspects.length > 0 && this.#running) {
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
        this.#ctx.logger.debug('knockout check waits for the exchange', {
          error: err instanceof Error ? err.message : String(err),
        });
        return; // Tried again on the next event from the engine.
      }
      if (!this.#running) return;
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
    if (this.#suspects.length === 0 || !this.#running) return;
    const due = Math.min(...this.#suspects.map((s) => s.seenAt + this.#settleWaitMs));
    this.#retryTimer = setTimeout(
      () => {
        this.#retryTimer = undefined;
        this.#judgeSoon();
      },
      Math.max(10, due - this.#ctx.now() + 10),
    );
    this.#retryTimer.unref();
  }

  /** True when the loss is explained or reported; false to wait for more information. */
  #judge(s: Suspect): boolean {
    const { store, accountId } = this.#ctx;
    const { prev, cur } = s;
    const lost = prev.contracts - (cur?.contracts ?? 0);
    if (lost <= 0) return true;
    const c = prev.contractId;
    const o = prev.outcome;
    const expired = this.#ctx.now() - s.seenAt >= this.#settleWaitMs;

    if (cur === undefined) {
      // A flat position always leaves a settlement row: CLOSED, KNOCKED_OUT or SETTLEMENT.
      const rows = store.settlements.query(accountId, {
        contractId: c,
        team: o,
        from: prev.updatedAt,
        limit: 10,
      });
      if (rows.total > 0) {
        // Its KNOCKED_OUT row alerts once by its key, even when it came with the backfill.
        for (const row of [...rows.settlements].reverse()) {
          if (row.type === 'KNOCKED_OUT') this.#knockedOut.fromRow(row);
        }
        return true;
      }
      if (store.fixtures.get(accountId, c)?.status === 'RESOLVED') return true;
    }

    const sells = store.orders
      .list(accountId, { contractId: c, team: o, limit: 1000 })
      .orders.filter((x) => x.side === 'SELL');
    const sold = sells
      .filter((x) => x.status === 'FILLED' && x.updatedAt > prev.updatedAt)
      .reduce((n, x) => n + x.contracts, 0);
    if (sold >= lost) return true;
    const inFlight = sells.some((x) => !FINAL.has(x.status)) || this.#sellIntentInFlight(c, o);
    if (!expired && (inFlight || cur === undefined)) return false;

    this.#knockedOut.raise({
      contractId: c,
      outcome: o,
      kind: cur === undefined ? 'v' : 'p',
      at: cur === undefined ? prev.updatedAt : cur.updatedAt,
      contracts: lost - sold,
    });
    return true;
  }

  /** An order intent of ours that may be a SELL on this position and has no order yet. */
  #sellIntentInFlight(contractId: string, outcome: string): boolean {
    return this.#ctx.store.intents.listOpen(this.#ctx.accountId).some((i) => {
      if (i.state !== 'pending' && i.state !== 'sent' && i.state !== 'unknown') return false;
      // As the trading service records it; read defensively, a row may predate a field.
      const request = (i.params as Partial<IntentParams> | null)?.request;
      const leg = request?.legs?.[0];
      if (leg === undefined) return typeof request?.rfqId === 'string'; // side unknown: maybe
      return (
        String(leg.side).toUpperCase() === 'SELL' &&
        String(leg.contractId).toUpperCase() === contractId &&
        String(leg.outcome).toUpperCase() === outcome
      );
    });
  }
}
