/**
 * The bet slip's confirmation step: whether it is open, and whether a confirm now is a deliberate
 * one. A confirm within CONFIRM_ARM_MS of the step opening (a second Ctrl+Enter, a double click
 * carried over onto it) is not. The step is timed by `now` to the millisecond; the reactive clock,
 * which never runs ahead of it, says when Confirm may be shown as ready.
 */
import type { Clock } from './clock.svelte.js';

/** How long the confirmation step is open before its Confirm counts, ms. */
export const CONFIRM_ARM_MS = 500;

export class SlipConfirm {
  // Whether the step is open and when it opened change together, through `show` and `close`.
  #open = $state(false);
  /** When the step opened, by `#now`. */
  #openedAt = $state(0);

  /** Open long enough, by the reactive clock: Confirm may look ready. */
  readonly armed: boolean = $derived.by(
    () => this.#open && this.#clock.now - this.#openedAt >= CONFIRM_ARM_MS,
  );

  readonly #clock: Clock;
  readonly #now: () => number;

  constructor(clock: Clock, now: () => number) {
    this.#clock = clock;
    this.#now = now;
  }

  get open(): boolean {
    return this.#open;
  }

  /** Opens the step; its half second starts now. */
  show(): void {
    this.#openedAt = this.#now();
    this.#open = true;
  }

  close(): void {
    this.#open = false;
  }

  /** A confirm now is deliberate: the step has been open long enough, to the millisecond. */
  deliberate(): boolean {
    return this.#open && this.#now() - this.#openedAt >= CONFIRM_ARM_MS;
  }
}
