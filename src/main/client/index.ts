export {
  ExchangeClient,
  type CallOptions,
  type ExchangeClientOptions,
  type OrderLookup,
  type PlacedOrder,
} from './client.js';
export {
  ExchangeClientError,
  ExchangeError,
  NetworkError,
  ProtocolError,
  type NetworkFailure,
  type OrderWarning,
} from './errors.js';
export { codeOf, isTlsFailure } from './network.js';
export type { Credentials, CredentialsSource } from './signer.js';
export { estimateOffset, type TimeSample } from './clock.js';
