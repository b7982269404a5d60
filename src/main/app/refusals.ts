/** The services' own refusals, as the bridge reports them (ServiceError). */
import { AccountError } from '../accounts/index.js';
import { ServiceError } from '../ipc/errors.js';
import {
  BetRefusedError,
  IntentConflictError,
  OrderValidationError,
  QuoteExpiredError,
} from '../trading/index.js';

/** Turns the services' own refusals into ServiceError; anything else is left to toBridgeError. */
export function asServiceError(err: unknown): unknown {
  if (err instanceof AccountError) {
    const kind = {
      invalid: 'invalid-input',
      exists: 'conflict',
      'not-found': 'not-found',
      rejected: 'exchange',
      'no-secret': 'keychain',
      unchecked: 'unchecked',
    } as const;
    return new ServiceError(kind[err.kind], err.message, err.code);
  }
  if (err instanceof OrderValidationError) return new ServiceError('invalid-input', err.message);
  if (err instanceof QuoteExpiredError) return new ServiceError('exchange', err.message, err.code);
  if (err instanceof BetRefusedError) return new ServiceError('exchange', err.message, err.code);
  if (err instanceof IntentConflictError) return new ServiceError('conflict', err.message);
  return err;
}

/** Runs `fn`, rethrowing the services' refusals as ServiceError. */
export async function refusing<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw asServiceError(err);
  }
}
