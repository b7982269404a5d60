/**
 * Local validation of a bet before anything is sent, and the exact request bodies built from it.
 * The rules are the API's (docs/api.md 2.1 to 2.3, 4.4), checked by the one leg parser the
 * exchange and the renderer use too (shared/api/leg.ts); the messages say what to change.
 */
import {
  personMessage,
  readLeg,
  readSizing,
  shown,
  type LegProblem,
} from '../../shared/api/leg.js';
import {
  CLIENT_ORDER_ID_PATTERN,
  type MarketUnit,
  type OrderRequest,
  type OrderType,
  type RfqRequest,
  type Side,
} from '../../shared/api/schemas.js';
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

export function parseOrderType(value: unknown): OrderType {
  if (value === undefined) return 'MARKET';
  const v = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (v === 'MARKET' || v === 'FOK') return v;
  throw new OrderValidationError(
    'type',
    `Order type must be MARKET (fill at the current price) or FOK (the quoted terms or nothing); got ${shown(value)}.`,
  );
}

/**
 * Checks every rule a bet must meet before it is quoted or placed: the shared leg and sizing
 * rules (shared/api/leg.ts), read from a caller's input (trimmed; qty may be a number, an
 * empty boost is none). A refusal names the BetInput field at fault.
 */
export function validateBet(input: BetInput): Bet {
  const leg = readLeg({
    contractId: trimmed(input.contractId),
    outcome: trimmed(input.outcome),
    side: trimmed(input.side),
    market: 'DRAW_NO_BET',
    boost: input.boost === null || input.boost === '' ? undefined : trimmed(input.boost),
  });
  if (!leg.ok) throw refusal(leg.problem);
  const unit = trimmed(input.unit);
  const qty = typeof input.qty === 'number' ? String(input.qty) : trimmed(input.qty);
  const size = readSizing(leg.value.side, qty, unit);
  if (!size.ok) {
    throw refusal(
      size.problem,
      typeof unit === 'string' && /^quote$/i.test(unit) ? 'QUOTE' : 'BASE',
    );
  }
  const { contractId, outcome, side, boost } = leg.value;
  return { contractId, outcome, side, qty: size.value.qty, unit: size.value.unit, boost };
}

function trimmed(value: unknown): unknown {
  return typeof value === 'string' ? value.trim() : value;
}

/** A leg problem as the trading service says it: the BetInput field and a sentence. */
function refusal(p: LegProblem, unit?: MarketUnit): OrderValidationError {
  return new OrderValidationError(
    p.field === 'marketUnit' ? 'unit' : p.field,
    personMessage(p, unit),
  );
}

/** Checks a caller-supplied clientOrderId against the API's rule (docs/api.md 2.2). */
export function validateClientOrderId(value: unknown): string {
  if (typeof value !== 'string' || !clientOrderIdRe.test(value)) {
    throw new OrderValidationError(
      'clientOrderId',
      'A clientOrderId may hold only letters, digits and _ : . - and at most 64 characters' +
        (typeof value === 'string' ? ` (got ${shown(value)}, ${value.length} characters).` : '.'),
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
    // Sent as a decimal string (docs/api.md 2.1 allows it); omitted when there is none.
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
