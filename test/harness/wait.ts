/**
 * Waiting in tests: for a condition, never for a guessed while. A fixed sleep assumes an order
 * has filled or a timer has fired; under load it is too short (a flaky failure) and otherwise
 * too long (a slow suite). `until` polls the condition itself and fails with what it waited for.
 */

/** Resolves when `check` holds, polling every `everyMs`; rejects after `timeoutMs`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  everyMs = 20,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(everyMs);
  }
}

/**
 * A pause of `ms`. Only for pacing (a poll loop, a load generator), never as a stand-in for
 * "by now it has happened": wait for that with `until`.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
