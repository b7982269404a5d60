/** Where the governor reads the time and sets its wake-up timers; tests pass a manual one. */
export interface TimeSource {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const systemTime: TimeSource = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // A waiting request keeps its caller's promise alive; the timer alone must not keep the process up.
    t.unref();
    return t;
  },
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
