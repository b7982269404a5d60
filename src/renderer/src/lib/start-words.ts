/**
 * The start in words (docs/data.md, "Start"): what the start screen says of a StartProgress,
 * how far it is, and when it covers the desk.
 */
import type { StartPhase, StartProgress } from '../../../shared/ipc/contract.js';

/** Phases that do something to the store: the desk is covered while they run. */
const WORKING: ReadonlySet<StartPhase> = new Set([
  'moving',
  'backing-up',
  'upgrading',
  'rebuilding',
]);

/** A plain start covers the desk once it has taken this long with no desk to show. */
export const COVER_AFTER_MS = 1000;

/**
 * True when the start screen covers the desk: something is being done to the store, the start
 * failed, or a plain start has taken over a second and the desk has nothing to show yet.
 */
export function coversDesk(
  progress: StartProgress | null,
  now: number,
  deskShown: boolean,
): boolean {
  if (progress === null || progress.phase === 'ready') return false;
  if (progress.phase === 'failed' || WORKING.has(progress.phase)) return true;
  return !deskShown && now - progress.startedAt >= COVER_AFTER_MS;
}

/** How far the phase is, 0 to 1; null when not known (the bar then moves without a value). */
export function startFraction(progress: StartProgress): number | null {
  const { done, total } = progress;
  if (done === null || total === null || total <= 0) return null;
  return Math.min(1, done / total);
}

/** "Upgrading your store: step 2 of 3 (realized P&L)… 12 s": what is happening and for how long. */
export function startWords(progress: StartProgress, now: number): string {
  const words = progress.message.replace(/…$/, '');
  const secs = Math.max(0, Math.floor((now - progress.phaseStartedAt) / 1000));
  const pages =
    progress.unit === 'pages' && progress.total !== null && progress.total > 0
      ? `: ${Math.floor(((progress.done ?? 0) * 100) / progress.total)}% (${count(progress.done ?? 0)} of ${count(progress.total)} pages)`
      : '';
  return `${words}${pages}… ${secs} s`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
