/** Governors for tests that need a request to wait for a token. */
import { RateGovernor, type TimeSource } from '../../src/main/governor/index.js';
import { GROUP_LIMITS } from '../../src/shared/api/limits.js';

/**
 * The exchange's limits, except positions: a burst of two, then one token a minute. The third
 * GET /positions waits in the governor (for ever, on a ManualTime that is not moved).
 */
export function positionsStarvedGovernor(time?: TimeSource): RateGovernor {
  return new RateGovernor({
    ...(time ? { time } : {}),
    groupLimits: { ...GROUP_LIMITS, positions: { perMinute: 1, burst: 2 } },
  });
}
