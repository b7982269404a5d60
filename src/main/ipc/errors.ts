/**
 * Maps whatever a service throws to the bridge's error shape `{kind, message, code?}`. The
 * message is shown to the user: a sentence, never a secret, never a stack trace.
 */
import { errorInfo } from '../../shared/api/errors.js';
import type { BridgeError, BridgeErrorKind } from '../../shared/ipc/contract.js';
import { ExchangeError, NetworkError, ProtocolError } from '../client/errors.js';
import { KeychainUnavailableError, KeychainError } from '../keychain/keychain.js';
import { diskFullMessage, isDiskFull } from '../store/errors.js';

/** A refusal a service means to show to the user as it is. */
export class ServiceError extends Error {
  readonly kind: BridgeErrorKind;
  readonly code: number | undefined;
  /** rate-limited: how long until it may be tried again, ms. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: BridgeErrorKind, message: string, code?: number, retryAfterMs?: number) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Input that did not match the contract's schema. */
export class InvalidInputError extends ServiceError {
  constructor(message: string) {
    super('invalid-input', message);
    this.name = 'InvalidInputError';
  }
}

/** Makes `text` read as a sentence: capital first letter, closing full stop. */
export function sentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  if (t === '') return 'Something went wrong.';
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

const OFFLINE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** No answer: the client's NetworkError, or a system or undici error code, here or as a cause. */
function isOffline(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  if (err instanceof NetworkError) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && OFFLINE_CODES.has(code)) return true;
  return isOffline(err.cause, depth + 1);
}

/** An error the exchange answered with: `{code, msg}` carried by the client's error class. */
function exchangeCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) && code < 0 ? code : undefined;
}

export function toBridgeError(err: unknown): BridgeError {
  if (err instanceof ServiceError) {
    return withRetry(
      withCode({ kind: err.kind, message: sentence(err.message) }, err.code),
      err.retryAfterMs,
    );
  }
  if (err instanceof KeychainUnavailableError || err instanceof KeychainError) {
    return { kind: 'keychain', message: sentence(err.message) };
  }
  if (isDiskFull(err)) return { kind: 'disk-full', message: diskFullMessage(err) };
  const code = exchangeCode(err);
  if (code !== undefined) {
    const info = errorInfo(code);
    const kind: BridgeErrorKind = info.errorClass === 'rate-limit' ? 'rate-limited' : 'exchange';
    return withRetry(
      { kind, code, message: exchangeMessage(info.meaning, err) },
      kind === 'rate-limited' ? retryAfterOf(err) : undefined,
    );
  }
  if (err instanceof ProtocolError) {
    return { kind: 'exchange', message: sentence(err.message) };
  }
  if (isOffline(err)) {
    // The exchange client's NetworkError already says what happened, in words.
    return {
      kind: 'offline',
      message:
        err instanceof NetworkError
          ? sentence(err.message)
          : 'The exchange cannot be reached; check the connection and that it is running.',
    };
  }
  return {
    kind: 'internal',
    message: 'Betdesk hit an unexpected error; the details are in its log.',
  };
}

/**
 * The exchange client's ExchangeError already leads with the code's meaning; a bare
 * `{code, msg}` (the sandbox's own refusal, called in process) carries the exchange's words only.
 */
function exchangeMessage(meaning: string, err: unknown): string {
  if (err instanceof ExchangeError) return sentence(err.message);
  const said = err instanceof Error ? err.message.trim() : '';
  if (said === '') return sentence(meaning);
  return `${sentence(meaning)} The exchange said: "${said}".`;
}

function withCode(error: BridgeError, code: number | undefined): BridgeError {
  return code === undefined ? error : { ...error, code };
}

function withRetry(error: BridgeError, retryAfterMs: number | undefined): BridgeError {
  return retryAfterMs === undefined ? error : { ...error, retryAfterMs: Math.ceil(retryAfterMs) };
}

/** The Retry-After the exchange client read off a refusal, ms. */
function retryAfterOf(err: unknown): number | undefined {
  const ms = (err as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** Removes every occurrence of the given secrets from a message, however it got there. */
export function redact(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}
