/** What every stream pass gets: the account's client and store, and the engine's abort signal. */
import type { ExchangeClient } from '../../client/index.js';
import type { Store } from '../../store/index.js';

export interface StreamContext {
  client: ExchangeClient;
  store: Store;
  accountId: number;
  /** Aborted by SyncEngine.stop(): requests waiting in the governor or in flight give up. */
  signal: AbortSignal;
  /** Local time, ms. */
  now(): number;
}

/** GET list endpoints page at most 100 (docs/api.md 4.10). */
export const PAGE_LIMIT = 100;

/**
 * Reads every page of a paged list. The exchange's ordering is stable (4.10 rule 4), so pages
 * neither repeat nor omit entries; an empty page or the total ends the walk.
 */
export async function readAllPages<T>(
  page: (offset: number) => Promise<{ items: T[]; total: number }>,
): Promise<{ items: T[]; total: number }> {
  const items: T[] = [];
  for (;;) {
    const p = await page(items.length);
    items.push(...p.items);
    if (p.items.length === 0 || items.length >= p.total) return { items, total: p.total };
  }
}
