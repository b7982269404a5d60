/** In-app toasts: short notices that go away by themselves (danger ones stay longer). */
export type ToastTone = 'info' | 'ok' | 'danger';

/** Where a toast's "Show" button goes: the position it is about, or Orders (no position). */
export type ToastTarget =
  | { screen: 'positions'; contractId: string; outcome: string }
  | { screen: 'orders' }
  | { screen: 'alerts' };

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  message: string;
  /** What its "Show" button opens, or null for none. */
  target: ToastTarget | null;
}

export const TOAST_MS: Record<ToastTone, number> = { info: 8000, ok: 8000, danger: 20_000 };
export const MAX_TOASTS = 3;

export class ToastsState {
  /** The toasts shown, oldest first. */
  items = $state.raw<Toast[]>([]);
  #nextId = 1;
  readonly #timers: Record<number, ReturnType<typeof setTimeout>> = {};

  push(toast: Omit<Toast, 'id'>): number {
    const id = this.#nextId++;
    const items = [...this.items, { ...toast, id }];
    for (const old of items.splice(0, Math.max(0, items.length - MAX_TOASTS)))
      this.#stopTimer(old.id);
    this.items = items;
    this.#timers[id] = setTimeout(() => this.dismiss(id), TOAST_MS[toast.tone]);
    return id;
  }

  dismiss(id: number): void {
    this.#stopTimer(id);
    this.items = this.items.filter((t) => t.id !== id);
  }

  #stopTimer(id: number): void {
    clearTimeout(this.#timers[id]);
    delete this.#timers[id];
  }
}
