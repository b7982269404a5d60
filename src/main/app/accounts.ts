/** Accounts as the bridge shows them (ids as strings, never a secret) and their refusals. */
import type { Account } from '../../shared/ipc/contract.js';
import { AccountError, type AccountView } from '../accounts/index.js';
import { ServiceError } from '../ipc/errors.js';
import { IntentConflictError, OrderValidationError, QuoteExpiredError } from '../trading/index.js';

export function bridgeAccount(a: AccountView, activeId: number | null): Account {
  return {
    id: String(a.id),
    label: a.label,
    baseUrl: a.baseUrl,
    apiKeyHint: a.apiKey.slice(-4),
    permission: a.permission,
    active: a.id === activeId,
    createdAt: a.createdAt,
  };
}

/** The store id of a bridge account id; undefined when it cannot be one. */
export function storeId(accountId: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(accountId) ? Number(accountId) : undefined;
}

/** Turns the services' own refusals into ServiceError; anything else is left to toBridgeError. */
export function asServiceError(err: unknown): unknown {
  if (err instanceof AccountError) {
    const kind = {
      invalid: 'invalid-input',
      exists: 'conflict',
      'not-found': 'not-found',
      rejected: 'exchange',
      'no-secret': 'keychain',
    } as const;
    return new ServiceError(kind[err.kind], err.message, err.code);
  }
  if (err instanceof OrderValidationError) return new ServiceError('invalid-input', err.message);
  if (err instanceof QuoteExpiredError) return new ServiceError('exchange', err.message, err.code);
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
