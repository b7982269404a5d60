/**
 * The one table from what a handler throws to what the bridge says, `{kind, message, code?}`:
 * main's refusals (refusalOf), the keychain, a full disk or an I/O error (writeFaultOf), the
 * exchange's codes, an exchange that cannot be reached (the client's own list of codes), and
 * anything else as an internal fault.
 * The message is shown to the user: a sentence, never a secret, never a stack trace.
 */
import { errorInfo } from '../../shared/api/errors.js';
import type { BridgeError, BridgeErrorKind } from '../../shared/ipc/contract.js';
import { AccountError } from '../accounts/errors.js';
import { ExchangeError, NetworkError, ProtocolError } from '../client/errors.js';
import { isOfflineCode } from '../client/network.js';
import { UnknownTimeZoneError } from '../history/zoned-time.js';
import { KeychainUnavailableError, KeychainError } from '../keychain/keychain.js';
import { Refusal, sentence } from '../refusal.js';
import { IntentConflictError, writeFaultMessage, writeFaultOf } from '../store/errors.js';
// Each error from the module that defines it, not the features' index: the bridge loads with
// the start's first answers, before the exchange client (electron.vite.config.ts).
import { BetRefusedError, OrderValidationError, QuoteExpiredError } from '../trading/errors.js';

const ACCOUNT_KINDS = {
  invalid: 'invalid-input',
  exists: 'conflict',
  'not-found': 'not-found',
  rejected: 'exchange',
  'no-secret': 'keychain',
  unchecked: 'unchecked',
} as const satisfies Record<AccountError['kind'], BridgeErrorKind>;

/**
 * The table: each error of main's domains that says no to the user, as the refusal the bridge
 * passes on; undefined for anything else (a fault, or an error the rest of toBridgeError reads).
 */
export function refusalOf(err: unknown): Refusal | undefined {
  if (err instanceof Refusal) return err;
  if (err instanceof AccountError)
    return new Refusal(ACCOUNT_KINDS[err.kind], err.message, err.code);
  if (err instanceof OrderValidationError) return new Refusal('invalid-input', err.message);
  if (err instanceof QuoteExpiredError) return new Refusal('exchange', err.message, err.code);
  if (err instanceof BetRefusedError) return new Refusal('exchange', err.message, err.code);
  if (err instanceof IntentConflictError) return new Refusal('conflict', err.message);
  if (err instanceof UnknownTimeZoneError) return new Refusal('invalid-input', err.message);
  return undefined;
}

/** No answer: the client's NetworkError, or a system or undici error code, here or as a cause. */
function isOffline(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  if (err instanceof NetworkError) return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && isOfflineCode(code)) return true;
  return isOffline(err.cause, depth + 1);
}

/** An error the exchange answered with: `{code, msg}` carried by the client's error class. */
function exchangeCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) && code < 0 ? code : undefined;
}

export function toBridgeError(err: unknown): BridgeError {
  const refusal = refusalOf(err);
  if (refusal) {
    return withRetry(
      withCode({ kind: refusal.kind, message: sentence(refusal.message) }, refusal.code),
      refusal.retryAfterMs,
    );
  }
  if (err instanceof KeychainUnavailableError || err instanceof KeychainError) {
    return { kind: 'keychain', message: sentence(err.message) };
  }
  const fault = writeFaultOf(err);
  if (fault !== undefined) return { kind: fault, message: writeFaultMessage(err) };
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
