/**
 * Local validation of a bet before anything is sent, and the exact request bodies built from it.
 * The rules are the API's (exchange-api.md 2.1 to 2.3, 4.4); the messages say what to change.
 */
import {
  CLIENT_ORDER_ID_PATTERN,
  type MarketUnit,
  type OrderRequest,
  type OrderType,
  type RfqRequest,
  type Side,
} from '../../shared/api/schemas.js';
import { dec, isDecimalString } from '../../shared/money.js';
import { OrderValidationError } from './errors.js';

/** A bet as a caller describes it; strings in any letter case are accepted. */
export interface BetInput {
  contractId: string;
  outcome: string;
  /** BUY or SELL, any letter case. */
  side: string;
  /** Contracts (unit BASE) or dollars (unit QUOTE), a positive decimal string. */
  qty: string;
  /** BASE or QUOTE, any letter case. */
  unit: string;
  /** Whole number 0 to 100; BUY only. */
  boost?: number | string | undefined;
}

/** A bet after validation: upper-case names, boost a whole number (0 when none). */
export interface Bet {
  contractId: string;
  outcome: string;
  side: Side;
  qty: string;
  unit: MarketUnit;
  boost: number;
}

const clientOrderIdRe = new RegExp(CLIENT_ORDER_ID_PATTERN);
const MAX_QTY_CHARS = 40;

function text(field: string, value: unknown, what: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new OrderValidationError(field, `${what} is required.`);
  }
  const v = value.trim();
  if (v.length > max) {
    throw new OrderValidationError(field, `${what} is too long (at most ${max} characters).`);
  }
  return v.toUpperCase();
}

export function parseSide(value: unknown): Side {
  const v = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (v === 'BUY' || v === 'SELL') return v;
  throw new OrderValidationError(
    'side',
    `Side must be BUY (open or add to a bet) or SELL (close or reduce one); got ${show(value)}.`,
  );
}

export function parseUnit(value: unknown): MarketUnit {
  const v = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (v === 'BASE' || v === 'QUOTE') return v;
  throw new OrderValidationError(
    'unit',
    `Unit must be BASE (qty counts contracts) or QUOTE (qty is dollars); got ${show(value)}.`,
  );
}

export function parseOrderType(value: unknown): OrderType {
  if (value === undefined) return 'MARKET';
  const v = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (v === 'MARKET' || v === 'FOK') return v;
  throw new OrderValidationError(
    'type',
    `Order type must be MARKET (fill at the current price) or FOK (the quoted terms or nothing); got ${show(value)}.`,
  );
}

export function parseQty(value: unknown, unit: MarketUnit): string {
  const what = unit === 'QUOTE' ? 'The amount in dollars' : 'The number of contracts';
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new OrderValidationError('qty', `${what} (qty) is required.`);
  }
  const v = String(value).trim();
  if (v.length > MAX_QTY_CHARS || !isDecimalString(v)) {
    throw new OrderValidationError(
      'qty',
      `${what} (qty) must be a plain decimal number such as 10 or 12.50; got ${show(value)}.`,
    );
  }
  if (!dec(v).gt(0)) {
    throw new OrderValidationError('qty', `${what} (qty) must be more than zero; got ${v}.`);
  }
  return v;
}

export function parseBoost(value: unknown): number {
  if (value === undefined || value === null || value === '') return 0;
  const raw =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const v = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(v) || v < 0 || v > 100) {
    throw new OrderValidationError(
      'boost',
      `Boost must be a whole number from 0 to 100; got ${show(value)}.`,
    );
  }
  return v;
}

/** Checks every rule a bet must meet before it is quoted or placed. */
export function validateBet(input: BetInput): Bet {
  const contractId = text('contractId', input.contractId, 'The contract (fixture id)', 128);
  const outcome = text('outcome', input.outcome, 'The outcome (team abbreviation)', 8);
  const side = parseSide(input.side);
  const unit = parseUnit(input.unit);
  const qty = parseQty(input.qty, unit);
  const boost = parseBoost(input.boost);
  if (side === 'SELL' && unit === 'QUOTE') {
    throw new OrderValidationError(
      'unit',
      'A close (SELL) is sized in contracts: use unit BASE. Dollars (QUOTE) can only open a bet (BUY).',
    );
  }
  if (side === 'SELL' && boost !== 0) {
    throw new OrderValidationError(
      'boost',
      'A boost can only be chosen when opening a bet (BUY); a close (SELL) takes no boost.',
    );
  }
  return { contractId, outcome, side, qty, unit, boost };
}

/** Checks a caller-supplied clientOrderId against the API's rule (section 2.2). */
export function validateClientOrderId(value: unknown): string {
  if (typeof value !== 'string' || !clientOrderIdRe.test(value)) {
    throw new OrderValidationError(
      'clientOrderId',
      'A clientOrderId may hold only letters, digits and _ : . - and at most 64 characters' +
        (typeof value === 'string' ? ` (got ${show(value)}, ${value.length} characters).` : '.'),
    );
  }
  return value;
}

function leg(bet: Bet): RfqRequest['legs'][number] {
  return {
    contractId: bet.contractId,
    outcome: bet.outcome,
    side: bet.side,
    market: 'DRAW_NO_BET',
    // Sent as a decimal string, as the spec's examples do; omitted when there is none.
    ...(bet.boost > 0 ? { boost: String(bet.boost) } : {}),
  };
}

export function rfqRequest(bet: Bet, orderType?: OrderType): RfqRequest {
  return {
    legs: [leg(bet)],
    qty: bet.qty,
    marketUnit: bet.unit,
    ...(orderType !== undefined ? { orderType } : {}),
  };
}

/** The inline MARKET body (no quote). */
export function inlineOrderRequest(bet: Bet, clientOrderId: string): OrderRequest {
  return {
    orderType: 'MARKET',
    legs: [leg(bet)],
    qty: bet.qty,
    marketUnit: bet.unit,
    clientOrderId,
  };
}

/** A body that executes a quote: the quote carries the bet, so only its id goes. */
export function quotedOrderRequest(
  orderType: OrderType,
  rfqId: string,
  clientOrderId: string,
): OrderRequest {
  return { orderType, rfqId, clientOrderId };
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}
