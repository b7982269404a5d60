/**
 * Where a paged list stands: the offset of the page shown, the page size, and (read from the
 * list's owner) how many entries match in all. One rule for every paged screen: a step past
 * either end does nothing.
 */
export class PageWindow {
  #offset = $state(0);
  readonly size: number;
  readonly #total: () => number;

  constructor(size: number, total: () => number) {
    this.size = size;
    this.#total = total;
  }

  /** The first entry of the page shown; it moves through `forward`, `back` and `reset` alone. */
  get offset(): number {
    return this.#offset;
  }
  get hasPrevious(): boolean {
    return this.#offset > 0;
  }
  get hasNext(): boolean {
    return this.#offset + this.size < this.#total();
  }

  /** One page on; false when there is none (nothing changed). */
  forward(): boolean {
    if (!this.hasNext) return false;
    this.#offset += this.size;
    return true;
  }

  /** One page back; false when this is the first. */
  back(): boolean {
    if (!this.hasPrevious) return false;
    this.#offset = Math.max(0, this.#offset - this.size);
    return true;
  }

  /** Back to the first page (a filter changed). */
  reset(): void {
    this.#offset = 0;
  }
}
