/** Functions to call when something happens (an account change, a sweep's end, an export's). */
export class Listeners<A extends unknown[] = []> {
  #listeners: ((...args: A) => void)[] = [];

  /** Adds `listener`; returns the function that removes it. */
  add(listener: (...args: A) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** Calls every listener added, in the order they were added. */
  call(...args: A): void {
    for (const l of this.#listeners) l(...args);
  }
}
