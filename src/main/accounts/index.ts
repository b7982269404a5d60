/**
 * The accounts service's public surface.
 *
 *   const accounts = new AccountsService({ store, keychain: new Keychain() });
 *   const a = await accounts.add({ label, baseUrl, apiKey, secret });  // secret -> keychain only
 *   const client = new ExchangeClient({ baseUrl: a.baseUrl, credentials: accounts.credentials(a.id) });
 */
export {
  AccountsService,
  keychainName,
  normalizeBaseUrl,
  type AccountView,
  type AccountsServiceOptions,
  type AddedAccount,
  type NewAccountInput,
  type SecretStore,
} from './service.js';
export { AccountError, type AccountErrorKind } from './errors.js';
export { exchangeProbe, type KeyCheck, type KeyProbe } from './probe.js';
export { credentialsFromEnv, ENV_API_KEY, ENV_API_SECRET } from './env.js';
export { KeychainError, KeychainUnavailableError } from '../keychain/keychain.js';
