export {
  RateGovernor,
  GovernorClosedError,
  type AcquireOptions,
  type GovernorOptions,
  type GovernorSnapshot,
  type ObservedResponse,
  type PriceFeedSnapshot,
  type WalletGroup,
} from './governor.js';
export type { BucketSnapshot } from './bucket.js';
export { Priority, routePriority } from './priority.js';
export { systemTime, type TimeSource } from './time.js';
export {
  parseRetryAfterMs,
  parseRateLimitLimit,
  parseRateLimitRemaining,
  type HeaderMap,
} from './headers.js';
