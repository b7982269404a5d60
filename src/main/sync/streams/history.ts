/**
 * The history sweep: the account's whole history read again from the exchange, for its first
 * sync and for "Resync history". First every order (GET /orders/updates without `since`,
 * docs/api.md 4.7 rule 1), then every GET /settlements page from the newest (4.9), stored
 * the way the streams store them: an order keeps its newest report and the orders cursor only
 * moves forward (streams/orders.ts), a settlement row is inserted once (streams/settlements.ts).
 * Nothing is deleted first, so a sweep cut short loses nothing it stored.
 *
 * Its speed is the reads bucket's (8.1: 60 a minute, burst 10) at 100 rows a page:
 * 1 + ceil(total / 100) requests, which the engine leaves to it (engine.ts).
 *
 * Where it stands (the offset reached, its progress, which sweep it is) is stored with every page
 * (sweep-state.ts), so a sweep cut short (the app closed or killed, the exchange gone) carries
 * on from there at the next settlements pass or the next start, instead of reading again what
 * it already stored, and its progress continues from the numbers it last reported. Carrying on
 * at an offset is safe: the list is newest first and stable (4.10 rule 4), so rows that came in
 * since push older rows down and the sweep reads a few rows twice, never skips one; a row a
 * late on-chain source slots in above the offset (2.7 rule 4) is found by the settlements
 * pass's count check afterwards. A resync asked for starts from the newest page: the user asked
 * for everything.
 */
import type { Settlement } from '../../../shared/api/schemas.js';
import type { HistorySweepReason } from '../events.js';
import { PAGE_LIMIT, type StreamContext } from './context.js';
import { syncOrders, type OrdersPass } from './orders.js';
import { BACKFILLED, readPage, storePage, type SettlementsMemory } from './settlements.js';
import { clearSweep, saveSweep, type SweepResume } from '../sweep-state.js';

export interface SweepCounts {
  /** Requests the sweep counts as done: the orders read, then each settlements page. */
  pages: number;
  /** 0 while unknown (no total seen yet); never below `pages`. */
  estimatedPages: number;
  /** Orders and settlement rows new to the store (or newer than the stored report). */
  added: number;
}

export interface SweepHooks {
  /** The orders read is stored: the engine announces what changed, as an orders pass does. */
  orders(pass: OrdersPass): void;
  /**
   * A settlements page is stored; `rows` are those new to the store. `news`: the newest page
   * of a resync, which a settlements pass would have read as news; deeper rows are history.
   */
  rows(rows: Settlement[], total: number, news: boolean): void;
  progress(counts: SweepCounts): void;
  /** Awaited before each settlements page (the engine reads the newest page here when asked). */
  beforePage(): Promise<void>;
}

export interface SweepOptions {
  /** Where the sweep starts: fresh, or where an unfinished one stopped (sweep-state.ts). */
  from: SweepResume;
  /** Read the orders too (the engine syncs orders). */
  orders: boolean;
  memory: SettlementsMemory;
  hooks: SweepHooks;
}

export interface HistorySweepPass {
  kind: 'sweep';
  reason: HistorySweepReason;
  /** Settlement rows new to the store. */
  inserted: number;
  /** Orders new to the store or newer than the stored report. */
  ordersChanged: number;
  /** GET /settlements' total at the last page. */
  total: number;
  /** GET /settlements requests this sweep made (pages an earlier sweep read not counted). */
  settlementPages: number;
  /** As in the progress: the orders read and every page, those of an earlier sweep included. */
  pages: number;
}

export async function sweepHistory(ctx: StreamContext, o: SweepOptions): Promise<HistorySweepPass> {
  const { store, accountId } = ctx;
  const state: SweepResume = { ...o.from };
  const ordersPages = o.orders ? 1 : 0;
  // The first settlements page is read even when the history is empty.
  const estimate = (total: number): number =>
    ordersPages + Math.max(1, Math.ceil(total / PAGE_LIMIT));
  // The estimate reported before, else the total the last pass saw: a fair estimate until
  // the first page tells the real one.
  const lastTotal = store.cursors.get(accountId, 'settlements')?.cursor;
  let estimatedPages =
    state.estimatedPages > 0
      ? state.estimatedPages
      : lastTotal === undefined
        ? 0
        : estimate(lastTotal);
  const counts = (): SweepCounts => ({
    pages: state.pages,
    estimatedPages: estimatedPages === 0 ? 0 : Math.max(estimatedPages, state.pages),
    added: state.added,
  });
  const report = (): void => o.hooks.progress(counts());
  // Stored before it is reported: a kill never loses numbers the user saw.
  const save = (): void =>
    saveSweep(store, accountId, { ...state, estimatedPages: counts().estimatedPages }, ctx.now());
  // The first report continues from the numbers reported before (none for a fresh sweep).
  save();
  report();

  let ordersChanged = 0;
  if (o.orders && !state.ordersRead) {
    const r = await syncOrders(ctx, { wholeHistory: true });
    ordersChanged = r.changed.length;
    state.ordersRead = true;
    state.pages += 1;
    state.added += ordersChanged;
    save();
    o.hooks.orders(r);
    report();
  }

  let inserted = 0;
  let settlementPages = 0;
  let total = 0;
  for (;;) {
    await o.hooks.beforePage();
    const offset = state.offset;
    const news = o.from.reason === 'resync' && offset === 0;
    const page = await readPage(ctx, offset);
    const fresh = storePage(ctx, page, (rows) => {
      state.offset = offset + page.settlements.length;
      state.pages += 1;
      state.added += rows.length;
      estimatedPages = estimate(page.total);
      save();
    });
    total = page.total;
    settlementPages += 1;
    inserted += fresh.length;
    o.hooks.rows(fresh, total, news);
    report();
    if (page.settlements.length === 0 || state.offset >= total) break;
  }

  // As a settlements pass that read to the end: counts that still disagree are not swept again
  // at this total (streams/settlements.ts).
  o.memory.unreconciledTotal = store.settlements.count(accountId) >= total ? null : total;
  store.transaction(() => {
    clearSweep(store, accountId);
    store.cursors.set(accountId, BACKFILLED, total, ctx.now());
  });
  return {
    kind: 'sweep',
    reason: o.from.reason,
    inserted,
    ordersChanged,
    total,
    settlementPages,
    pages: state.pages,
  };
}
