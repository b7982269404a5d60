/**
 * Placing a bet from the desk, for one account. On top of the trading service's guarantee (one
 * clientOrderId is at most one order, whatever fails) this adds what a person at a desk needs:
 *
 * - One placement, one order: the renderer makes one clientOrderId per bet the user places (a
 *   click, a held key or a second window repeat it) and the order is placed under it, so it
 *   also keys the store's order intent (the record written before sending).
 *   The same placement again, while it is being placed or after, answers its first order
 *   (`repeated`). A quote already placed under one placement is refused for another.
 * - Known refusals before anything is sent, where the store already knows the answer: a
 *   read-only key, the exchange unreachable (nothing is queued to send later), betting closed,
 *   the opposite outcome held (-2030), nothing to sell (-2029), the exchange's order budget
 *   spent (with when to try again). Position checks are made only when the stored positions
 *   are newer than the account's last order on that fixture; otherwise the exchange decides.
 * - A fate that is not known yet (CHECKING) is settled by the trading service's reconciliation,
 *   run again every few seconds while such an intent is open; never shown as failed meanwhile.
 * - Every change of a row is pushed as `orders:changed`, so every window sees it.
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import { isFinalStatus } from '../../shared/api/schemas.js';
import type { BetTerms, OrderRow, PlaceOrder, PlaceResult } from '../../shared/ipc/contract.js';
import type { SyncStatus } from '../sync/events.js';
import type { BucketSnapshot } from '../governor/index.js';
import { Refusal } from '../refusal.js';
import type { Store } from '../store/index.js';
import type { Bet, BetInput, OrderParams, TradingService } from '../trading/index.js';
import type { Emit } from './alert-centre.js';
import { entryRow, fixtureLookup } from './rows.js';

export interface DeskTradingOptions {
  store: Store;
  accountId: number;
  bridgeId: string | null;
  trading: TradingService;
  /** The account's sync state: placing is refused while the exchange is unreachable. */
  syncStatus: () => SyncStatus;
  /** The account's order bucket in the rate governor. */
  ordersBucket: () => BucketSnapshot | undefined;
  emit: Emit;
  now?: () => number;
  /** How often open intents of unknown fate are checked with the exchange, ms (default 3000). */
  checkEveryMs?: number;
  /** How far apart a fill's time and a positions snapshot's are still "same time", ms. */
  clockMarginMs?: number;
  /** A SELL is about to be sent from the desk: closing by hand disarms the position's guardians. */
  onSell?: (contractId: string, outcome: string) => void;
}

/** A fill's time and a positions snapshot's are on two clocks; this much apart is "same time". */
const CLOCK_MARGIN_MS = 2000;
/** After this long still sending, the row is pushed so other windows show "Sending…". */
const SHOW_SENDING_AFTER_MS = 300;

export class DeskTrading {
  readonly #store: Store;
  readonly #accountId: number;
  readonly #bridgeId: string | null;
  readonly #trading: TradingService;
  readonly #syncStatus: () => SyncStatus;
  readonly #ordersBucket: () => BucketSnapshot | undefined;
  readonly #emit: Emit;
  readonly #now: () => number;
  readonly #checkEveryMs: number;
  readonly #clockMarginMs: number;
  readonly #onSell: ((contractId: string, outcome: string) => void) | undefined;
  /** Placements running now, by clientOrderId. */
  readonly #placing = new Map<string, Promise<PlaceResult>>();
  /** Quotes placed (or being placed), by rfqId: a quote executes at most once. */
  readonly #quoteUsedBy = new Map<string, string>();
  #checkTimer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(opts: DeskTradingOptions) {
    this.#store = opts.store;
    this.#accountId = opts.accountId;
    this.#bridgeId = opts.bridgeId;
    this.#trading = opts.trading;
    this.#syncStatus = opts.syncStatus;
    this.#ordersBucket = opts.ordersBucket;
    this.#emit = opts.emit;
    this.#now = opts.now ?? Date.now;
    this.#checkEveryMs = opts.checkEveryMs ?? 3000;
    this.#clockMarginMs = opts.clockMarginMs ?? CLOCK_MARGIN_MS;
    this.#onSell = opts.onSell;
  }

  async place(input: PlaceOrder): Promise<PlaceResult> {
    const id = input.clientOrderId;
    const running = this.#placing.get(id);
    if (running) return { ...(await running), repeated: true };
    const known = this.#store.blotter.get(this.#accountId, id);
    if (known) return { row: this.#rowOf(id) ?? this.#fail(id), repeated: true };
    const placing = this.#placeNew(input);
    this.#placing.set(id, placing);
    try {
      return await placing;
    } finally {
      this.#placing.delete(id);
    }
  }

  /** The row of a clientOrderId as the blotter shows it, or null. */
  row(clientOrderId: string): OrderRow | null {
    return this.#rowOf(clientOrderId) ?? null;
  }

  /**
   * Settles open intents with the exchange (the trading service's reconciliation) and pushes
   * the rows that changed; checks again later while any fate is still unknown.
   */
  async reconcile(): Promise<void> {
    try {
      const report = await this.#trading.reconcileOpenIntents();
      this.#pushRows([...report.placed, ...report.notPlaced]);
    } catch {
      // The exchange cannot be asked now; the next check will.
    }
    this.#checkLater();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#checkTimer !== undefined) clearTimeout(this.#checkTimer);
    this.#checkTimer = undefined;
  }

  // ------------------------------------------------------------------ placing

  async #placeNew(input: PlaceOrder): Promise<PlaceResult> {
    const id = input.clientOrderId;
    const params = this.#orderParams(input);
    const bet =
      input.bet ??
      (input.rfqId !== undefined ? this.#trading.quoteOf(input.rfqId)?.bet : undefined);
    this.#refuseKnown(bet);
    if (bet !== undefined && bet.side.toUpperCase() === 'SELL') {
      this.#onSell?.(bet.contractId.toUpperCase(), bet.outcome.toUpperCase());
    }
    if (input.rfqId !== undefined) {
      const usedBy = this.#quoteUsedBy.get(input.rfqId);
      if (usedBy !== undefined && usedBy !== id) {
        throw new Refusal(
          'conflict',
          'This quote was already used to place a bet; a quote executes once. Request a new quote to bet again.',
          ErrorCodes.QUOTE_USED,
        );
      }
      this.#quoteUsedBy.set(input.rfqId, id);
    }
    const showSending = setTimeout(() => this.#pushRows([id]), SHOW_SENDING_AFTER_MS);
    try {
      const outcome = await this.#trading.placeOrder(params);
      const row = this.#rowOf(id) ?? this.#fail(id);
      this.#pushRows([id]);
      if (outcome.status === 'UNKNOWN') this.#checkLater();
      return {
        row,
        repeated: false,
        ...(outcome.warning ? { warning: outcome.warning.message } : {}),
      };
    } catch (err) {
      // Refused before an intent was recorded (a lapsed quote, an invalid bet): nothing was
      // placed, so the quote is not spent.
      if (input.rfqId !== undefined && this.#store.intents.get(id) === undefined) {
        this.#quoteUsedBy.delete(input.rfqId);
      }
      throw err;
    } finally {
      clearTimeout(showSending);
    }
  }

  #orderParams(input: PlaceOrder): OrderParams {
    const { clientOrderId } = input;
    if (input.type === 'FOK') {
      if (input.rfqId === undefined || input.bet !== undefined) {
        throw new Refusal(
          'invalid-input',
          'A fill-or-kill bet executes a quote: send its rfqId, and no bet of its own.',
        );
      }
      return { type: 'FOK', rfqId: input.rfqId, clientOrderId };
    }
    if (input.bet === undefined || input.rfqId !== undefined) {
      throw new Refusal(
        'invalid-input',
        'A market bet is placed at the current price: send the bet (fixture, outcome, side, size, unit, boost), and no rfqId.',
      );
    }
    return { type: 'MARKET', ...betInput(input.bet), clientOrderId };
  }

  // ------------------------------------------------------------------ known refusals

  #refuseKnown(bet: Pick<Bet, 'contractId' | 'outcome' | 'side'> | undefined): void {
    if (this.#store.accounts.get(this.#accountId)?.permission === 'read') {
      throw new Refusal(
        'conflict',
        'This account’s API key may only read, so the bet was not sent. Add a key with trade permission in Accounts to place bets.',
      );
    }
    if (this.#syncStatus().state === 'offline') {
      throw new Refusal(
        'offline',
        'Betdesk cannot reach the exchange, so the bet was not sent. Nothing is queued: place it again when the connection is back.',
      );
    }
    const bucket = this.#ordersBucket();
    const now = this.#now();
    if (bucket?.blockedUntil != null && bucket.blockedUntil > now) {
      const waitMs = bucket.blockedUntil - now;
      throw new Refusal(
        'rate-limited',
        `The exchange asked Betdesk to slow down, so the bet was not sent. Orders can be placed again in ${Math.ceil(waitMs / 1000)} s.`,
        ErrorCodes.TOO_MANY_REQUESTS,
        waitMs,
      );
    }
    if (bet === undefined) return;
    const contractId = bet.contractId.toUpperCase();
    const outcome = bet.outcome.toUpperCase();
    const fixture = this.#store.fixtures.get(this.#accountId, contractId);
    const name = fixture ? `${fixture.homeTeam} v ${fixture.awayTeam}` : contractId;
    if (fixture && (!fixture.bettingOpen || fixture.status !== 'OPEN')) {
      throw new Refusal(
        'exchange',
        `Betting on ${name} is closed, so the bet was not sent.`,
        ErrorCodes.MARKET_CLOSED,
      );
    }
    if (!this.#positionsSettled(contractId)) return;
    const held = this.#store.positions
      .list(this.#accountId, { contractId })
      .filter((p) => p.contracts > 0);
    if (bet.side === 'BUY') {
      const other = held.find((p) => p.outcome !== outcome);
      if (other) {
        throw new Refusal(
          'exchange',
          `You hold ${other.outcome} on ${name}: close it before betting on ${outcome}. The bet was not sent.`,
          ErrorCodes.OPPOSITE_HELD,
        );
      }
    } else if (!held.some((p) => p.outcome === outcome)) {
      throw new Refusal(
        'exchange',
        `You hold nothing on ${outcome} in ${name} to sell, so nothing was sent.`,
        ErrorCodes.NOTHING_TO_SELL,
      );
    }
  }

  /**
   * Whether the stored positions already reflect every order on the fixture: none of them is
   * still open or being sent, and the last fill is older than the last positions snapshot.
   */
  #positionsSettled(contractId: string): boolean {
    const snapshotAt = this.#store.cursors.get(this.#accountId, 'positions')?.lastSyncAt;
    if (snapshotAt === undefined) return false;
    const orders = this.#store.orders.list(this.#accountId, { contractId, limit: 50 }).orders;
    if (orders.some((o) => !isFinalStatus(o.status))) return false;
    const lastFill = Math.max(
      0,
      ...orders.filter((o) => o.status === 'FILLED').map((o) => o.updatedAt),
    );
    if (lastFill + this.#clockMarginMs >= snapshotAt) return false;
    return !this.#store.intents
      .listOpen(this.#accountId)
      .some((i) => i.state !== 'failed' && betOf(i.params)?.contractId === contractId);
  }

  // ------------------------------------------------------------------ rows and checks

  #rowOf(clientOrderId: string): OrderRow | undefined {
    const entry = this.#store.blotter.get(this.#accountId, clientOrderId);
    return entry
      ? entryRow(
          entry,
          (id) => this.#trading.isPlacing(id),
          fixtureLookup(this.#store, this.#accountId),
        )
      : undefined;
  }

  #pushRows(clientOrderIds: readonly string[]): void {
    if (this.#stopped || clientOrderIds.length === 0) return;
    const rows = clientOrderIds
      .map((id) => this.#rowOf(id))
      .filter((r): r is OrderRow => r !== undefined);
    if (rows.length === 0) return;
    this.#emit('orders:changed', {
      accountId: this.#bridgeId,
      orderIds: rows.flatMap((r) => (r.orderId !== null ? [r.orderId] : [])),
      rows,
      more: false,
      at: this.#now(),
    });
  }

  /** Runs reconcile() again soon while an open intent's fate is not known. */
  #checkLater(): void {
    if (this.#stopped || this.#checkTimer !== undefined || !this.#hasUnknownFate()) return;
    this.#checkTimer = setTimeout(() => {
      this.#checkTimer = undefined;
      void this.reconcile();
    }, this.#checkEveryMs);
    this.#checkTimer.unref();
  }

  #hasUnknownFate(): boolean {
    return this.#store.intents
      .listOpen(this.#accountId)
      .some(
        (i) =>
          i.state === 'unknown' ||
          i.state === 'sent' ||
          (i.state === 'pending' && !this.#trading.isPlacing(i.clientOrderId)),
      );
  }

  #fail(clientOrderId: string): never {
    throw new Refusal(
      'internal',
      `Betdesk lost track of order ${clientOrderId}; it is in the store and will show after the next sync.`,
    );
  }
}

/** The screen's bet as the trading service takes it: a boost only on a BUY. */
export function betInput(b: BetTerms): BetInput {
  return {
    contractId: b.contractId,
    outcome: b.outcome,
    side: b.side,
    qty: b.qty,
    unit: b.unit,
    ...(b.side === 'BUY' ? { boost: b.boost } : {}),
  };
}

function betOf(params: unknown): { contractId: string } | undefined {
  const bet = (params as { bet?: { contractId?: unknown } } | null)?.bet;
  return typeof bet?.contractId === 'string' ? { contractId: bet.contractId } : undefined;
}
