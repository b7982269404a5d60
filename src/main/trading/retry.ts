/**
 * What to do about a failed POST /order, by the error classes of docs/api.md 7:
 *   resend     the exchange refused this attempt, nothing was placed, and the same request may
 *              succeed later: 429/503 -1003 (after Retry-After), -2028 (send the same request
 *              again shortly, 7.3), -5001..-5004 (may work later, 7.5)
 *   resync     -1021 even after the client re-measured the clock and re-signed once (client.ts):
 *              resend at once, the client measures again on the next -1021
 *   lookup     the request may have taken effect: a timeout or broken connection after sending,
 *              -1000 or another 5xx, an answer we cannot read. Ask GET /order?clientOrderId=.
 *   final      a definite refusal (any other code): nothing was placed by this attempt
 *   not-sent   the request never left (connection refused): sending it again is safe
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import type { BackoffOptions } from '../../shared/backoff.js';
import { ExchangeError, NetworkError, ProtocolError } from '../client/index.js';

export type Verdict =
  | { kind: 'resend'; waitMs?: number }
  | { kind: 'resync' }
  | { kind: 'lookup' }
  | { kind: 'final' }
  | { kind: 'not-sent' };

const RESEND_CODES = new Set<number>([
  ErrorCodes.TOO_MANY_REQUESTS,
  ErrorCodes.ORDER_IN_FLIGHT,
  ErrorCodes.CHAIN_READ_FAILED,
  ErrorCodes.BROKER_UNAVAILABLE,
  ErrorCodes.SIGNER_UNAVAILABLE,
  ErrorCodes.CHAIN_CONGESTED,
]);
/** 5xx codes that are a definite refusal, not a failure of the exchange. */
const DEFINITE_5XX = new Set<number>([ErrorCodes.MARKET_CLOSED, ErrorCodes.NOT_SERVABLE]);

export function classifyPlacementError(err: unknown): Verdict {
  if (err instanceof NetworkError)
    return err.outcomeUnknown ? { kind: 'lookup' } : { kind: 'not-sent' };
  if (err instanceof ProtocolError) return { kind: 'lookup' };
  if (err instanceof ExchangeError) {
    if (err.code === ErrorCodes.TIMESTAMP_OUTSIDE_RECV_WINDOW) return { kind: 'resync' };
    if (err.httpStatus === 429 || RESEND_CODES.has(err.code)) {
      return err.retryAfterMs !== undefined
        ? { kind: 'resend', waitMs: err.retryAfterMs }
        : { kind: 'resend' };
    }
    if (err.code === ErrorCodes.INTERNAL) return { kind: 'lookup' };
    if (err.httpStatus >= 500 && !DEFINITE_5XX.has(err.code)) return { kind: 'lookup' };
    return { kind: 'final' };
  }
  // Not from the exchange client (e.g. no credentials): nothing was sent.
  return { kind: 'final' };
}

/** True for a read (quote, order status) worth trying again after a wait. */
export function isTransientReadError(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  if (err instanceof ExchangeError) {
    return (
      err.httpStatus === 429 ||
      err.code === ErrorCodes.INTERNAL ||
      err.code === ErrorCodes.TIMESTAMP_OUTSIDE_RECV_WINDOW ||
      err.errorClass === 'upstream' ||
      err.errorClass === 'rate-limit'
    );
  }
  return false;
}

/** Retry waits of placements, lookups and quotes (shared/backoff.ts); options override them. */
export const PLACEMENT_BACKOFF: BackoffOptions = { initialMs: 200, maxMs: 5000 };
