/**
 * Request signing, docs/api.md section 5. The string signed is fixed by the shared module;
 * the HMAC is node:crypto's. The caller passes the exact payload it is about to send.
 */
import { createHmac } from 'node:crypto';
import {
  HEADER_API_KEY,
  HEADER_RECV_WINDOW,
  HEADER_SIGNATURE,
  HEADER_TIMESTAMP,
  signaturePayload,
} from '../../shared/api/signing.js';

export interface Credentials {
  apiKey: string;
  secret: string;
}

/** Credentials, or where to get them for each request (e.g. from the OS keychain). */
export type CredentialsSource = Credentials | (() => Credentials | Promise<Credentials>);

/** The last timestamp signed with each key in this process. */
const lastTimestamp = new Map<string, number>();

/** Beyond this, a timestamp behind the last one means the clock was corrected, not a burst. */
const MAX_STEP_AHEAD_MS = 1000;

/**
 * A timestamp for `apiKey` later than the last one this process signed with it. The exchange
 * accepts each signature once, and two identical requests signed in the same millisecond
 * would carry the same signature; stepping a millisecond keeps every signature new. When the
 * clock estimate was moved back by more than a second, its new value is used as it is.
 */
export function uniqueTimestamp(apiKey: string, now: number): number {
  const last = lastTimestamp.get(apiKey) ?? 0;
  const ts = now > last || last - now >= MAX_STEP_AHEAD_MS ? now : last + 1;
  lastTimestamp.set(apiKey, ts);
  return ts;
}

export function signHeaders(args: {
  credentials: Credentials;
  timestamp: number;
  recvWindow: number;
  method: string;
  path: string;
  payload: string;
}): Record<string, string> {
  const timestamp = String(args.timestamp);
  const recvWindow = String(args.recvWindow);
  const signed = signaturePayload({
    timestamp,
    apiKey: args.credentials.apiKey,
    recvWindow,
    method: args.method,
    path: args.path,
    payload: args.payload,
  });
  const signature = createHmac('sha256', args.credentials.secret)
    .update(signed, 'utf8')
    .digest('hex');
  return {
    [HEADER_API_KEY]: args.credentials.apiKey,
    [HEADER_TIMESTAMP]: timestamp,
    [HEADER_RECV_WINDOW]: recvWindow,
    [HEADER_SIGNATURE]: signature,
  };
}
