/**
 * Exchange accounts: the registry (rows in the store, secrets in the keychain), how a new key's
 * permission is found out, and credentials from the environment.
 *
 *   const accounts = new AccountRegistry({ store, keychain: new Keychain() });
 *   const a = await accounts.add({ label, baseUrl, apiKey, secret });  // secret -> keychain only
 *   const client = new ExchangeClient({ baseUrl: a.baseUrl, credentials: accounts.credentials(a.id) });
 */
export {
  AccountRegistry,
  keychainName,
  normalizeBaseUrl,
  type AccountRegistryOptions,
  type AccountView,
  type AddedAccount,
  type NewAccountInput,
  type SecretStore,
} from './registry.js';
export { storeId } from './ids.js';
export { AccountError, type AccountErrorKind } from './errors.js';
export { exchangeProbe, type KeyCheck, type KeyProbe } from './probe.js';
export { credentialsFromEnv, ENV_API_KEY, ENV_API_SECRET } from './env.js';
export { KeychainError, KeychainUnavailableError } from '../keychain/keychain.js';
