/**
 * Keeping the history whole: "Resync history" (after a confirm that says nothing is deleted)
 * and the progress of a sweep, pages fetched of estimated, whether the user asked for it or it
 * is the account's first sync. Main pushes `history:progress`; `history:status` tells a screen
 * opened mid-sweep where it stands.
 */
import type { HistorySyncProgress } from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';
import { syncSentence } from '../history-words.js';
import { Listeners } from '../listeners.js';

export class HistorySyncState {
  // Set through `apply` once a sweep is seen: a sweep that ends tells the end listeners.
  #progress = $state.raw<HistorySyncProgress | null>(null);
  /** The confirm step is showing. */
  confirming = $state(false);
  /** history:resync is on its way. */
  asking = $state(false);
  /** Why the last resync could not start, in main's words. */
  error = $state<string | null>(null);
  readonly #ended = new Listeners();
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** The sweep running now, or the last one seen (until dismissed). */
  get progress(): HistorySyncProgress | null {
    return this.#progress;
  }
  readonly running: boolean = $derived(this.#progress?.state === 'running');
  readonly words: string | null = $derived(this.#progress ? syncSentence(this.#progress) : null);
  /** Pages fetched of estimated, 0 to 1, for the progress bar; null before the estimate. */
  readonly fraction: number | null = $derived.by(() => {
    const p = this.#progress;
    if (!p || p.estimatedPages === 0) return null;
    return Math.min(1, p.pages / p.estimatedPages);
  });

  /** Shows the confirm step. */
  askResync(): void {
    this.error = null;
    this.confirming = true;
  }

  cancelResync(): void {
    this.confirming = false;
  }

  /** Starts the sweep; main answers at once and the progress follows as pushes. */
  async resync(): Promise<void> {
    this.confirming = false;
    if (this.running || this.asking) return;
    this.asking = true;
    this.error = null;
    try {
      const { progress } = await this.#bridge.invoke('history:resync', {});
      if (progress) this.#progress = progress;
    } catch (err) {
      // Refused while a sweep runs (conflict): main's sentence says so.
      this.error = messageOf(err);
    } finally {
      this.asking = false;
    }
  }

  /** Hides a sweep that has ended. */
  dismiss(): void {
    if (!this.running) this.#progress = null;
    this.error = null;
  }

  /** Runs `listener` when a sweep ends, however it ended (the history re-reads the store). */
  onEnd(listener: () => void): () => void {
    return this.#ended.add(listener);
  }

  async load(): Promise<void> {
    try {
      const { progress } = await this.#bridge.invoke('history:status', {});
      // A push that came first is newer than this answer.
      if (progress && (!this.#progress || this.#progress.startedAt < progress.startedAt)) {
        this.#progress = progress;
      } else if (!progress && this.running) {
        this.#progress = null;
      }
    } catch {
      // The progress line is a convenience: the history itself says when main fails.
    }
  }

  apply(p: HistorySyncProgress): void {
    const wasRunning = this.running;
    this.#progress = p;
    if (wasRunning && p.state !== 'running') this.#ended.call();
  }

  /** Follows `history:progress`; returns the function that stops. */
  start(): () => void {
    const stop = this.#bridge.on('history:progress', (p) => this.apply(p));
    void this.load();
    return stop;
  }

  /** Another account: none of the last one's sweep. */
  reset(): void {
    this.#progress = null;
    this.confirming = false;
    this.error = null;
    void this.load();
  }
}
