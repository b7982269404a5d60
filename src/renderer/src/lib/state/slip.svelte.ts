/**
 * The bet slip: one outcome, a size, a boost, the quote the exchange gave for it (`SlipQuote`),
 * and the order placed from it (`SlipOrder`). It keeps the rules that stop a double bet:
 * - one clientOrderId per bet, made when a quote arrives and reused for every repeat (a double
 *   click, a held key, a retry after a lost answer) until the terms change;
 * - one request per bet: Place does nothing while one is in flight, and nothing once the bet
 *   has an order;
 * - a bet whose fate is unknown ("Checking…", or "Not known yet" while Betdesk's own service is
 *   away) blocks another from this slip until it is known, and no retry is offered meanwhile;
 * - the confirmation step takes a deliberate act: a confirm within CONFIRM_ARM_MS of the step
 *   opening (a second press of Ctrl+Enter, a double click that lands on it) does nothing.
 * Known refusals (closed fixture, opposite outcome held, read-only key, offline) are explained
 * before anything is sent, and an expired quote cannot be placed.
 *
 * What is asked is private: a setter or an action carries each rule's side effect (other terms
 * discard the quote; another pick starts a new bet, without the last one's boost), and what the
 * slip shows is derived (`$derived` fields), so a component reads and calls actions, and cannot
 * forget a rule.
 */
import type {
  BetTerms,
  Fixture,
  FixtureRef,
  OrderRow,
  OrderRowStatus,
  PlaceOrder,
  PositionRow,
  QuoteResult,
} from '../../../../shared/ipc/contract.js';
import { readLeg } from '../../../../shared/api/leg.js';
import type { CloseEstimate } from '../../../../shared/rules/close.js';
import { fixtureRefOf } from '../../../../shared/rules/fixture.js';
import { isFateUnknown } from '../../../../shared/rules/status.js';
import type { Bridge } from '../bridge.js';
import { fixtureName } from '../format.js';
import { newClientOrderId } from '../../../../shared/client-order-id.js';
import {
  failureAdvice,
  knownRefusal,
  placeLabel,
  placeNote,
  placeProblemText,
  type PlaceBlock,
  type Refusal,
} from '../slip-words.js';
import { lotsText, slipSize, type Lots } from '../slip-size.js';
import type { Clock } from './clock.svelte.js';
import { SlipOrder, type SlipFailure } from './slip-order.svelte.js';
import { SlipClose, type CloseView } from './slip-close.svelte.js';
import { SlipConfirm } from './slip-confirm.svelte.js';
import { SlipQuote } from './slip-quote.svelte.js';
import type { PlaceKind, SizeUnit, SlipContext, SlipSelection, SlipSide } from './slip-types.js';

export type { Refusal, SlipFailure };
export type { PlaceKind, SizeUnit, SlipContext, SlipSelection, SlipSide };
export { CONFIRM_ARM_MS } from './slip-confirm.svelte.js';

export class SlipState {
  #selection = $state.raw<SlipSelection | null>(null);
  #side = $state<SlipSide>('BUY');
  #unit = $state<SizeUnit>('BASE');
  #qty = $state('');
  #boost = $state(0);
  #kind = $state<PlaceKind>('FOK');
  /** The current bet's clientOrderId: made when a quote arrives, kept until the terms change. */
  #clientOrderId = $state<string | null>(null);

  readonly #quote: SlipQuote;
  readonly #order: SlipOrder;
  readonly #bridge: Bridge;
  readonly #ctx: SlipContext;
  readonly #newId: () => string;
  readonly #confirm: SlipConfirm;
  readonly #close: SlipClose;

  // What the slip shows, derived from the fields above, the app's state (#ctx), the quote and
  // the order.

  /** The fixture as the app knows it now (a push may have closed it since it was picked). */
  readonly fixture = $derived.by((): FixtureRef | null => {
    const s = this.#selection;
    return s ? (this.#ctx.fixture(s.contractId) ?? s.fixture) : null;
  });
  /** The position the slip's outcome holds, if any. */
  readonly position = $derived.by((): PositionRow | null => {
    const s = this.#selection;
    if (!s) return null;
    const held = this.#ctx.positions.find(
      (p) => p.contractId === s.contractId && p.outcome === s.outcome && p.contracts > 0,
    );
    return held ?? null;
  });
  /** A close is always in contracts, whatever unit was chosen for a bet before. */
  readonly #unitAsked = $derived<SizeUnit>(this.#side === 'SELL' ? 'BASE' : this.#unit);
  /** The fixture's lots as the app knows them now, else as they came with the pick. */
  readonly #lots = $derived.by((): Lots | null => {
    const s = this.#selection;
    if (!s) return null;
    const known = this.#ctx.fixture(s.contractId);
    return known && 'lotSize' in known ? lotsOf(known) : s.lots;
  });
  /** The size as typed, read for a person (size-input.ts) and checked against the lots. */
  readonly #size = $derived.by(() =>
    slipSize({
      side: this.#side,
      unit: this.#unitAsked,
      text: this.#qty,
      lots: this.#lots,
      fixtureName: this.fixtureName,
    }),
  );
  /**
   * The leg as every layer reads it (the shared leg parser) and the size as #size read it, or
   * null. The size is read once: what slipSize passes is already the API's decimal string.
   */
  /** The bet as the slip describes it now, or null while it is incomplete. */
  readonly terms = $derived.by((): BetTerms | null => {
    const s = this.#selection;
    const qty = this.#size.qty;
    if (!s || qty === null) return null;
    const side = this.#side;
    const leg = readLeg({
      contractId: s.contractId,
      outcome: s.outcome,
      side,
      market: 'DRAW_NO_BET',
      boost: side === 'SELL' ? 0 : this.#boost,
    });
    if (!leg.ok) return null;
    const { contractId, outcome, boost } = leg.value;
    return { contractId, outcome, side, qty, unit: this.#unitAsked, boost };
  });
  /** What the app already knows the exchange would refuse, said before anything is sent. */
  readonly refusal = $derived.by((): Refusal | null => {
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
      connected: this.#ctx.connected,
    });
  });
  /**
   * A close: what the quote would pay out and lock in ("about"), and once filled what the
   * exchange paid; never from the position the sale left (slip-close.svelte.ts).
   */
  readonly closeView = $derived.by((): CloseView | null => {
    const q = this.#quote.result?.quote;
    if (this.#side !== 'SELL' || !q) return null;
    return this.#close.view({
      clientOrderId: this.#clientOrderId,
      current: this.position,
      contracts: q.contracts,
      sellPrice: q.entryPrice,
      order: this.placed ? this.#order.row : null,
    });
  });
  readonly closeEstimate: CloseEstimate | null = $derived(this.closeView?.estimate ?? null);
  readonly #placeBlock = $derived.by((): PlaceBlock | null => {
    if (this.#selection === null) return { kind: 'no-pick' };
    const last = this.#order.row;
    // A lost answer comes first: a row main pushed before it went away may still say Sending….
    const lost = this.#order.lost;
    if (lost) return { kind: 'not-known', checking: lost === 'checking' };
    if (this.placed && last) {
      return isFateUnknown(last.status)
        ? { kind: 'checking' }
        : { kind: 'placed', status: last.status };
    }
    if (this.refusal) return { kind: 'refused', refusal: this.refusal };
    if (last && isFateUnknown(last.status)) return { kind: 'checking' };
    if (!this.#quote.result) return { kind: 'no-quote' };
    if (this.#quote.expired) return { kind: 'expired' };
    const wait = this.#order.retryInMs;
    return wait > 0 ? { kind: 'rate-limited', retryInMs: wait } : null;
  });

  /**
   * `now` times the confirmation step to the millisecond (the reactive `clock` may tick only a few
   * times a second); a test passes its manual clock's time.
   */
  constructor(
    bridge: Bridge,
    ctx: SlipContext,
    clock: Clock,
    newId = () => newClientOrderId(),
    now = () => Date.now(),
  ) {
    this.#bridge = bridge;
    this.#ctx = ctx;
    this.#newId = newId;
    this.#confirm = new SlipConfirm(clock, now);
    this.#quote = new SlipQuote(bridge, clock);
    this.#order = new SlipOrder(bridge, clock);
    this.#close = new SlipClose(bridge);
  }

  // ------------------------------------------------------------ what is asked

  // The pick and its side change together with the size, boost and bet (`select`,
  // `closePosition`); each term's setter carries its rule.

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
   * Other terms, another bet: the quote stays as the estimate, the clientOrderId is new. Once
   * the bet was placed it stays, so switching cannot turn one quote into a second bet.
   */
  set kind(value: PlaceKind) {
    if (value === this.#kind) return;
    this.#kind = value;
    this.#confirm.close();
    if (this.#quote.result && !this.placed) this.#clientOrderId = this.#newId();
  }

  readonly fixtureName: string = $derived.by(() => {
    const f = this.fixture;
    return f ? fixtureName(f) : (this.#selection?.contractId ?? '');
  });
  /** Why the size cannot be quoted as it stands, or null when it can. */
  readonly sizeProblem: string | null = $derived(this.#size.problem);
  /** What will be sent when it differs from what was typed (read otherwise, or rounded to lots). */
  readonly sizeNote: string | null = $derived(this.#size.note);
  /** The fixture's lot size and smallest bet, said before a quote ("Lots of 5 contracts; …"). */
  readonly lotsNote: string | null = $derived.by(() => {
    const lots = this.#lots;
    return lots ? lotsText(lots, this.#side) : null;
  });
  /**
   * The refusal shown above the form: once the bet is placed it no longer matters, and while the
   * last bet's fate is unknown the slip says that instead (a refusal would invite a retry).
   */
  readonly refusalMessage: string | null = $derived.by(() => {
    if (this.placed || this.#order.lost !== null) return null;
    return this.refusal?.message ?? null;
  });
  readonly canRequest: boolean = $derived.by(() => {
    return (
      this.terms !== null && !this.#quote.reads.loading && !(this.refusal?.blocksQuote ?? false)
    );
  });

  // ------------------------------------------------------------ the quote

  // The quote, the order and the confirmation step are private parts: only the slip's rules may
  // ask for a quote or send an order, so what a component reads of them is forwarded here.

  get quote(): QuoteResult | null {
    return this.#quote.result;
  }
  get requesting(): boolean {
    return this.#quote.reads.loading;
  }
  get quoteError(): string | null {
    return this.#quote.reads.error;
  }
  /** Milliseconds the quote has left by the exchange's clock; 0 once expired. */
  get remainingMs(): number {
    return this.#quote.remainingMs;
  }
  /** The countdown's whole seconds, never more than a quote's life. */
  get secondsLeft(): number {
    return this.#quote.secondsLeft;
  }
  get expired(): boolean {
    return this.#quote.expired;
  }

  // ------------------------------------------------------------ placing

  /** The bet's id: made when a quote arrives, kept until the terms change (see the header). */
  get clientOrderId(): string | null {
    return this.#clientOrderId;
  }
  get confirming(): boolean {
    return this.#confirm.open;
  }
  get sending(): boolean {
    return this.#order.sending;
  }
  get order(): OrderRow | null {
    return this.#order.row;
  }
  /** The order's status, "Sending…" and "Checking…" included while its fate is not known. */
  readonly status: OrderRowStatus | null = $derived.by(() => {
    const row = this.#order.row;
    const lost = this.#order.lost;
    // Main cannot be asked: no status is known to show (the slip says "Not known yet").
    if (lost === 'unknown') return null;
    if (lost === 'checking') return 'CHECKING';
    if (row && this.placed) return row.status;
    if (this.#order.sending) return 'SENDING';
    return row?.status ?? null;
  });
  /**
   * The last bet's fate is not known: its row says Sending… or Checking…, or its answer was lost
   * and main cannot be asked. No quote countdown, no retry: see `placeProblem`.
   */
  readonly fateUnknown: boolean = $derived.by(() => {
    const row = this.#order.row;
    return this.#order.lost !== null || (row !== null && isFateUnknown(row.status));
  });
  get repeated(): boolean {
    return this.#order.repeated;
  }
  get warning(): string | null {
    return this.#order.warning;
  }
  get failure(): SlipFailure | null {
    return this.#order.failure;
  }
  /** What the user can do about the failure, or null. */
  readonly failureAdvice: string | null = $derived.by(() => {
    const failure = this.#order.failure;
    if (!failure) return null;
    return failureAdvice({
      kind: failure.kind,
      retryInSeconds: Math.ceil(this.#order.retryInMs / 1000),
      orderKnown: this.#order.row !== null,
      lost: this.#order.lost,
    });
  });
  /** Milliseconds until a rate-limited placement may be tried again; 0 when it may. */
  get retryInMs(): number {
    return this.#order.retryInMs;
  }
  /** The current bet already has its order: another needs a new quote. */
  readonly placed: boolean = $derived.by(() => this.#order.isOrderOf(this.#clientOrderId));
  /** Why Place cannot send now, or null when it can. */
  readonly placeProblem: string | null = $derived.by(() => {
    const block = this.#placeBlock;
    return block ? placeProblemText(block) : null;
  });
  /** Place would send (or open the confirmation step) now. */
  readonly canPlace: boolean = $derived.by(
    () => !this.#order.sending && !this.#confirm.open && this.#placeBlock === null,
  );
  /**
   * The confirmation step's button would send now: nothing stands in the way (the quote expired,
   * Betdesk or the exchange away) and the step has been open long enough to have been read.
   */
  readonly canConfirm: boolean = $derived.by(
    () => this.#confirm.armed && !this.#order.sending && this.#placeBlock === null,
  );
  /** Why Confirm cannot send, in words, or null (also while the step is only just open). */
  readonly confirmProblem: string | null = $derived.by(() => {
    if (!this.#confirm.open || this.#order.sending) return null;
    const block = this.#placeBlock;
    return block ? placeProblemText(block) : null;
  });
  /** What the Place button says will happen: "Place bet · 25 contracts · $24.00". */
  readonly placeLabel: string = $derived.by(() => {
    if (this.#order.sending) return 'Place bet · Sending…';
    const q = this.#quote.result?.quote;
    if (!q) return 'Place bet';
    const quoted = this.#quote.terms;
    return placeLabel({
      side: this.#side,
      kind: this.#kind,
      contracts: q.contracts,
      cost: q.cost,
      proceeds: this.closeEstimate?.proceeds,
      dollars: quoted?.unit === 'QUOTE' ? quoted.qty : undefined,
    });
  });
  /** The line under Place: why it is off, or what it will do. */
  readonly placeNote: string = $derived.by(() =>
    placeNote({ block: this.#placeBlock, oneClick: this.#ctx.oneClick, side: this.#side }),
  );
  /** A boosted bet's knockout, said before it is placed. */
  readonly knockoutNote: string | null = $derived.by(() => {
    const k = this.#quote.result?.quote.knockout;
    if (!k || this.#side === 'SELL') return null;
    const about = this.#kind === 'MARKET' ? 'about ' : '';
    return `Boosted: knocked out (the stake lost) if the index price falls to ${about}${k}.`;
  });

  // ------------------------------------------------------------ actions

  /**
   * A BUY on `outcome` of `fixture`, from the markets. Another pick is another bet: its quote,
   * order and boost go (a boost, and so a knockout, is never carried to a bet it was not chosen
   * for); the size stays, unless it was a close's.
   */
  select(fixture: Fixture | (FixtureRef & { contractId: string }), outcome: string): void {
    const before = this.#selection;
    if (this.#side === 'SELL') {
      this.#qty = '';
      this.#unit = 'BASE';
    }
    if (before?.contractId !== fixture.contractId || before.outcome !== outcome) this.#boost = 0;
    this.#selection = {
      contractId: fixture.contractId,
      fixture: fixtureRefOf(fixture),
      outcome,
      lots: 'lotSize' in fixture ? lotsOf(fixture) : null,
    };
    this.#side = 'BUY';
    this.#resetBet();
  }

  /** A SELL of the whole position, editable for a partial close. */
  closePosition(position: PositionRow): void {
    this.#selection = {
      contractId: position.contractId,
      fixture: position.fixture,
      outcome: position.outcome,
      lots: null,
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
    this.#boost = 0;
    this.#resetBet();
  }

  async request(): Promise<void> {
    const terms = this.terms;
    if (!terms || !this.canRequest) return;
    this.#discardQuote();
    // A quote is a new bet: every repeat of Place from here on is this one bet.
    if (await this.#quote.request(terms)) {
      this.#clientOrderId = this.#newId();
      // The last bet's result belongs to it, not to this quote; one whose fate is not known yet
      // stays, since it blocks this bet until it is.
      if (!this.fateUnknown) this.#order.endBet();
    }
  }

  /** The Place button: the confirmation step first, unless one-click betting is on. */
  async place(): Promise<void> {
    // While the confirmation step is open only its own button sends: a double click on Place
    // opens it once and goes no further.
    if (!this.canPlace) return;
    if (this.#ctx.oneClick) {
      await this.#send();
      return;
    }
    this.#confirm.show();
  }

  /**
   * The confirmation step's button. A confirm within CONFIRM_ARM_MS of the step opening is not a
   * deliberate one (a second Ctrl+Enter, a double click carried over) and does nothing.
   */
  async confirm(): Promise<void> {
    if (this.#confirm.deliberate()) await this.#send();
  }

  /** Ctrl/Cmd+Enter: confirms when the confirmation step is open, else presses Place. */
  async placeOrConfirm(): Promise<void> {
    await (this.#confirm.open ? this.confirm() : this.place());
  }

  /** Back from the confirmation step. */
  back(): void {
    this.#confirm.close();
  }

  /** Esc: out of the confirmation step, or else clear the slip. */
  escape(): void {
    if (this.#confirm.open) this.back();
    else this.clear();
  }

  /** Orders changed (an `orders:changed` push): follow this slip's order. */
  applyOrders(rows: readonly OrderRow[]): void {
    this.#order.follow(rows);
    void this.#close.lookUp(this.#order.row);
  }

  /**
   * Follows `orders:changed` (and `history:changed`, for a close's CLOSED row), and asks again
   * about a bet whose answer was lost once Betdesk's service is back; returns the function that
   * stops.
   */
  start(): () => void {
    const stops = [
      this.#bridge.on('orders:changed', (change) => this.applyOrders(change.rows)),
      this.#bridge.on('history:changed', () => void this.#close.lookUp(this.#order.row)),
      this.#bridge.onConnection((connected) => {
        if (connected) void this.#order.recheck();
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  // ------------------------------------------------------------ inside

  async #send(): Promise<void> {
    // One request per bet: a second click, a held key or a retry while this one is in flight
    // does nothing.
    if (this.#order.sending || this.#placeBlock !== null) return;
    const quote = this.#quote.result;
    const terms = this.#quote.terms;
    if (!quote || !terms) return;
    const clientOrderId = this.#clientOrderId ?? (this.#clientOrderId = this.#newId());
    const input: PlaceOrder =
      this.#kind === 'FOK'
        ? { clientOrderId, type: 'FOK', rfqId: quote.quote.rfqId }
        : { clientOrderId, type: 'MARKET', bet: terms };
    this.#confirm.close();
    if (this.#side === 'SELL') this.#close.sending(clientOrderId, this.position);
    await this.#order.send(input);
    void this.#close.lookUp(this.#order.row);
  }

  /** The terms changed: the quote shown no longer prices them, and the bet ends with it. */
  #discardQuote(): void {
    this.#quote.discard();
    this.#clientOrderId = null;
    this.#confirm.close();
    this.#order.dropFailure();
  }

  /** Another bet: nothing of the last one's quote, order or price choice. */
  #resetBet(): void {
    this.#discardQuote();
    this.#order.forget();
    this.#close.forget();
    this.#kind = 'FOK';
  }
}

function lotsOf(f: Lots): Lots {
  return { lotSize: f.lotSize, minContracts: f.minContracts };
}
