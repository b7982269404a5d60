/**
 * The bet slip: one outcome, a size, a boost, the quote the exchange gave for it, and the life of
 * the order placed from it. It keeps the rules that stop a double bet (design, "Placing"):
 * - one intent id per intent, made when a quote arrives and reused for every repeat (a double
 *   click, a held key, a retry after a lost answer) until the terms change;
 * - one request per intent: Place does nothing while one is in flight, and nothing once the
 *   intent has an order;
 * - a bet whose fate is unknown ("Checking…") blocks another from this slip until it is known.
 * Known refusals (closed fixture, opposite outcome held, read-only key, offline) are explained
 * before anything is sent. A quote lives 30 s by the exchange's clock, so the countdown runs on
 * server time (local time plus the measured offset) and an expired quote cannot be placed.
 */
import type {
  BetTerms,
  BridgeErrorKind,
  Fixture,
  FixtureRef,
  OrderRow,
  OrderRowStatus,
  PlaceOrder,
  PositionRow,
  QuoteResult,
} from '../../../../shared/ipc/contract.js';
import { estimateClose, type CloseEstimate } from '../../../../shared/desk/close.js';
import { isFateUnknown, newerRow } from '../../../../shared/desk/status.js';
import { cmp, isDecimalString } from '../../../../shared/money.js';
import { BridgeFailure, messageOf, type Bridge } from '../bridge.js';
import { fixtureName } from '../format.js';
import { newIntentId } from '../intent.js';
import { knownRefusal, placeLabel, type Refusal } from '../slip-words.js';
import type { Clock } from './clock.svelte.js';

export type { Refusal };

export type SizeUnit = 'BASE' | 'QUOTE';
export type SlipSide = 'BUY' | 'SELL';
/** FOK: exactly the quote or nothing. MARKET: the slip's size at whatever price the market gives. */
export type PlaceKind = 'FOK' | 'MARKET';

export interface SlipSelection {
  contractId: string;
  /** Null when the store does not know the fixture (a position on an unknown contract). */
  fixture: FixtureRef | null;
  outcome: string;
}

/** What the slip needs to know of the rest of the app; read on demand, so it is always fresh. */
export interface SlipContext {
  /** The active key may trade (app:info canTrade). */
  readonly canTrade: boolean;
  /** The exchange can be reached. */
  readonly online: boolean;
  /** Place without the confirmation step. */
  readonly oneClick: boolean;
  /** The active account's open positions. */
  readonly positions: readonly PositionRow[];
  /** The freshest the app knows of a fixture, or null. */
  fixture(contractId: string): FixtureRef | null;
}

export interface SlipFailure {
  message: string;
  kind: BridgeErrorKind;
  /** rate-limited: local time from which it may be tried again. */
  retryAt: number | null;
}

function refFrom(f: Fixture | FixtureRef): FixtureRef {
  return {
    league: f.league,
    homeTeam: f.homeTeam,
    awayTeam: f.awayTeam,
    startsAt: f.startsAt,
    bettingOpen: f.bettingOpen,
    status: f.status,
  };
}

export class SlipState {
  #selection = $state.raw<SlipSelection | null>(null);
  #side = $state<SlipSide>('BUY');
  #unit = $state<SizeUnit>('BASE');
  #qty = $state('');
  #boost = $state(0);
  #kind = $state<PlaceKind>('FOK');
  #quote = $state.raw<QuoteResult | null>(null);
  /** The terms the quote prices: what a MARKET order places. */
  #quoted = $state.raw<BetTerms | null>(null);
  #requesting = $state(false);
  #quoteError = $state<string | null>(null);
  #confirming = $state(false);
  #sending = $state(false);
  /** The order of the last placement from this slip, as pushes update it. */
  #order = $state.raw<OrderRow | null>(null);
  #repeated = $state(false);
  #warning = $state<string | null>(null);
  #failure = $state.raw<SlipFailure | null>(null);
  /** The current intent: made when a quote arrives, kept until the terms change. */
  #intentId = $state<string | null>(null);
  #quoteSeq = 0;

  readonly #bridge: Bridge;
  readonly #ctx: SlipContext;
  readonly #clock: Clock;
  readonly #newIntent: () => string;

  constructor(bridge: Bridge, ctx: SlipContext, clock: Clock, newIntent = () => newIntentId()) {
    this.#bridge = bridge;
    this.#ctx = ctx;
    this.#clock = clock;
    this.#newIntent = newIntent;
  }

  // ------------------------------------------------------------ what is asked

  get selection(): SlipSelection | null {
    return this.#selection;
  }
  get side(): SlipSide {
    return this.#side;
  }

  get unit(): SizeUnit {
    return this.#unit;
  }
  /** A close is always in contracts. */
  set unit(value: SizeUnit) {
    if (this.#side === 'SELL' || value === this.#unit) return;
    this.#unit = value;
    this.#discardQuote();
  }

  get qty(): string {
    return this.#qty;
  }
  set qty(value: string) {
    if (value === this.#qty) return;
    this.#qty = value;
    this.#discardQuote();
  }

  get boost(): number {
    return this.#boost;
  }
  /** A close carries no boost. */
  set boost(value: number) {
    const boost = Math.max(0, Math.min(100, Math.round(Number(value) || 0)));
    if (this.#side === 'SELL' || boost === this.#boost) return;
    this.#boost = boost;
    this.#discardQuote();
  }

  get kind(): PlaceKind {
    return this.#kind;
  }
  /**
   * Other terms, another intent: the quote stays as the estimate, the intent is new. Once the
   * intent was placed it stays, so switching cannot turn one quote into a second bet.
   */
  set kind(value: PlaceKind) {
    if (value === this.#kind) return;
    this.#kind = value;
    this.#confirming = false;
    if (this.#quote && !this.placed) this.#intentId = this.#newIntent();
  }

  /** The fixture as the app knows it now (a push may have closed it since it was picked). */
  get fixture(): FixtureRef | null {
    const s = this.#selection;
    if (!s) return null;
    return this.#ctx.fixture(s.contractId) ?? s.fixture;
  }

  get fixtureName(): string {
    const f = this.fixture;
    return f ? fixtureName(f) : (this.#selection?.contractId ?? '');
  }

  /** The position the slip's outcome holds, if any. */
  get position(): PositionRow | null {
    const s = this.#selection;
    if (!s) return null;
    return (
      this.#ctx.positions.find(
        (p) => p.contractId === s.contractId && p.outcome === s.outcome && p.contracts > 0,
      ) ?? null
    );
  }

  /** Why the size cannot be quoted as it stands, or null when it can. */
  get sizeProblem(): string | null {
    const qty = this.#qty.trim();
    if (qty === '') return null;
    if (!isDecimalString(qty) || cmp(qty, 0) <= 0) {
      return this.#unit === 'BASE'
        ? 'Enter a number of contracts greater than zero.'
        : 'Enter an amount in dollars greater than zero, like 25 or 12.50.';
    }
    if (this.#unit === 'BASE' && !/^\d+$/.test(qty)) return 'Contracts are whole numbers.';
    return null;
  }

  /** The bet as the slip describes it now, or null while it is incomplete. */
  get terms(): BetTerms | null {
    const s = this.#selection;
    const qty = this.#qty.trim();
    if (!s || qty === '' || this.sizeProblem !== null) return null;
    return {
      contractId: s.contractId,
      outcome: s.outcome,
      side: this.#side,
      qty,
      unit: this.#side === 'SELL' ? 'BASE' : this.#unit,
      boost: this.#side === 'SELL' ? 0 : this.#boost,
    };
  }

  /** What the app already knows the exchange would refuse, said before anything is sent. */
  get refusal(): Refusal | null {
    const s = this.#selection;
    if (!s) return null;
    return knownRefusal({
      contractId: s.contractId,
      outcome: s.outcome,
      side: this.#side,
      fixture: this.fixture,
      fixtureName: this.fixtureName,
      positions: this.#ctx.positions,
      canTrade: this.#ctx.canTrade,
      online: this.#ctx.online,
    });
  }

  get canRequest(): boolean {
    return this.terms !== null && !this.#requesting && !(this.refusal?.blocksQuote ?? false);
  }

  // ------------------------------------------------------------ the quote

  get quote(): QuoteResult | null {
    return this.#quote;
  }
  get requesting(): boolean {
    return this.#requesting;
  }
  get quoteError(): string | null {
    return this.#quoteError;
  }

  /** Milliseconds the quote has left by the exchange's clock; 0 once expired. */
  get remainingMs(): number {
    if (!this.#quote) return 0;
    const serverNow = this.#clock.now + this.#quote.clockOffsetMs;
    return Math.max(0, this.#quote.quote.expiresAt - serverNow);
  }

  get expired(): boolean {
    return this.#quote !== null && this.remainingMs <= 0;
  }

  /** A close: what the quote would pay out and the P&L it would lock in, "about". */
  get closeEstimate(): CloseEstimate | null {
    const q = this.#quote?.quote;
    const position = this.position;
    if (this.#side !== 'SELL' || !q || !position) return null;
    return estimateClose(position, q.contracts, q.entryPrice);
  }

  // ------------------------------------------------------------ placing

  get intentId(): string | null {
    return this.#intentId;
  }
  get confirming(): boolean {
    return this.#confirming;
  }
  get sending(): boolean {
    return this.#sending;
  }
  get order(): OrderRow | null {
    return this.#order;
  }
  /** The order's status, "Sending…" included while the request is in flight. */
  get status(): OrderRowStatus | null {
    if (this.#order && this.#order.clientOrderId === this.#intentId) return this.#order.status;
    if (this.#sending) return 'SENDING';
    return this.#order?.status ?? null;
  }
  get repeated(): boolean {
    return this.#repeated;
  }
  get warning(): string | null {
    return this.#warning;
  }
  get failure(): SlipFailure | null {
    return this.#failure;
  }

  /** Milliseconds until a rate-limited placement may be tried again; 0 when it may. */
  get retryInMs(): number {
    const at = this.#failure?.retryAt;
    return at ? Math.max(0, at - this.#clock.now) : 0;
  }

  /** The current intent already has its order: another needs a new quote. */
  get placed(): boolean {
    return this.#order !== null && this.#order.clientOrderId === this.#intentId;
  }

  /** Why Place cannot send now, or null when it can. */
  get placeProblem(): string | null {
    if (this.#selection === null) return 'Pick an outcome first.';
    if (this.placed) {
      return this.#order?.status === 'NOT_PLACED'
        ? 'This bet was not placed (the reason is below). Request a new quote to try again.'
        : 'This bet has been placed. Request a new quote to bet again.';
    }
    const refusal = this.refusal;
    if (refusal) return refusal.message;
    const last = this.#order;
    if (last && isFateUnknown(last.status)) {
      return 'Your last bet from this slip is still being checked with the exchange. Wait for its result before placing another, so it cannot become a double bet.';
    }
    if (!this.#quote) return 'Request a quote first.';
    if (this.expired) return 'This quote has expired; request a new one.';
    const wait = this.retryInMs;
    if (wait > 0)
      return `The exchange’s order limit is spent for now: try again in ${Math.ceil(wait / 1000)} s.`;
    return null;
  }

  get canPlace(): boolean {
    return !this.#sending && this.placeProblem === null;
  }

  /** What the Place button says will happen: "Place bet · 25 contracts · $24.00". */
  get placeLabel(): string {
    if (this.#sending) return 'Place bet · Sending…';
    const q = this.#quote?.quote;
    if (!q) return 'Place bet';
    return placeLabel({
      side: this.#side,
      kind: this.#kind,
      contracts: q.contracts,
      cost: q.cost,
      proceeds: this.closeEstimate?.proceeds,
      dollars: this.#quoted?.unit === 'QUOTE' ? this.#quoted.qty : undefined,
    });
  }

  /** A boosted bet's knockout, said before it is placed. */
  get knockoutNote(): string | null {
    const k = this.#quote?.quote.knockout;
    if (!k || this.#side === 'SELL') return null;
    const about = this.#kind === 'MARKET' ? 'about ' : '';
    return `Boosted: knocked out (the stake lost) if the index price falls to ${about}${k}.`;
  }

  // ------------------------------------------------------------ actions

  /** A BUY on `outcome` of `fixture`, from the markets. */
  select(fixture: Fixture | (FixtureRef & { contractId: string }), outcome: string): void {
    if (this.#side === 'SELL') {
      this.#qty = '';
      this.#unit = 'BASE';
    }
    this.#selection = { contractId: fixture.contractId, fixture: refFrom(fixture), outcome };
    this.#side = 'BUY';
    this.#resetBet();
  }

  /** A SELL of the whole position, editable for a partial close. */
  closePosition(position: PositionRow): void {
    this.#selection = {
      contractId: position.contractId,
      fixture: position.fixture,
      outcome: position.outcome,
    };
    this.#side = 'SELL';
    this.#unit = 'BASE';
    this.#boost = 0;
    this.#qty = String(position.contracts);
    this.#resetBet();
  }

  clear(): void {
    this.#selection = null;
    this.#side = 'BUY';
    this.#resetBet();
  }

  async request(): Promise<void> {
    const terms = this.terms;
    if (!terms || !this.canRequest) return;
    this.#discardQuote();
    const mine = ++this.#quoteSeq;
    this.#requesting = true;
    this.#quoteError = null;
    try {
      const quote = await this.#bridge.invoke('quote:request', terms);
      if (mine !== this.#quoteSeq) return;
      this.#quote = quote;
      this.#quoted = terms;
      this.#intentId = this.#newIntent();
    } catch (err) {
      if (mine === this.#quoteSeq) this.#quoteError = messageOf(err);
    } finally {
      if (mine === this.#quoteSeq) this.#requesting = false;
    }
  }

  /** The Place button: the confirmation step first, unless one-click betting is on. */
  async place(): Promise<void> {
    // While the confirmation step is open only its own button sends: a double click on Place
    // opens it once and goes no further.
    if (!this.canPlace || this.#confirming) return;
    if (this.#ctx.oneClick) await this.#send();
    else this.#confirming = true;
  }

  /** The confirmation step's button. */
  async confirm(): Promise<void> {
    if (!this.#confirming) return;
    await this.#send();
  }

  /** Back from the confirmation step. */
  back(): void {
    this.#confirming = false;
  }

  /** Esc: out of the confirmation step, or else clear the slip. */
  escape(): void {
    if (this.#confirming) this.back();
    else this.clear();
  }

  /** Orders changed (an `orders:changed` push): follow this slip's order. */
  applyOrders(rows: readonly OrderRow[]): void {
    const current = this.#order;
    const key = current?.clientOrderId ?? (this.#sending ? this.#intentId : null);
    if (!key) return;
    for (const row of rows) {
      if (row.clientOrderId === key) this.#adopt(row);
    }
  }

  /** Follows `orders:changed`; returns the function that stops. */
  start(): () => void {
    return this.#bridge.on('orders:changed', (change) => this.applyOrders(change.rows));
  }

  // ------------------------------------------------------------ inside

  async #send(): Promise<void> {
    // One request per intent: a second click, a held key or a retry while this one is in flight
    // does nothing.
    if (this.#sending || this.placeProblem !== null) return;
    const quote = this.#quote;
    const terms = this.#quoted;
    if (!quote || !terms) return;
    const intentId = this.#intentId ?? (this.#intentId = this.#newIntent());
    const input: PlaceOrder =
      this.#kind === 'FOK'
        ? { intentId, type: 'FOK', rfqId: quote.quote.rfqId }
        : { intentId, type: 'MARKET', bet: terms };
    this.#sending = true;
    this.#confirming = false;
    this.#failure = null;
    this.#repeated = false;
    this.#warning = null;
    if (this.#order?.clientOrderId !== intentId) this.#order = null;
    try {
      const result = await this.#bridge.invoke('order:place', input);
      this.#adopt(result.row);
      this.#repeated = result.repeated;
      this.#warning = result.warning ?? null;
    } catch (err) {
      this.#failure = this.#failureOf(err);
      // The answer was lost, not the order: ask whether it went through.
      if (err instanceof BridgeFailure && (err.kind === 'offline' || err.kind === 'internal')) {
        await this.#lookUp(intentId);
      }
    } finally {
      this.#sending = false;
    }
  }

  async #lookUp(intentId: string): Promise<void> {
    try {
      const { row } = await this.#bridge.invoke('orders:get', { clientOrderId: intentId });
      if (row) this.#adopt(row);
    } catch {
      // Still unreachable: the failure already says so, and the intent is kept for a retry.
    }
  }

  #adopt(row: OrderRow): void {
    const current = this.#order;
    this.#order =
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

  /** The terms changed: the quote shown no longer prices them, and the intent ends with it. */
  #discardQuote(): void {
    this.#quoteSeq++;
    this.#quote = null;
    this.#quoted = null;
    this.#intentId = null;
    this.#confirming = false;
    this.#requesting = false;
    this.#quoteError = null;
    if (this.retryInMs <= 0) this.#failure = null;
  }

  #resetBet(): void {
    this.#discardQuote();
    this.#order = null;
    this.#repeated = false;
    this.#warning = null;
    this.#failure = null;
    this.#kind = 'FOK';
  }
}
