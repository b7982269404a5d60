/**
 * Turns what undici throws into a NetworkError, deciding whether the request may have reached
 * the exchange. Only failures that happen before a byte is written (no route to the host, refused
 * connection, connect timeout, a closed client) are "nothing sent"; everything else, including
 * errors this module does not know, counts as an unknown outcome, because for POST /order the
 * safe assumption is that the order may stand.
 */
import { NetworkError, type NetworkFailure } from './errors.js';

/**
 * The codes of an exchange that cannot be reached or stopped answering, by how the request
 * failed: before a byte was written ('connect': nothing sent), waiting for the answer
 * ('timeout') or with the connection dropped ('reset'). The one list: the client's NetworkError
 * kinds come from it, and the bridge calls each of them "offline" (src/main/ipc/errors.ts).
 */
const OFFLINE_CODES: ReadonlyMap<string, 'connect' | 'timeout' | 'reset'> = new Map([
  ['ECONNREFUSED', 'connect'],
  ['ENOTFOUND', 'connect'],
  ['EAI_AGAIN', 'connect'],
  ['EHOSTUNREACH', 'connect'],
  ['ENETUNREACH', 'connect'],
  ['EADDRNOTAVAIL', 'connect'],
  ['UND_ERR_CONNECT_TIMEOUT', 'connect'],
  ['ETIMEDOUT', 'timeout'],
  ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
  ['UND_ERR_BODY_TIMEOUT', 'timeout'],
  ['UND_ERR_SOCKET', 'reset'],
  ['ECONNRESET', 'reset'],
  ['EPIPE', 'reset'],
  ['UND_ERR_DESTROYED', 'reset'],
]);

/** A code of an exchange that cannot be reached or stopped answering. */
export function isOfflineCode(code: string): boolean {
  return OFFLINE_CODES.has(code);
}

/** The client itself refused before sending: closed, or a request it cannot make. */
const NOT_SENT_CODES = new Set(['UND_ERR_CLOSED', 'UND_ERR_INVALID_ARG']);

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
  const offline = code === undefined ? undefined : OFFLINE_CODES.get(code);
  let kind: NetworkFailure;
  let outcomeUnknown = true;
  if (signal?.aborted || code === 'UND_ERR_ABORTED' || (err as Error)?.name === 'AbortError') {
    kind = 'aborted';
  } else if (code !== undefined && NOT_SENT_CODES.has(code)) {
    kind = 'other';
    outcomeUnknown = false;
  } else if (offline === 'connect' || isTlsFailure(code)) {
    kind = 'connect';
    outcomeUnknown = false;
  } else if (offline !== undefined) {
    kind = offline;
  } else {
    kind = 'other';
  }
  return new NetworkError({ route, kind, outcomeUnknown, cause: err });
}
