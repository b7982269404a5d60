/**
 * The one freshness rule (docs/guardians.md, "Fresh figures only"; docs/desk.md, Positions): a
 * figure read `staleAfterMs` ago or less (twice its polling interval) is fresh; older, or read
 * at an unknown time, it is stale. The Positions screen's words, the knockout alerts and the
 * guardians all judge by it, so the screen never says "stale" of a figure they act on.
 */

/** Figures older than this many polling intervals are stale. */
export const STALE_AFTER_POLLS = 2;

export function isFreshRead(
  readAt: number | null,
  staleAfterMs: number | null,
  now: number,
): boolean {
  return readAt !== null && staleAfterMs !== null && now - readAt <= staleAfterMs;
}
