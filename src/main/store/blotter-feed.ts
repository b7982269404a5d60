/**
 * The blotter's news: every order or intent row this process writes, whoever writes it (the
 * desk, a guardian, the CLI's trading, the sync), is announced here as it is written, so the
 * open screens hear of every order the store gains or changes (docs/desk.md, "Orders").
 * Listeners read the row back themselves, after the write's transaction: a rolled-back write
 * then reads as the row that stayed.
 */

/** One row written: an order (keyed by its ids) or an intent (by its clientOrderId). */
export interface BlotterWrite {
  /** The account whose row it is; null for an intent's state change (its row knows). */
  readonly accountId: number | null;
  /** '' for an exchange order placed without one. */
  readonly clientOrderId: string;
  /** null for an intent the exchange has not answered yet. */
  readonly orderId: string | null;
}

export type BlotterListener = (write: BlotterWrite) => void;

export class BlotterFeed {
  readonly #listeners = new Set<BlotterListener>();

  subscribe(listener: BlotterListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  note(write: BlotterWrite): void {
    for (const listener of this.#listeners) listener(write);
  }
}
