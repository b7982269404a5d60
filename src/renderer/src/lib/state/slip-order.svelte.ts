/**
 * The order placed from the bet slip: the request in flight, the row that `orders:changed`
 * pushes keep current, and what main said of it (a repeat, a warning, a failure). It sends what
 * the slip gives it and never decides whether to: the slip keeps the rules that stop a double
 * bet, this keeps the order's life.
 */
import type { BridgeErrorKind, OrderRow, PlaceOrder } from '../../../../shared/ipc/contract.js';
import { newerRow } from '../../../../shared/rules/status.js';
import { BridgeFailure, messageOf, type Bridge } from '../bridge.js';
import type { Clock } from './clock.svelte.js';

export interface SlipFailure {
  message: string;
  kind: BridgeErrorKind;
  /** rate-limited: local time from which it may be tried again. */
  retryAt: number | null;
}

/**
 * Whether the last placement's answer is lost with nothing known of its bet: `checking` while
 * main is asked what became of it, `unknown` when main cannot be asked (Betdesk's own service is
 * gone); null when the bet's fate is known, or its row says it.
 */
export type LostAnswer = 'checking' | 'unknown' | null;

export class SlipOrder {
  /** The placement is on its way. */
  sending = $state(false);
  // The row changes with the ids it is followed by (#sendingId, #lostId): see `send`, `follow`.
  /** The order of the last placement, as pushes update it. */
  #row = $state.raw<OrderRow | null>(null);
  /** Main had this clientOrderId already: the answer is the order placed before. */
  repeated = $state(false);
  warning = $state<string | null>(null);
  failure = $state.raw<SlipFailure | null>(null);
  /** The clientOrderId of the request in flight, so a push that beats the reply is followed too. */
  #sendingId: string | null = null;
  // Whether the answer is lost changes with the id it is lost for: see `#askAboutLost`.
  #lost = $state<LostAnswer>(null);
  /** The clientOrderId whose answer was lost, to ask about again once main is back. */
  #lostId: string | null = null;

  /** Milliseconds until a rate-limited placement may be tried again; 0 when it may. */
  readonly retryInMs: number = $derived.by(() => {
    const at = this.failure?.retryAt;
    return at ? Math.max(0, at - this.#clock.now) : 0;
  });

  readonly #bridge: Bridge;
  readonly #clock: Clock;

  constructor(bridge: Bridge, clock: Clock) {
    this.#bridge = bridge;
    this.#clock = clock;
  }

  get row(): OrderRow | null {
    return this.#row;
  }
  get lost(): LostAnswer {
    return this.#lost;
  }

  /** The bet `clientOrderId` already has its order. */
  isOrderOf(clientOrderId: string | null): boolean {
    return this.#row !== null && this.#row.clientOrderId === clientOrderId;
  }

  /** Places `input` and follows what becomes of it; a lost answer is looked up, not resent. */
  async send(input: PlaceOrder): Promise<void> {
    const { clientOrderId } = input;
    this.sending = true;
    this.#sendingId = clientOrderId;
    this.failure = null;
    this.repeated = false;
    this.warning = null;
    this.#clearLost();
    if (this.#row?.clientOrderId !== clientOrderId) this.#row = null;
    try {
      const result = await this.#bridge.invoke('order:place', input);
      this.#adopt(result.row);
      this.repeated = result.repeated;
      this.warning = result.warning ?? null;
    } catch (err) {
      this.failure = this.#failureOf(err);
      if (err instanceof BridgeFailure && err.kind === 'internal') {
        // The answer was lost, not necessarily the order: until main says what became of it,
        // its fate is unknown and no retry is offered.
        this.#lostId = clientOrderId;
        await this.#askAboutLost(clientOrderId);
      } else if (err instanceof BridgeFailure && err.kind === 'offline') {
        // Nothing was sent; a push or a lookup may still show an order of this bet.
        await this.#lookUp(clientOrderId);
      }
    } finally {
      this.sending = false;
      this.#sendingId = null;
    }
  }

  /** Orders changed (an `orders:changed` push): follow this order. */
  follow(rows: readonly OrderRow[]): void {
    const key = this.#row?.clientOrderId ?? this.#sendingId ?? this.#lostId;
    if (!key) return;
    for (const row of rows) {
      if (row.clientOrderId === key) {
        this.#adopt(row);
        this.#settleLost();
      }
    }
  }

  /** Main is back: ask again about an order whose answer was lost while it was away. */
  async recheck(): Promise<void> {
    const id = this.#lostId;
    if (this.#lost !== 'unknown' || id === null) return;
    await this.#askAboutLost(id);
  }

  /** The terms changed: a failure goes with them, unless it says when to try again. */
  dropFailure(): void {
    if (this.retryInMs <= 0) this.failure = null;
  }

  /**
   * A new quote after the last bet's fate is known: its result goes, but a rate limit's wait
   * stays (it is the exchange's, not the bet's).
   */
  endBet(): void {
    this.#row = null;
    this.repeated = false;
    this.warning = null;
    this.dropFailure();
  }

  /** Another bet: nothing of the last one's order, not even a rate limit's wait. */
  forget(): void {
    this.#clearLost();
    this.endBet();
    this.failure = null;
  }

  /**
   * Asks main what became of `clientOrderId`. True when it answered: with the order's row, or
   * with none, which means it never recorded the bet, so nothing was sent. False when it cannot
   * be asked.
   */
  async #lookUp(clientOrderId: string): Promise<boolean> {
    try {
      const { row } = await this.#bridge.invoke('orders:get', { clientOrderId });
      if (row) this.#adopt(row);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Asks main about `id`, whose answer was lost: `checking` meanwhile, then settled when main
   * answers, `unknown` when it cannot be asked. Nothing changes if another bet took its place.
   */
  async #askAboutLost(id: string): Promise<void> {
    this.#lost = 'checking';
    const known = await this.#lookUp(id);
    if (this.#lostId !== id) return;
    if (known) this.#clearLost();
    else this.#lost = 'unknown';
  }

  /** A row of the lost answer's order arrived: its fate is said by the row from now on. */
  #settleLost(): void {
    if (this.#lostId !== null && this.#row?.clientOrderId === this.#lostId) this.#clearLost();
  }

  #clearLost(): void {
    this.#lost = null;
    this.#lostId = null;
  }

  #adopt(row: OrderRow): void {
    const current = this.#row;
    this.#row =
      current && current.clientOrderId === row.clientOrderId ? newerRow(current, row) : row;
  }

  #failureOf(err: unknown): SlipFailure {
    if (err instanceof BridgeFailure) {
      const retryAt =
        err.kind === 'rate-limited' && err.retryAfterMs !== undefined
          ? this.#clock.now + err.retryAfterMs
          : null;
      return { message: err.message, kind: err.kind, retryAt };
    }
    return { message: messageOf(err), kind: 'internal', retryAt: null };
  }
}
