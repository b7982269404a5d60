/**
 * The start's progress (docs/data.md, "Start"): what main is doing before the desk can show,
 * kept here from the first moment so that the window's start screen, the host's stderr and the
 * CLI can say it. The store's opening (data/store-file.ts) reports its phases here; the
 * composition root says 'ready' once the bridge's services are up.
 */
import type { StartPhase, StartProgress } from '../../shared/ipc/contract.js';

/** One phase's news: its words and, when known, how far it is. */
export interface StartStep {
  phase: StartPhase;
  message: string;
  done?: number | null;
  total?: number | null;
  unit?: string;
}

/** Who reports a start's phases (the store's opening); absent, nothing is said. */
export type StartReport = (step: StartStep) => void;

export type StartListener = (progress: StartProgress) => void;

export class StartTracker {
  readonly #now: () => number;
  readonly #listeners = new Set<StartListener>();
  #progress: StartProgress;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    const at = now();
    this.#progress = {
      phase: 'opening',
      message: 'Opening your store…',
      done: null,
      total: null,
      unit: '',
      startedAt: at,
      phaseStartedAt: at,
    };
  }

  /** Where the start is now (a copy). */
  current(): StartProgress {
    return { ...this.#progress };
  }

  get ready(): boolean {
    return this.#progress.phase === 'ready';
  }

  /** Reports a step: a new phase restarts `phaseStartedAt`, the same phase keeps it. */
  readonly report: StartReport = (step) => {
    const prev = this.#progress;
    // A start that is over stays over: a late report of a background task changes nothing.
    if (prev.phase === 'ready' || prev.phase === 'failed') return;
    this.#progress = {
      phase: step.phase,
      message: step.message,
      done: step.done ?? null,
      total: step.total ?? null,
      unit: step.unit ?? '',
      startedAt: prev.startedAt,
      phaseStartedAt: step.phase === prev.phase ? prev.phaseStartedAt : this.#now(),
    };
    const copy = this.current();
    for (const listener of [...this.#listeners]) listener(copy);
  };

  subscribe(listener: StartListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
