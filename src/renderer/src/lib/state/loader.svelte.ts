/**
 * One kind of read a state class shows (a page, a view, totals, a quote): whether it is on its
 * way, why the last one failed in the bridge's words, and the rule that the latest request wins,
 * so an answer overtaken by a newer request, a push or a change of filter is dropped.
 */
import { messageOf } from '../bridge.js';

export class Loader {
  #loading = $state(false);
  /** Why the last read failed, in words; null once one succeeds. The class may say more here. */
  error = $state<string | null>(null);
  #seq = 0;

  /** A read is on its way. Moved only by `run` and `cancel`, in step with the request count. */
  get loading(): boolean {
    return this.#loading;
  }

  /**
   * Runs `read` in place of any read on its way, and hands its answer to `take` unless a newer
   * request or `cancel` came meanwhile. Resolves true when this read was still the latest when
   * it ended (answered or failed), false when it was overtaken.
   */
  async run<T>(read: () => Promise<T>, take: (value: T) => void): Promise<boolean> {
    const mine = ++this.#seq;
    this.#loading = true;
    try {
      const value = await read();
      if (mine !== this.#seq) return false;
      take(value);
      this.error = null;
    } catch (err) {
      if (mine === this.#seq) this.error = messageOf(err);
    } finally {
      if (mine === this.#seq) this.#loading = false;
    }
    return mine === this.#seq;
  }

  /**
   * Drops the answer of any read on its way: what the class holds now is newer (a push), or of
   * another filter. `next` says a read of the new filter is about to follow, so it shows as
   * loading from now.
   */
  cancel(next = false): void {
    this.#seq++;
    this.#loading = next;
  }
}
