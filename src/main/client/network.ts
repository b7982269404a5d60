/**
 * Turns what undici throws into a NetworkError, deciding whether the request may have reached
 * the exchange. Only failures that happen before a byte is written (no route to the host, refused
 * connection, connect timeout, a closed client) are "nothing sent"; everything else, including
 * errors this module does not know, counts as an unknown outcome, because for POST /order the
 * safe assumption is that the order may stand.
 */
import { NetworkError, type NetworkFailure } from './errors.js';

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_INVALID_ARG',
]);

/**
 * The TLS handshake failed (https:// to a plain-http port, a certificate not trusted): it comes
 * before any byte of the request, so nothing was sent.
 */
const TLS_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** A failed TLS handshake, by its code (OpenSSL's ERR_SSL_* or a certificate's). */
export function isTlsFailure(code: string | undefined): boolean {
  return code !== undefined && (code.startsWith('ERR_SSL_') || TLS_CODES.has(code));
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const RESET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_DESTROYED']);

/** The system, undici or OpenSSL code of a failure, looking into an AggregateError. */
export function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Happy-eyeballs connects fail with an AggregateError of one error per address.
  const inner = (err as { errors?: unknown }).errors;
  if (Array.isArray(inner)) return codeOf(inner[0]);
  return undefined;
}

export function networkError(route: string, err: unknown, signal?: AbortSignal): NetworkError {
  if (err instanceof NetworkError) return err;
  const code = codeOf(err);
  let kind: NetworkFailure;
  let outcomeUnknown = true;
  if (signal?.aborted || code === 'UND_ERR_ABORTED' || (err as Error)?.name === 'AbortError') {
    kind = 'aborted';
  } else if (code !== undefined && NOT_SENT_CODES.has(code)) {
    kind = code === 'UND_ERR_CLOSED' || code === 'UND_ERR_INVALID_ARG' ? 'other' : 'connect';
    outcomeUnknown = false;
  } else if (isTlsFailure(code)) {
    kind = 'connect';
    outcomeUnknown = false;
  } else if (code !== undefined && TIMEOUT_CODES.has(code)) {
    kind = 'timeout';
  } else if (code !== undefined && RESET_CODES.has(code)) {
    kind = 'reset';
  } else {
    kind = 'other';
  }
  return new NetworkError({ route, kind, outcomeUnknown, cause: err });
}
