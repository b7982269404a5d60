/**
 * The start (docs/data.md, "Start"): where main is before the desk can show, from `app:start`
 * and each `app:starting`, and whether the start screen covers the desk.
 */
import type { StartProgress } from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';
import { coversDesk } from '../start-words.js';
import type { Clock } from './clock.svelte.js';

export class StartState {
  progress = $state.raw<StartProgress | null>(null);
  /** Why `app:start` could not be asked, in words. */
  error = $state<string | null>(null);
  readonly #bridge: Bridge;
  readonly #clock: Clock;
  readonly #desk: { readonly shown: boolean };

  /** `desk.shown`: the desk has something to show (the stored markets). */
  constructor(bridge: Bridge, clock: Clock, desk: { readonly shown: boolean }) {
    this.#bridge = bridge;
    this.#clock = clock;
    this.#desk = desk;
  }

  readonly covering: boolean = $derived.by(() =>
    coversDesk(this.progress, this.#clock.now, this.#desk.shown),
  );

  start(): () => void {
    let heard = false;
    const stop = this.#bridge.on('app:starting', (progress) => {
      heard = true;
      this.progress = progress;
    });
    this.#bridge.invoke('app:start', {}).then(
      (progress) => {
        // A push heard meanwhile is newer, unless this answer says the start is over.
        if (!heard || progress.phase === 'ready' || progress.phase === 'failed') {
          this.progress = progress;
        }
      },
      (err: unknown) => {
        this.error = messageOf(err);
      },
    );
    return stop;
  }
}
