/**
 * A small typed event emitter: `on` returns the unsubscribe, and a listener that throws is
 * reported to `onListenerError` instead of breaking the sync loop that emitted.
 */
export type Listener<T> = (payload: T) => void;

export class TypedEmitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();
  readonly #onListenerError: (event: keyof Events, err: unknown) => void;

  constructor(onListenerError: (event: keyof Events, err: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  on<E extends keyof Events>(event: E, listener: Listener<Events[E]>): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => this.off(event, listener);
  }

  off<E extends keyof Events>(event: E, listener: Listener<Events[E]>): void {
    this.#listeners.get(event)?.delete(listener);
  }

  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const l of [...set]) {
      try {
        (l as Listener<Events[E]>)(payload);
      } catch (err) {
        this.#onListenerError(event, err);
      }
    }
  }

  listenerCount(event: keyof Events): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  clear(): void {
    this.#listeners.clear();
  }
}
