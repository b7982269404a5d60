/**
 * What a placement or a wait for the final status comes to, as one typed result. Every outcome
 * that is not a success carries `error` with a code and a sentence:
 *   a number  the exchange's code (docs/api.md 7), e.g. -2030, or -2025 for "not placed"
 *   a string  Betdesk's own, where the exchange gave none: CANCELED, EXPIRED, NETWORK, TIMEOUT
 */
import { ErrorCodes, errorInfo } from '../../shared/api/errors.js';
import { isFinalStatus, type Order, type OrderStatus } from '../../shared/api/schemas.js';
import { ExchangeError, NetworkError, ProtocolError } from '../client/index.js';

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

export function exchangeErrorOf(code: number, msg: string): OutcomeError {
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
  if (err instanceof ExchangeError) return { code: err.code, message: err.message };
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
