/**
 * Whether an exchange answers at an address, and what an API key may do there, found out
 * without changing anything.
 *
 * - reachable: GET /time. No answer, or an answer that is not an exchange's: `unreachable` says
 *   what failed in words (nothing listening, no such host, https to a plain-http port, a web
 *   server that is not an exchange), and the permission stays unknown.
 * - read: a signed GET /orders (its newest page). Refused with -1022: the key or secret is wrong,
 *   and the account is not added. The orders it answers tell a key of a wallet already added
 *   (store/repos/wallets.ts).
 * - trade: the API has no introspection, so a POST /order that cannot place anything is sent:
 *   `{"orderType":"FOK"}`, with no rfqId, legs or qty, so there is no bet in it. A trade key
 *   passes authentication and is refused for the missing field (-1102); a read key is refused
 *   by authentication (-1022, HTTP 403); a trade key whose wallet grant was removed gets -4002.
 *   It spends one token of the orders bucket and 2 units of the price-feed budget.
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import {
  codeOf,
  ExchangeClient,
  ExchangeError,
  isTlsFailure,
  NetworkError,
  ProtocolError,
} from '../client/index.js';
import type { ExchangeClientOptions } from '../client/index.js';
import { WALLET_PROBE_ORDERS, type Permission } from '../store/index.js';
import { AccountError, withoutSecret } from './errors.js';

export interface KeyCheck {
  /** null: could not be found out. */
  permission: Permission | null;
  /** Something the user should know about the key, as a sentence. */
  notice?: string;
  /** Why the exchange could not be checked at all, as a sentence; absent when it was. */
  unreachable?: string;
  /** The wallet's newest orders, newest first, as far as the key could read them. */
  newestOrders?: { orderId: string; clientOrderId: string }[];
}

export type KeyProbe = (
  baseUrl: string,
  credentials: { apiKey: string; secret: string },
) => Promise<KeyCheck>;

const TIMEOUT_MS = 5000;

export function exchangeProbe(clientOptions: Partial<ExchangeClientOptions> = {}): KeyProbe {
  return async (baseUrl, credentials) => {
    const client = new ExchangeClient({
      timeouts: { headersMs: TIMEOUT_MS, bodyMs: TIMEOUT_MS },
      clockSync: { samples: 2 },
      ...clientOptions,
      baseUrl,
      credentials,
    });
    const clean = (m: string) => withoutSecret(m, credentials.secret);
    let newestOrders: KeyCheck['newestOrders'];
    try {
      try {
        await client.time();
        const page = await client.orders({ limit: WALLET_PROBE_ORDERS });
        newestOrders = page.orders.map(({ orderId, clientOrderId }) => ({
          orderId,
          clientOrderId,
        }));
      } catch (err) {
        if (err instanceof ExchangeError && err.code === ErrorCodes.INVALID_AUTH) {
          throw new AccountError(
            'rejected',
            clean(
              `The exchange answered, but refused this API key and secret: check both (the key's id and its whole secret). ${err.message}`,
            ),
            err.code,
          );
        }
        return { permission: null, unreachable: clean(unreachableWords(baseUrl, err)) };
      }
      return { ...(await tradeCheck(client)), newestOrders };
    } finally {
      await client.close();
    }
  };
}

/** Whether the key may trade, without placing anything (see above). */
async function tradeCheck(client: ExchangeClient): Promise<KeyCheck> {
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
}

/** What stopped the check, as a sentence a person can act on. */
function unreachableWords(baseUrl: string, err: unknown): string {
  const url = new URL(baseUrl);
  const hostPort = url.port === '' ? url.hostname : `${url.hostname}:${url.port}`;
  if (err instanceof ProtocolError) return err.message;
  if (err instanceof ExchangeError) {
    return `The exchange at this address refused the check. ${err.message}`;
  }
  if (err instanceof NetworkError) {
    const code = codeOf(err.cause);
    if (code === 'ECONNREFUSED') {
      return `Nothing answers at ${hostPort}: the connection was refused. Check the port, and that the exchange is running.`;
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return `The host name ${url.hostname} was not found. Check the address.`;
    }
    if (isTlsFailure(code)) {
      return code?.startsWith('ERR_SSL_')
        ? `A secure (https) connection to ${hostPort} could not be made: the server there may speak plain http. Check whether the address should start with http://.`
        : `The certificate of ${url.hostname} was not accepted (${code}), so no secure connection was made.`;
    }
    if (err.kind === 'timeout') {
      return `The server at ${hostPort} did not answer within ${TIMEOUT_MS / 1000} s.`;
    }
    return `The exchange at ${hostPort} could not be reached: ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}
