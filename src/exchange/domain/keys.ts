/**
 * Wallets and API keys (docs/api.md 2.9; made through the control API of docs/sandbox.md):
 * creating them, looking a key up for the HTTP layer's signature check, and revoking a wallet's
 * signing grant. A key's secret is never stored: it is derived from the key and the exchange's
 * master secret whenever it is needed.
 */
import { createHmac } from 'node:crypto';
import { ErrorCodes } from '../../shared/api/errors.js';
import type { ApiKeyRecord, NewKey } from './contract.js';
import { ApiError, badParameter } from './errors.js';
import type { StoredKey, WalletRec } from './model.js';
import { randomHex } from './rng.js';
import { newWallet, type ExchangeState } from './state.js';

export function createWallet(s: ExchangeState): string {
  const address = `0x${randomHex(20)}`;
  const rec: WalletRec = { address, createdAt: s.now() };
  s.wallets.set(address, newWallet(rec));
  s.store?.put('wallet', address, rec);
  s.persist();
  return address;
}

export function createKey(s: ExchangeState, input: NewKey): ApiKeyRecord {
  const wallet = typeof input.wallet === 'string' ? input.wallet.toLowerCase() : '';
  if (!s.wallets.has(wallet)) throw badParameter(`wallet: unknown wallet ${String(input.wallet)}`);
  if (input.permission !== 'read' && input.permission !== 'trade') {
    throw badParameter('permission: must be "read" or "trade"');
  }
  if (
    input.expiresAt !== undefined &&
    (!Number.isInteger(input.expiresAt) || input.expiresAt < 0)
  ) {
    throw badParameter('expiresAt: must be milliseconds since epoch');
  }
  if (input.permission === 'trade' && input.expiresAt === undefined) {
    throw badParameter('expiresAt: required for a key with trade permission');
  }
  if (input.ipRestrictions !== undefined) {
    if (
      !Array.isArray(input.ipRestrictions) ||
      input.ipRestrictions.some((ip) => typeof ip !== 'string' || ip === '')
    ) {
      throw badParameter('ipRestrictions: must be a list of addresses or CIDR blocks');
    }
  }
  const apiKey = randomHex(20);
  const stored: StoredKey = {
    apiKey,
    wallet,
    permission: input.permission,
    grantActive: true,
    createdAt: s.now(),
  };
  if (input.expiresAt !== undefined) stored.expiresAt = input.expiresAt;
  if (input.ipRestrictions !== undefined) stored.ipRestrictions = [...input.ipRestrictions];
  const rec: ApiKeyRecord = { ...stored, secret: deriveSecret(s, apiKey) };
  s.keys.set(apiKey, rec);
  s.store?.put('key', apiKey, stored);
  s.persist();
  return { ...rec };
}

export function revokeGrant(s: ExchangeState, apiKey: string): void {
  const rec = s.keys.get(apiKey);
  if (rec === undefined) {
    throw new ApiError(ErrorCodes.BAD_PARAMETER, `apiKey: unknown key ${apiKey}`, { status: 404 });
  }
  rec.grantActive = false;
  const { secret: _secret, ...stored } = rec;
  s.store?.put('key', apiKey, stored);
  s.persist();
}

/** The key's secret: an HMAC of the key under the master secret. */
export function deriveSecret(s: ExchangeState, apiKey: string): string {
  return createHmac('sha256', s.masterSecret).update(apiKey).digest('hex');
}
