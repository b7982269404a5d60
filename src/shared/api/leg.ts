/**
 * One leg and its sizing, read once for every layer (docs/api.md 2.1 to 2.3). The exchange's
 * domain, its HTTP route, the main process's bet builder and the renderer's slip all call these
 * pure functions, so each rule lives in one place:
 *
 *   const leg = readLegs(body.legs);            // exactly one leg
 *   if (!leg.ok) throw apiError(leg.problem);   // the caller picks the wording
 *   const size = readSizing(leg.value.side, body.qty, body.marketUnit);
 *
 * A refusal is a `LegProblem`: the field at fault (the API's field name), the rule it broke and
 * the value it had. `apiMessage` words it the API's way (`field: rule`), `personMessage` as a
 * sentence saying what to change. Strings are taken as given (callers that read user input trim
 * first); names come back upper case.
 */
import { isDecimalString } from '../money.js';
import { ErrorCodes } from './errors.js';
import type { MarketUnit, Side } from './schemas.js';

export type LegField =
  'legs' | 'contractId' | 'outcome' | 'side' | 'market' | 'boost' | 'marketUnit' | 'qty';

export type LegRule =
  | 'required' // missing or empty
  | 'too-long' // longer than the API takes
  | 'too-many-legs' // two or more legs: the exchange serves one (501, NOT_SERVABLE)
  | 'not-allowed' // not one of the words the field takes
  | 'boost-range' // not a whole number 0 to 100
  | 'not-decimal' // not a plain decimal string
  | 'not-positive' // a decimal, but not above zero
  | 'boost-on-sell' // a close takes no boost
  | 'quote-on-sell'; // a close is sized in contracts

export interface LegProblem {
  readonly field: LegField;
  readonly rule: LegRule;
  /** The value as it was sent. */
  readonly got: unknown;
  /** The API's error code for it: BAD_PARAMETER, or NOT_SERVABLE for two or more legs. */
  readonly code: number;
}

export type Read<T> = { ok: true; value: T } | { ok: false; problem: LegProblem };

/** A leg that meets every rule the leg alone can be checked against. */
export interface LegFields {
  contractId: string;
  outcome: string;
  side: Side;
  market: 'DRAW_NO_BET';
  /** Whole number 0 to 100; 0 when none was sent. */
  boost: number;
}

export interface Sizing {
  /** A positive decimal string: contracts (BASE) or dollars (QUOTE). */
  qty: string;
  unit: MarketUnit;
}

/** The longest strings the API takes (docs/api.md 2.1, 2.2). */
export const LEG_LIMITS = { contractId: 128, outcome: 8, qty: 40 } as const;

const SIDE_WORDS = ['BUY', 'SELL'] as const satisfies readonly Side[];
const UNIT_WORDS = ['BASE', 'QUOTE'] as const satisfies readonly MarketUnit[];
const MARKET_WORDS = ['DRAW_NO_BET'] as const;
const BOOST_TEXT = /^(100|[1-9]?[0-9])(\.0+)?$/;

function refuse<T>(field: LegField, rule: LegRule, got: unknown): Read<T> {
  const code = rule === 'too-many-legs' ? ErrorCodes.NOT_SERVABLE : ErrorCodes.BAD_PARAMETER;
  return { ok: false, problem: { field, rule, got, code } };
}

function word<W extends string>(value: unknown, words: readonly W[]): W | undefined {
  if (typeof value !== 'string') return undefined;
  const upper = value.toUpperCase();
  return words.find((w) => w === upper);
}

function name(field: 'contractId' | 'outcome', value: unknown): Read<string> {
  if (typeof value !== 'string' || value === '') return refuse(field, 'required', value);
  if (value.length > LEG_LIMITS[field]) return refuse(field, 'too-long', value);
  return { ok: true, value: value.toUpperCase() };
}

/** A boost as the API takes it: a whole number 0 to 100, as a number or a decimal string. */
export function readBoost(value: unknown): Read<number> {
  if (value === undefined) return { ok: true, value: 0 };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100) {
    return { ok: true, value };
  }
  if (typeof value === 'string' && BOOST_TEXT.test(value)) {
    return { ok: true, value: Number.parseInt(value, 10) };
  }
  return refuse('boost', 'boost-range', value);
}

/** One leg: names, side, market and boost, checked in the order a person would fix them. */
export function readLeg(leg: unknown): Read<LegFields> {
  if (leg === null || typeof leg !== 'object') return refuse('legs', 'required', leg);
  const l = leg as Record<string, unknown>;
  const contractId = name('contractId', l.contractId);
  if (!contractId.ok) return contractId;
  const outcome = name('outcome', l.outcome);
  if (!outcome.ok) return outcome;
  const market = word(l.market, MARKET_WORDS);
  if (market === undefined) return refuse('market', 'not-allowed', l.market);
  const side = word(l.side, SIDE_WORDS);
  if (side === undefined) return refuse('side', 'not-allowed', l.side);
  const boost = readBoost(l.boost);
  if (!boost.ok) return boost;
  if (side === 'SELL' && boost.value !== 0) return refuse('boost', 'boost-on-sell', l.boost);
  return {
    ok: true,
    value: {
      contractId: contractId.value,
      outcome: outcome.value,
      side,
      market,
      boost: boost.value,
    },
  };
}

/** A request's `legs`: exactly one leg (two or more are not served), then `readLeg`. */
export function readLegs(legs: unknown): Read<LegFields> {
  const list: readonly unknown[] = Array.isArray(legs) ? legs : [];
  if (list.length > 1) return refuse('legs', 'too-many-legs', legs);
  if (list.length === 0) return refuse('legs', 'required', legs);
  return readLeg(list[0]);
}

/** The size of a bet on a side: unit first (a close is in contracts), then a positive qty. */
export function readSizing(side: Side, qty: unknown, unit: unknown): Read<Sizing> {
  if (unit === undefined || unit === '') return refuse('marketUnit', 'required', unit);
  const u = word(unit, UNIT_WORDS);
  if (u === undefined) return refuse('marketUnit', 'not-allowed', unit);
  if (side === 'SELL' && u === 'QUOTE') return refuse('marketUnit', 'quote-on-sell', unit);
  if (qty === undefined || qty === '') return refuse('qty', 'required', qty);
  if (typeof qty !== 'string' || qty.length > LEG_LIMITS.qty || !isDecimalString(qty)) {
    return refuse('qty', 'not-decimal', qty);
  }
  // A decimal string (checked above) is above zero exactly when it has no sign and a non-zero
  // digit: no Decimal is built on the quoting hot path.
  if (qty.startsWith('-') || !/[1-9]/.test(qty)) return refuse('qty', 'not-positive', qty);
  return { ok: true, value: { qty, unit: u } };
}

/** The API's wording: `field: rule`, as the exchange answers in `msg` (docs/api.md 7.1). */
export function apiMessage(p: LegProblem): string {
  const got = JSON.stringify(p.got);
  switch (p.rule) {
    case 'too-many-legs':
      return 'legs: only one leg per request is supported';
    case 'required':
      if (p.field === 'legs') return 'legs: exactly one leg is required';
      if (p.field === 'marketUnit') return 'marketUnit: required (BASE or QUOTE)';
      return `${p.field}: required`;
    case 'too-long':
      return `${p.field}: at most ${LEG_LIMITS[p.field as keyof typeof LEG_LIMITS]} characters`;
    case 'not-allowed':
      if (p.field === 'market') return 'market: only DRAW_NO_BET is accepted';
      if (p.field === 'side') return 'side: must be BUY or SELL';
      return 'marketUnit: must be BASE or QUOTE';
    case 'boost-range':
      return `boost: must be a whole number from 0 to 100, got ${got}`;
    case 'boost-on-sell':
      return 'boost: not accepted when side is SELL';
    case 'quote-on-sell':
      return 'marketUnit: QUOTE is allowed only when opening (BUY); a close is always BASE';
    case 'not-decimal':
    case 'not-positive':
      return `qty: must be a positive decimal string, got ${got}`;
  }
}

/** A value shown inside a sentence: quoted, cut at 40 characters. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

const WHAT: Record<LegField, string> = {
  legs: 'The bet',
  contractId: 'The contract (fixture id)',
  outcome: 'The outcome (team abbreviation)',
  side: 'The side',
  market: 'The market',
  boost: 'The boost',
  marketUnit: 'The unit',
  qty: 'The size',
};

/**
 * A sentence for a person that says what to change. `unit` tells `qty` which size is meant
 * (contracts or dollars), when known.
 */
export function personMessage(p: LegProblem, unit?: MarketUnit): string {
  const size = unit === 'QUOTE' ? 'The amount in dollars' : 'The number of contracts';
  switch (p.rule) {
    case 'too-many-legs':
      return 'A bet has exactly one leg; bets on several outcomes at once are not served.';
    case 'required':
      return p.field === 'qty' ? `${size} (qty) is required.` : `${WHAT[p.field]} is required.`;
    case 'too-long':
      return `${WHAT[p.field]} is too long (at most ${LEG_LIMITS[p.field as keyof typeof LEG_LIMITS]} characters).`;
    case 'not-allowed':
      if (p.field === 'market') return `The market must be DRAW_NO_BET; got ${shown(p.got)}.`;
      if (p.field === 'side') {
        return `Side must be BUY (open or add to a bet) or SELL (close or reduce one); got ${shown(p.got)}.`;
      }
      return `Unit must be BASE (qty counts contracts) or QUOTE (qty is dollars); got ${shown(p.got)}.`;
    case 'boost-range':
      return `Boost must be a whole number from 0 to 100; got ${shown(p.got)}.`;
    case 'boost-on-sell':
      return 'A boost can only be chosen when opening a bet (BUY); a close (SELL) takes no boost.';
    case 'quote-on-sell':
      return 'A close (SELL) is sized in contracts: use unit BASE. Dollars (QUOTE) can only open a bet (BUY).';
    case 'not-decimal':
      return `${size} (qty) must be a plain decimal number such as 10 or 12.50; got ${shown(p.got)}.`;
    case 'not-positive':
      return `${size} (qty) must be more than zero; got ${String(p.got)}.`;
  }
}
