/**
 * Where the sync engine reads the time and sets its timers (the governor's TimeSource shape).
 * Unlike the governor's, these timers keep the process alive: a running sync is work, and the
 * CLI's `sync` command must not exit while it runs. stop() clears them all.
 */
import type { TimeSource } from '../governor/time.js';

export type { TimeSource };

export const liveTime: TimeSource = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
