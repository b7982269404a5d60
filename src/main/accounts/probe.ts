/**
 * What an API key may do, found out from the exchange without changing anything.
 *
 * - read: a signed GET /orders?limit=1. Refused with -1022: the key or secret is wrong, and the
 *   account is not added. Unreachable: the permission stays unknown.
 * - trade: the API has no introspection, so a POST /order that cannot place anything is sent:
 *   `{"orderType":"FOK"}`, with no rfqId, legs or qty, so there is no bet in it. A trade key
 *   passes authentication and is refused for the missing field (-1102); a read key is refused
 *   by authentication (-1022, HTTP 403); a trade key whose wallet grant was removed gets -4002.
 *   It spends one token of the orders bucket and 2 units of the price-feed budget.
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import { ExchangeClient, ExchangeError, NetworkError } from '../client/index.js';
import type { ExchangeClientOptions } from '../client/index.js';
import type { Permission } from '../store/index.js';
import { AccountError, withoutSecret } from './errors.js';

export interface KeyCheck {
  /** null: could not be found out. */
  permission: Permission | null;
  /** Something the user should know about the key, as a sentence. */
  notice?: string;
}

export type KeyProbe = (
  baseUrl: string,
  credentials: { apiKey: string; secret: string },
) => Promise<KeyCheck>;

export function exchangeProbe(clientOptions: Partial<ExchangeClientOptions> = {}): KeyProbe {
  return async (baseUrl, credentials) => {
    const client = new ExchangeClient({
      timeouts: { headersMs: 5000, bodyMs: 5000 },
      clockSync: { samples: 2 },
      ...clientOptions,
      baseUrl,
      credentials,
    });
    const clean = (m: string) => withoutSecret(m, credentials.secret);
    try {
      try {
        await client.orders({ limit: 1 });
      } catch (err) {
        if (err instanceof ExchangeError && err.code === ErrorCodes.INVALID_AUTH) {
          throw new AccountError(
            'rejected',
            clean(`The exchange refused this API key and secret; check both. ${err.message}`),
            err.code,
          );
        }
        const why =
          err instanceof NetworkError
            ? 'the exchange could not be reached'
            : clean(err instanceof Error ? err.message : String(err));
        return {
          permission: null,
          notice: `The key was not checked (${why}); its permission is unknown.`,
        };
      }
      try {
        await client.placeOrder({ orderType: 'FOK' });
        // Not possible by the API: a FOK needs a quote. Whatever it was, it was not refused.
        return { permission: 'trade' };
      } catch (err) {
        if (err instanceof ExchangeError) {
          if (err.code === ErrorCodes.BAD_PARAMETER) return { permission: 'trade' };
          if (err.code === ErrorCodes.INVALID_AUTH) return { permission: 'read' };
          if (err.code === ErrorCodes.GRANT_REVOKED) {
            return {
              permission: 'trade',
              notice: `The key has trade permission, but the wallet's signing grant was removed: orders will fail with ${ErrorCodes.GRANT_REVOKED} until a new API key is created.`,
            };
          }
        }
        return {
          permission: 'read',
          notice: 'The key can read; whether it may trade could not be found out.',
        };
      }
    } finally {
      await client.close();
    }
  };
}
