/**
 * The error codes of docs/api.md section 7, with the HTTP status the sandbox answers with,
 * the class a client acts on, and a sentence a person understands.
 */

/** What a client should do about an error. */
export type ErrorClass =
  | 'fix-before-resend' // -1xxx: the request is wrong; sending it again changes nothing
  | 'rate-limit' //        -1003: wait Retry-After, then resend
  | 'state-conflict' //    -2xxx: the exchange's state refuses it
  | 'signing' //           -4xxx: the key can no longer sign; a new key is needed
  | 'upstream' //          -5xxx: may succeed later
  | 'internal'; //         -1000: the exchange failed; the outcome of a write is unknown

export interface ErrorInfo {
  readonly code: number;
  readonly name: string;
  /** HTTP status of the answer (the one docs/api.md 7 gives, else the sandbox's choice). */
  readonly status: number;
  readonly errorClass: ErrorClass;
  /** What it means for the user, as a sentence. */
  readonly meaning: string;
}

const table = [
  [-1000, 'INTERNAL', 500, 'internal', 'The exchange had an internal error.'],
  [
    -1003,
    'TOO_MANY_REQUESTS',
    429,
    'rate-limit',
    'Too many requests; slow down and retry after the wait the exchange gives.',
  ],
  [
    -1021,
    'TIMESTAMP_OUTSIDE_RECV_WINDOW',
    400,
    'fix-before-resend',
    "The request's timestamp is outside the receive window; the clock needs re-synchronising.",
  ],
  [
    -1022,
    'INVALID_AUTH',
    401,
    'fix-before-resend',
    'The API key, signature or authentication headers were refused.',
  ],
  [-1023, 'INVALID_SESSION', 401, 'fix-before-resend', 'The session is missing or invalid.'],
  [-1099, 'UNKNOWN_API_VERSION', 400, 'fix-before-resend', 'The API version asked for is unknown.'],
  [-1102, 'BAD_PARAMETER', 400, 'fix-before-resend', 'A field is missing or malformed.'],
  [
    -1121,
    'UNKNOWN_CONTRACT',
    400,
    'fix-before-resend',
    'There is no fixture with that contract id.',
  ],
  [-2019, 'MARKET_CLOSED', 503, 'state-conflict', 'Betting on this market is closed.'],
  [-2022, 'NO_SUCH_QUOTE', 400, 'state-conflict', 'The quote is not live; request a new one.'],
  [-2023, 'BROKER_REFUSED', 409, 'state-conflict', 'The broker refused to sign the order.'],
  [-2024, 'REVERTED', 409, 'state-conflict', 'The transaction reverted on chain.'],
  [-2025, 'UNKNOWN_ORDER', 404, 'state-conflict', 'No order matches that id.'],
  [
    -2026,
    'NOT_SERVABLE',
    501,
    'state-conflict',
    'The request is understood but cannot be served yet.',
  ],
  [
    -2027,
    'QUOTE_USED',
    409,
    'state-conflict',
    'The quote has already been used by an order; request a new one.',
  ],
  [
    -2028,
    'ORDER_IN_FLIGHT',
    409,
    'state-conflict',
    'This order is already being placed; retry the same request shortly.',
  ],
  [-2029, 'NOTHING_TO_SELL', 409, 'state-conflict', 'Nothing is held on that outcome to sell.'],
  [
    -2030,
    'OPPOSITE_HELD',
    409,
    'state-conflict',
    'The opposite outcome is held; close it before betting this one.',
  ],
  [
    -2031,
    'QUOTE_EXPIRED',
    410,
    'state-conflict',
    'The quote expired before it was used; request a new one.',
  ],
  [
    -4002,
    'GRANT_REVOKED',
    403,
    'signing',
    'The key can no longer sign for the wallet; create a new API key.',
  ],
  [
    -5001,
    'CHAIN_READ_FAILED',
    503,
    'upstream',
    'Chain state or position history could not be read; try again shortly.',
  ],
  [
    -5002,
    'BROKER_UNAVAILABLE',
    503,
    'upstream',
    'The broker service was unavailable; try again shortly.',
  ],
  [-5003, 'SIGNER_UNAVAILABLE', 503, 'upstream', 'The signer was unavailable; try again shortly.'],
  [
    -5004,
    'CHAIN_CONGESTED',
    503,
    'upstream',
    'The chain was congested and the transaction could not be placed.',
  ],
] as const satisfies readonly (readonly [number, string, number, ErrorClass, string])[];

export type ErrorCode = (typeof table)[number][0];

export const ERRORS: ReadonlyMap<number, ErrorInfo> = new Map(
  table.map(([code, name, status, errorClass, meaning]) => [
    code,
    { code, name, status, errorClass, meaning },
  ]),
);

export function errorInfo(code: number): ErrorInfo {
  return (
    ERRORS.get(code) ?? {
      code,
      name: 'UNKNOWN',
      status: 500,
      errorClass: code <= -5000 ? 'upstream' : 'internal',
      meaning: `The exchange answered with an unknown error code ${code}.`,
    }
  );
}

/** Named codes, so code reads `ErrorCodes.QUOTE_EXPIRED` rather than -2031. */
export const ErrorCodes = Object.fromEntries(table.map(([code, name]) => [name, code])) as {
  readonly [K in (typeof table)[number] as K[1]]: K[0];
};
