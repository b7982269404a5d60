/**
 * The request-signing rules of docs/api.md section 5, shared by the exchange (which checks)
 * and the client (which signs). The HMAC itself is computed with node:crypto on each side; this
 * module only fixes what is signed, so both sides build the same bytes.
 */

export const API_VERSION = 0;
export const RECV_WINDOW_MIN = 100;
export const RECV_WINDOW_MAX = 60_000;
export const RECV_WINDOW_DEFAULT = 5000;

export const HEADER_API_KEY = 'x-api-key';
export const HEADER_TIMESTAMP = 'x-timestamp';
export const HEADER_RECV_WINDOW = 'x-recv-window';
export const HEADER_SIGNATURE = 'x-signature';
export const HEADER_API_VERSION = 'x-api-version';

export interface SignedParts {
  timestamp: string;
  apiKey: string;
  recvWindow: string;
  method: string;
  /** Path without the query string. */
  path: string;
  /** The raw body when there is one, otherwise the raw query string without "?". */
  payload: string;
}

/** timestamp + apiKey + recvWindow + METHOD + path + payload, with no separators. */
export function signaturePayload(p: SignedParts): string {
  return `${p.timestamp}${p.apiKey}${p.recvWindow}${p.method.toUpperCase()}${p.path}${p.payload}`;
}

/**
 * Builds a query string once, in the given order, so the bytes signed are the bytes sent.
 * Undefined values are left out.
 */
export function buildQuery(
  params: Readonly<Record<string, string | number | boolean | undefined>>,
): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.join('&');
}
