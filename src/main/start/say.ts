/**
 * The start's long phases said as lines (docs/data.md, "Start"): the browser host's and the
 * CLI's stderr. A step (a phase, or an upgrade's step) is said once it has lasted `afterMs`
 * (1 s), one line each, never one per page of a backup:
 * `betdesk serve: upgrading your store: step 2 of 3 (realized P&L), 4 s` (seconds since the
 * start began). A quick start says nothing; a slow one ends with "ready" and its time.
 */
import type { StartProgress } from '../../shared/ipc/contract.js';
import type { StartTracker } from './tracker.js';

/** How long a step runs before it is said. */
export const SAY_AFTER_MS = 1000;

export interface SayOptions {
  /** One line, without its newline. */
  write: (line: string) => void;
  /** What each line starts with: "betdesk serve: ". */
  prefix?: string;
  afterMs?: number;
  now?: () => number;
}

/** Says `tracker`'s long steps through `write`; returns the function that stops. */
export function sayStart(
  tracker: Pick<StartTracker, 'subscribe' | 'current'>,
  options: SayOptions,
): () => void {
  const { write, prefix = '', afterMs = SAY_AFTER_MS, now = Date.now } = options;
  let key = '';
  let latest: StartProgress = tracker.current();
  let timer: NodeJS.Timeout | undefined;
  let said = false;

  const sayLatest = () => {
    timer = undefined;
    said = true;
    write(`${prefix}${lineOf(latest)}, ${seconds(now() - latest.startedAt)}`);
  };
  const follow = (progress: StartProgress) => {
    latest = progress;
    if (progress.phase === 'ready' || progress.phase === 'failed') {
      clearTimeout(timer);
      timer = undefined;
      // A failure is said by whoever started (its sentence); a slow start says it is over.
      if (progress.phase === 'ready' && said) {
        write(`${prefix}ready, ${seconds(now() - progress.startedAt)}`);
      }
      return;
    }
    const next = `${progress.phase}|${progress.message}`;
    if (next === key) return;
    key = next;
    clearTimeout(timer);
    timer = undefined;
    // 0 says every step at once (BETDESK_START_SAY_AFTER_MS=0, for the tests).
    if (afterMs <= 0) return sayLatest();
    timer = setTimeout(sayLatest, afterMs);
    timer.unref();
  };
  follow(latest);
  const stop = tracker.subscribe(follow);
  return () => {
    stop();
    clearTimeout(timer);
  };
}

/** "Upgrading your store: step 2 of 3 (realized P&L)" as a line: lower case, no ellipsis. */
function lineOf(progress: StartProgress): string {
  const words = progress.message.replace(/…$/, '');
  const line = words.charAt(0).toLowerCase() + words.slice(1);
  if (progress.unit !== 'pages' || !progress.total) return line;
  return `${line}: ${Math.floor(((progress.done ?? 0) * 100) / progress.total)}% of ${progress.total} pages`;
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 1000))} s`;
}
