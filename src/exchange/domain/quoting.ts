/**
 * Quoting: reading a request's leg and size into a trade, the state checks every quote and
 * order passes, pricing a trade by exactly the rules an order is placed by (the plan), and the
 * quotes themselves with their rfqIds, which stay recognisable after they lapse. The rules are
 * docs/api.md 2.1 to 2.4 and 4.3.
 */
import { hash } from 'node:crypto';
import { ErrorCodes } from '../../shared/api/errors.js';
import { QUOTE_TTL_MS } from '../../shared/api/limits.js';
import {
  CLIENT_ORDER_ID_PATTERN,
  type Leg,
  type MarketUnit,
  type Quote,
  type RfqRequest,
  type Side,
} from '../../shared/api/schemas.js';
import { readLegs, readSizing } from '../../shared/api/leg.js';
import { dec, price } from '../../shared/money.js';
import { ApiError, badParameter, legRefusal } from './errors.js';
import { fixtureOf, outcomeOf } from './fixtures.js';
import type { FixtureRec, PositionRec, QuoteRec } from './model.js';
import {
  capacity,
  highestKnockout,
  nothingToSell,
  oppositeHeld,
  remainingKnockout,
  takeSlices,
} from './positions.js';
import {
  CAPACITY_PER_OUTCOME,
  closeTerms,
  contractsForBudget,
  moreLotsThan,
  openTerms,
  roundDownToLot,
  roundToNearestLot,
  type CloseTerms,
  type OpenTerms,
} from './pricing.js';
import { randomHex } from './rng.js';
import {
  heldContracts,
  indexPrice,
  positionKey,
  type ExchangeState,
  type WalletState,
} from './state.js';

const clientOrderIdRe = new RegExp(CLIENT_ORDER_ID_PATTERN);

/** A quote's or an order's own clientOrderId, when it sends one: -1102 unless well formed. */
export function checkClientOrderId(clientOrderId: string | undefined): void {
  if (clientOrderId !== undefined && !clientOrderIdRe.test(clientOrderId)) {
    throw badParameter('clientOrderId: letters, digits and _ : . - only, at most 64 characters');
  }
}

/** What a request asks to trade, read and checked (the fixture and outcome exist). */
export interface Trade {
  fixture: FixtureRec;
  outcome: string;
  side: Side;
  boost: number;
  marketUnit: MarketUnit;
  qty: string;
}

/** A trade priced against the book as it is now. */
interface Plan {
  trade: Trade;
  indexPrice: string;
  capacity: number;
  contracts: number;
  open?: OpenTerms;
  close?: CloseTerms;
  /** Knockout of the position the trade would leave. */
  positionKnockout?: string;
}

/** The terms a quote promises and an order is placed on (QuoteRec less its bookkeeping). */
export type TradeTerms = Omit<QuoteRec, 'rfqId' | 'wallet' | 'reqId' | 'expiresAt'>;

/**
 * Reads a request's leg and sizing with the shared leg parser (the same rules, order and words
 * every layer uses), then finds the fixture and the outcome it names.
 */
function readTrade(
  s: ExchangeState,
  legs: readonly Leg[] | undefined,
  qty: string | undefined,
  marketUnit: string | undefined,
): Trade {
  const leg = readLegs(legs);
  if (!leg.ok) throw legRefusal(leg.problem);
  const { side, boost } = leg.value;
  const size = readSizing(side, qty, marketUnit);
  if (!size.ok) throw legRefusal(size.problem);
  const fixture = fixtureOf(s, leg.value.contractId);
  const outcome = outcomeOf(fixture, leg.value.outcome);
  return { fixture, outcome, side, boost, marketUnit: size.value.unit, qty: size.value.qty };
}

/** The state checks every quote and order passes: betting open, what the wallet holds. */
export function checkState(w: WalletState, trade: Trade): PositionRec | undefined {
  const f = trade.fixture;
  if (f.status !== 'OPEN') {
    throw new ApiError(ErrorCodes.MARKET_CLOSED, `betting on ${f.contractId} is closed`);
  }
  const held = w.positions.get(positionKey(f.contractId, trade.outcome));
  if (trade.side === 'SELL') {
    if (held === undefined) throw nothingToSell(f.contractId, trade.outcome);
  } else {
    const refusal = oppositeHeld(w, f, trade.outcome);
    if (refusal !== undefined) throw refusal;
  }
  return held;
}

function overCapacity(qty: string, capacity: number, outcome: string): ApiError {
  return badParameter(
    `qty: ${qty} exceeds the exchange capacity of ${capacity} contracts on ${outcome}`,
  );
}

/** Prices a trade by exactly the rules an order is placed by. */
function plan(s: ExchangeState, w: WalletState, trade: Trade): Plan {
  const held = checkState(w, trade);
  const f = trade.fixture;
  const index = indexPrice(f, trade.outcome);
  const room = capacity(s, f.contractId, trade.outcome);
  if (trade.side === 'SELL') {
    const have = held === undefined ? 0 : heldContracts(held);
    const wanted = roundDownToLot(trade.qty, f.lotSize);
    if (wanted <= 0) {
      throw badParameter(`qty: ${trade.qty} rounds down to 0 contracts (lot size ${f.lotSize})`);
    }
    const contracts = Math.min(wanted, have);
    const slices = takeSlices(held?.lots ?? [], contracts);
    const sell: Plan = {
      trade,
      indexPrice: index,
      capacity: room,
      contracts,
      close: closeTerms(index, slices),
    };
    const remaining = remainingKnockout(held?.lots ?? [], contracts);
    if (remaining !== undefined) sell.positionKnockout = remaining;
    return sell;
  }
  let contracts: number;
  if (trade.marketUnit === 'BASE') {
    if (moreLotsThan(trade.qty, f.lotSize, CAPACITY_PER_OUTCOME)) {
      throw overCapacity(trade.qty, room, trade.outcome);
    }
    contracts = roundToNearestLot(trade.qty, f.lotSize);
  } else {
    contracts = contractsForBudget(index, trade.qty, trade.boost, f.lotSize, room + f.lotSize);
  }
  if (contracts > room) throw overCapacity(trade.qty, room, trade.outcome);
  if (contracts < f.minContracts) {
    throw badParameter(
      trade.marketUnit === 'QUOTE'
        ? `qty: ${trade.qty} USD buys ${contracts} contracts, below minContracts ${f.minContracts}`
        : `qty: ${trade.qty} rounds to ${contracts} contracts, below minContracts ${f.minContracts}`,
    );
  }
  const open = openTerms(index, contracts, trade.boost);
  if (open.knockout !== undefined && dec(open.knockout).gte(index)) {
    throw badParameter(
      `boost: ${trade.boost} puts the knockout (${open.knockout}) at or above the index price ${index}`,
    );
  }
  const buy: Plan = { trade, indexPrice: index, capacity: room, contracts, open };
  const knockout = highestKnockout(held?.lots ?? [], open.knockout);
  if (knockout !== undefined) buy.positionKnockout = price(knockout);
  return buy;
}

function termsOf(p: Plan): TradeTerms {
  const { trade } = p;
  const terms: TradeTerms = {
    contractId: trade.fixture.contractId,
    outcome: trade.outcome,
    side: trade.side,
    boost: trade.boost,
    marketUnit: trade.marketUnit,
    qty: trade.qty,
    contracts: p.contracts,
    entryPrice: p.open?.entryPrice ?? p.close!.price,
    cost: p.open?.cost ?? p.close!.fee,
    maxWin: p.open?.maxWin ?? '0',
  };
  if (p.open?.knockout !== undefined) terms.lotKnockout = p.open.knockout;
  return terms;
}

/** The terms an inline order (legs, qty, marketUnit; no rfqId) is placed on. */
export function priceTrade(
  s: ExchangeState,
  w: WalletState,
  legs: readonly Leg[] | undefined,
  qty: string | undefined,
  marketUnit: string | undefined,
): TradeTerms {
  return termsOf(plan(s, w, readTrade(s, legs, qty, marketUnit)));
}

export function requestQuote(s: ExchangeState, wallet: string, request: RfqRequest): Quote {
  const w = s.walletState(wallet);
  if (request.orderType !== undefined) {
    const t = String(request.orderType).toUpperCase();
    if (t !== 'MARKET' && t !== 'FOK') throw badParameter('orderType: must be MARKET or FOK');
  }
  checkClientOrderId(request.clientOrderId);
  const p = plan(s, w, readTrade(s, request.legs, request.qty, request.marketUnit));
  const terms = termsOf(p);
  const now = s.now();
  pruneQuotes(s, now);
  const expiresAt = now + QUOTE_TTL_MS;
  const rfqId = newRfqId(s, w.rec.address, expiresAt);
  const quote: Quote = {
    rfqId,
    reqId: request.clientOrderId ?? '',
    contracts: terms.contracts,
    isOpen: terms.side === 'BUY',
    entryPrice: terms.entryPrice,
    indexPrice: p.indexPrice,
    minContracts: p.trade.fixture.minContracts,
    expiresAt,
  };
  if (p.open !== undefined) {
    quote.cost = p.open.cost;
    quote.maxWin = p.open.maxWin;
    quote.exitValue = p.open.exitValue;
    quote.exchangeCapacity = p.capacity;
  }
  if (p.positionKnockout !== undefined) quote.knockout = p.positionKnockout;
  // The terms object is this quote's own: it becomes the record rather than being copied.
  const rec = terms as QuoteRec;
  rec.rfqId = rfqId;
  rec.wallet = w.rec.address;
  rec.reqId = quote.reqId;
  rec.expiresAt = expiresAt;
  s.quotes.set(rfqId, rec);
  s.quoteExpiry.items.push(rec);
  return quote;
}

/**
 * Forgets lapsed quotes (their ids still answer -2031), oldest first, stopping at the first live
 * one. Quotes are created in expiry order, so every lapsed one is found without looking further.
 *
 * The oldest quote is found through a queue of its own rather than by iterating `s.quotes` from
 * its start: a Map keeps deleted entries as holes until it is next rebuilt, and an iteration steps
 * over every one of them, so under steady quoting each prune walked the tens of thousands of quotes
 * forgotten since, tens of µs per quote once quotes began to lapse.
 */
function pruneQuotes(s: ExchangeState, now: number): void {
  const queue = s.quoteExpiry;
  while (queue.head < queue.items.length) {
    const q = queue.items[queue.head]!;
    const held = s.quotes.get(q.rfqId) === q;
    // A quote already executed (and removed by the order) is only dropped from the queue.
    if (held && q.expiresAt > now) break;
    if (held) s.quotes.delete(q.rfqId);
    queue.items[queue.head++] = undefined;
  }
  if (queue.head === queue.items.length) {
    queue.items.length = 0;
    queue.head = 0;
  } else if (queue.head > 1024 && queue.head * 2 > queue.items.length) {
    queue.items.splice(0, queue.head);
    queue.head = 0;
  }
}

/** The wallet's live quote with this id; -2031 when it lapsed, -2022 when there is none. */
export function liveQuote(s: ExchangeState, w: WalletState, rfqId: string): QuoteRec {
  const q = s.quotes.get(rfqId);
  if (q !== undefined && q.wallet === w.rec.address && s.now() < q.expiresAt) return q;
  if ((q !== undefined && q.wallet === w.rec.address) || lapsedRfqId(s, rfqId, w.rec.address)) {
    throw new ApiError(ErrorCodes.QUOTE_EXPIRED, `rfqId ${rfqId} expired; request a new quote`);
  }
  throw noLiveQuote(rfqId);
}

/** -2022: the rfqId names no live quote of this wallet. */
export function noLiveQuote(rfqId: string): ApiError {
  return new ApiError(ErrorCodes.NO_SUCH_QUOTE, `rfqId ${rfqId} matches no live quote`);
}

/**
 * rfqId = expiry (12 hex) + random (12 hex) + a MAC (8 hex) over both and the wallet. Lapsed
 * quotes are forgotten at once, yet one of this wallet's rfqIds whose expiry passed is still
 * recognised (-2031 rather than -2022) without keeping it in memory. A live quote is found by
 * its whole id and its wallet, so the 48 random bits keep an rfqId unguessable, and the MAC keeps
 * one unforgeable: without the exchange's master secret no one can make an id that passes as
 * this wallet's (docs/api.md 4.4 rule 3).
 */
function newRfqId(s: ExchangeState, wallet: string, expiresAt: number): string {
  const body = expiresAt.toString(16).padStart(12, '0') + randomHex(6);
  return body + rfqMac(s, body, wallet);
}

function lapsedRfqId(s: ExchangeState, rfqId: string, wallet: string): boolean {
  if (!/^[0-9a-f]{32}$/.test(rfqId)) return false;
  const body = rfqId.slice(0, 24);
  if (rfqMac(s, body, wallet) !== rfqId.slice(24)) return false;
  return Number.parseInt(rfqId.slice(0, 12), 16) <= s.now();
}

/**
 * The first 32 bits of SHA-256(secret | body | wallet), the secret being the master secret in
 * hex. A secret-prefix hash is a sound MAC here: its one weakness, length extension, needs the
 * whole digest, and only 32 of its 256 bits are ever shown. It costs a fifth of an HMAC, whose
 * set-up (createHmac) dominates on a message this short, and it runs once per quote.
 */
function rfqMac(s: ExchangeState, body: string, wallet: string): string {
  return hash('sha256', `${s.masterSecretHex}|${body}|${wallet}`).slice(0, 8);
}
