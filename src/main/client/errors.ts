/**
 * What a call to the exchange can fail with, as three distinct types the caller branches on:
 *
 *   ExchangeError  the exchange answered with an error body `{code, msg}` (docs/api.md 7)
 *   NetworkError   no usable answer arrived; `outcomeUnknown` says whether the request may have
 *                  reached the exchange (and so, for POST /order, whether an order may stand)
 *   ProtocolError  an answer arrived but is not what the API promises (bad JSON, wrong shape)
 *
 * Messages are sentences for people; none carries a secret, a signature or a request header.
 */
import { errorInfo, type ErrorClass } from '../../shared/api/errors.js';

/** The base of every error the exchange client throws. */
export abstract class ExchangeClientError extends Error {
  /** "METHOD /path" of the call that failed. */
  abstract readonly route: string;
}

export class ExchangeError extends ExchangeClientError {
  override readonly name = 'ExchangeError';
  /** The stable error code of docs/api.md 7 (e.g. -2031). */
  readonly code: number;
  /** The code's name in src/shared/api/errors.ts (e.g. QUOTE_EXPIRED), or UNKNOWN. */
  readonly codeName: string;
  readonly httpStatus: number;
  readonly errorClass: ErrorClass;
  /** From Retry-After, when the exchange sent it. */
  readonly retryAfterMs: number | undefined;
  /** The exchange's own message, verbatim. */
  readonly serverMsg: string;
  readonly route: string;

  constructor(args: {
    code: number;
    serverMsg: string;
    httpStatus: number;
    route: string;
    retryAfterMs?: number;
  }) {
    const info = errorInfo(args.code);
    super(describe(info.meaning, args.serverMsg, args.retryAfterMs));
    this.code = args.code;
    this.codeName = info.name;
    this.httpStatus = args.httpStatus;
    this.errorClass = info.errorClass;
    this.retryAfterMs = args.retryAfterMs;
    this.serverMsg = args.serverMsg;
    this.route = args.route;
  }

  /** True when sending the same request again later may succeed. */
  get retryable(): boolean {
    return this.errorClass === 'rate-limit' || this.errorClass === 'upstream';
  }
}

function describe(meaning: string, serverMsg: string, retryAfterMs: number | undefined): string {
  const wait =
    retryAfterMs === undefined
      ? ''
      : ` Try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`;
  const said = serverMsg.trim() === '' ? '' : ` The exchange said: "${serverMsg.trim()}".`;
  return `${meaning}${said}${wait}`;
}

export type NetworkFailure = 'connect' | 'timeout' | 'reset' | 'aborted' | 'other';

export class NetworkError extends ExchangeClientError {
  override readonly name = 'NetworkError';
  /** True when the request may have reached the exchange: its effect (an order) is unknown. */
  readonly outcomeUnknown: boolean;
  readonly kind: NetworkFailure;
  readonly route: string;

  constructor(args: {
    route: string;
    kind: NetworkFailure;
    outcomeUnknown: boolean;
    cause?: unknown;
  }) {
    super(networkMessage(args.route, args.kind, args.outcomeUnknown), { cause: args.cause });
    this.kind = args.kind;
    this.outcomeUnknown = args.outcomeUnknown;
    this.route = args.route;
  }
}

/** GET and HEAD only read: whatever became of one, nothing changed at the exchange. */
function isReadRoute(route: string): boolean {
  return /^(GET|HEAD) /.test(route);
}

function networkMessage(route: string, kind: NetworkFailure, outcomeUnknown: boolean): string {
  const what = {
    connect: 'The exchange could not be reached.',
    timeout: 'The exchange did not answer in time.',
    reset: 'The connection to the exchange broke before its answer arrived.',
    aborted: 'The request to the exchange was cancelled.',
    other: 'The request to the exchange failed.',
  }[kind];
  if (!outcomeUnknown) return `${what} Nothing was sent to the exchange.`;
  // Only a write can have an effect whose fate is unknown; a read changes nothing either way.
  return isReadRoute(route)
    ? `${what} It was only a read: nothing was changed at the exchange.`
    : `${what} The request may have reached the exchange, so whether it took effect is unknown.`;
}

/** What a ProtocolError is made from: the route, and what came back instead of the API. */
interface ProtocolFailure {
  route: string;
  httpStatus: number;
  detail: string;
  contentType?: string | undefined;
  notExchange?: boolean;
}

export class ProtocolError extends ExchangeClientError {
  override readonly name = 'ProtocolError';
  /** HTTP status of the answer that did not follow the API. */
  readonly httpStatus: number;
  readonly route: string;
  /** What was wrong, for logs (never the body itself, which may be large or a web page). */
  readonly detail: string;
  /** The answer's Content-Type, as sent (undefined: none). */
  readonly contentType: string | undefined;
  /**
   * True when the answer was not JSON, or an error without the exchange's `{code, msg}`: the
   * server at the address is not an exchange's API (a web page, a proxy's error page, another
   * service).
   */
  readonly notExchange: boolean;

  constructor(args: ProtocolFailure) {
    super(protocolMessage(args));
    this.httpStatus = args.httpStatus;
    this.route = args.route;
    this.detail = args.detail;
    this.contentType = args.contentType;
    this.notExchange = args.notExchange ?? false;
  }
}

/**
 * Never quotes the body: a server that is not the exchange answers with a web page, and its
 * HTML means nothing to the user. The status and the content type say what it was.
 */
function protocolMessage(args: ProtocolFailure): string {
  const type = mediaType(args.contentType);
  if (args.notExchange) {
    const what = type === undefined ? 'no content type' : type;
    return `The server at this address is not an exchange: it answered ${args.route} with HTTP ${args.httpStatus} and ${what}, which is not how an exchange answers. Check the address.`;
  }
  return `The exchange sent an answer this app does not understand (HTTP ${args.httpStatus}): ${args.detail}.`;
}

/** "text/html" of "text/html; charset=utf-8"; undefined when absent or not a media type. */
function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type !== undefined && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)
    ? type
    : undefined;
}

/** The warning a 202 can carry (-5004): the order stands, its fate is read later. */
export interface OrderWarning {
  code: number;
  msg: string;
  /** A sentence for people. */
  message: string;
}

export function orderWarning(code: number, msg: string): OrderWarning {
  return { code, msg, message: describe(errorInfo(code).meaning, msg, undefined) };
}
