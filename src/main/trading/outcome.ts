/**
 * What a placement or a wait for the final status comes to, as one typed result. Every outcome
 * that is not a success carries `error` with a code and a sentence:
 *   a number  the exchange's code (docs/api.md 7), e.g. -2030, or -2025 for "not placed"
 *   a string  Betdesk's own, where the exchange gave none: CANCELED, EXPIRED, NETWORK, TIMEOUT
 */
import { ErrorCodes, errorInfo } from '../../shared/api/errors.js';
import { isFinalStatus, type Order, type OrderStatus } from '../../shared/api/schemas.js';
import { ExchangeError, NetworkError, ProtocolError } from '../client/index.js';
import { BetRefusedError, type BetRefusalReason } from './errors.js';

export interface OutcomeError {
  code: number | string;
  message: string;
}

export type OutcomeStatus = OrderStatus | 'NOT_PLACED' | 'UNKNOWN';

export interface OrderOutcome {
  clientOrderId: string;
  /**
   * The order's status on the exchange; NOT_PLACED when the exchange has no order for this
   * clientOrderId (refused, or never reached it); UNKNOWN when that could not be found out yet
   * (the intent stays open and is reconciled later).
   */
  status: OutcomeStatus;
  /** The exchange's order, once known. */
  order?: Order;
  /** Set when the order did not (or not yet) end FILLED. */
  error?: OutcomeError;
  /** A 202 that carried a warning (-5004: sent but not confirmed; the order stands). */
  warning?: OutcomeError;
}

/** True when the status will not change again. */
export function isFinalOutcome(o: OrderOutcome): boolean {
  return o.status === 'NOT_PLACED' || (o.status !== 'UNKNOWN' && isFinalStatus(o.status));
}

/** The code that marks an intent as "the exchange has no order for it" (GET /order: -2025). */
export const NOT_PLACED_CODE = ErrorCodes.UNKNOWN_ORDER;

export interface BetRefusal {
  reason: BetRefusalReason;
  /** A sentence that says what to change. */
  message: string;
}

function contractsText(n: string): string {
  return n === '0' ? 'no contracts' : `${n} contract${n === '1' ? '' : 's'}`;
}

/**
 * A -1102 refusal of a bet's size or boost in words: the smallest bet, the exchange's capacity,
 * a close that rounds to no contracts, a boost whose knockout reaches the index price.
 *
 * docs/api.md 7.1 gives -1102 no more than a `msg` that names the field (`qty: ...`), so which
 * rule was broken, and its numbers, can only be read from the text; this reads the sandbox's
 * wording of each (src/exchange/domain/quoting.ts) and, for any other text, returns undefined so
 * the caller keeps the code's meaning and the exchange's words.
 */
export function betRefusalOf(code: number, msg: string): BetRefusal | undefined {
  if (code !== ErrorCodes.BAD_PARAMETER) return undefined;
  const m = msg.trim();
  let r: RegExpExecArray | null;
  if ((r = /^qty: \S+ (USD buys|rounds to) (\d+) contracts?, below minContracts (\d+)/.exec(m))) {
    const [, how = '', got = '', min = ''] = r;
    const what = how === 'USD buys' ? 'that amount buys' : 'that size comes to';
    return {
      reason: 'below-minimum',
      message: `Too small: ${what} ${contractsText(got)}, and the smallest bet on this market is ${contractsText(min)}. Enter a larger size.`,
    };
  }
  if ((r = /^qty: \S+ exceeds the exchange capacity of (\d+) contracts? on (\S+)/.exec(m))) {
    const [, capacity = '', outcome = ''] = r;
    return {
      reason: 'over-capacity',
      message:
        capacity === '0'
          ? `Too large: the exchange's capacity on ${outcome} is used up for now.`
          : `Too large: the exchange's capacity on ${outcome} is ${contractsText(capacity)} more now. Enter a smaller size.`,
    };
  }
  if ((r = /^qty: \S+ rounds down to 0 contracts \(lot size (\d+)\)/.exec(m))) {
    return {
      reason: 'no-contracts',
      message: `Too small: this market trades in lots of ${contractsText(r[1] ?? '')}, so that size comes to no contracts.`,
    };
  }
  if (
    (r = /^boost: \d+ puts the knockout \(([\d.]+)\) at or above the index price ([\d.]+)/.exec(m))
  ) {
    const [, knockout = '', index = ''] = r;
    return {
      reason: 'knockout-at-index',
      message: `That boost is too high at this price: its knockout (${knockout}) would be at or above the index price (${index}). Choose a smaller boost.`,
    };
  }
  return undefined;
}

export function exchangeErrorOf(code: number, msg: string): OutcomeError {
  const refusal = betRefusalOf(code, msg);
  if (refusal) return { code, message: refusal.message };
  const meaning = errorInfo(code).meaning;
  const said = msg.trim();
  // The exchange often says no more than the code's meaning; then it is said once.
  const same = (a: string) => a.toLowerCase().replace(/[.\s]+$/, '');
  return {
    code,
    message:
      said === '' || same(said) === same(meaning)
        ? meaning
        : `${meaning} The exchange said: "${said}".`,
  };
}

/** The outcome error for what a call threw. */
export function errorOf(err: unknown): OutcomeError {
  if (err instanceof ExchangeError) {
    return {
      code: err.code,
      message: betRefusalOf(err.code, err.serverMsg)?.message ?? err.message,
    };
  }
  if (err instanceof BetRefusedError) return { code: err.code, message: err.message };
  if (err instanceof NetworkError) return { code: 'NETWORK', message: err.message };
  if (err instanceof ProtocolError) return { code: 'PROTOCOL', message: err.message };
  return { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) };
}

/** The outcome of an order the exchange reported, with a sentence for anything but FILLED. */
export function outcomeOfOrder(order: Order): OrderOutcome {
  const out: OrderOutcome = { clientOrderId: order.clientOrderId, status: order.status, order };
  const failed = statusError(order);
  if (failed) out.error = failed;
  return out;
}

function statusError(order: Order): OutcomeError | undefined {
  const e = order.error;
  switch (order.status) {
    case 'FILLED':
      return undefined;
    case 'CANCELED':
      return e && e.code !== ErrorCodes.CHAIN_CONGESTED
        ? exchangeErrorOf(e.code, e.msg)
        : {
            code: 'CANCELED',
            message:
              order.orderType === 'FOK'
                ? 'The order was canceled: the market moved, so the quoted price or size could no longer fill (fill-or-kill). Nothing was bought or sold.'
                : 'The order was canceled before it filled. Nothing was bought or sold.',
          };
    case 'EXPIRED':
      return e && e.code !== ErrorCodes.CHAIN_CONGESTED
        ? exchangeErrorOf(e.code, e.msg)
        : {
            code: 'EXPIRED',
            message: 'The order expired before it was executed. Nothing was bought or sold.',
          };
    case 'REJECTED':
    case 'FAILED':
      return e
        ? exchangeErrorOf(e.code, e.msg)
        : { code: order.status, message: `The order ended ${order.status}.` };
    default:
      // Not final yet: only a warning of the 202 is worth repeating, and it is not an error.
      return undefined;
  }
}
