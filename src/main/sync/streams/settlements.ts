/**
 * Settlements. The API gives them no id and no cursor (docs/api.md 2.7, 4.9), so:
 *
 * - Each row is stored once under a stable key the store derives from its content
 *   (type|contractId|outcome|contracts|tx|timestamp): re-reading a page is harmless.
 * - A pass reads pages newest first until a page is all known. New rows are at the top, so
 *   normally the first page ends it: one request.
 * - Every answer carries `total`, so the pass also compares it with the rows the store holds
 *   for the account. Equal (or more): caught up, even on a page that still brought new rows,
 *   which saves the request for a page of known rows. Fewer: a row is missing somewhere deeper,
 *   e.g. one that arrived late from the on-chain source (2.7 rule 4), so the pass keeps paging
 *   past known pages until the counts agree or the pages end. If they still disagree at the
 *   end (two rows the key cannot tell apart, say), that total is remembered and known pages
 *   stop the pass again until the total changes.
 * - New rows shift the pages down while they are read, so a page may repeat rows of the one
 *   before it, never skip one.
 *
 * The `settlements` cursor row holds the exchange's total at the last pass (and its time);
 * `settlements-backfill` is set once a pass has read the whole history: until then the rows
 * are history being loaded, not news (the knockout watch raises no alert for them). The
 * engine reads the whole history with a sweep (streams/history.ts); while one runs, a pass
 * someone asks for reads the newest page alone (`newestPageOnly`).
 */
import type { Settlement, SettlementList } from '../../../shared/api/schemas.js';
import { PAGE_LIMIT, type StreamContext } from './context.js';

/** Set once the account's whole settlement history has been read (its cursor: that total). */
export const BACKFILLED = 'settlements-backfill';

export function isBackfilled(ctx: Pick<StreamContext, 'store' | 'accountId'>): boolean {
  return ctx.store.cursors.get(ctx.accountId, BACKFILLED) !== undefined;
}

export interface SettlementsPass {
  inserted: Settlement[];
  total: number;
  /** The account's first settlements pass: the history backfill. */
  initial: boolean;
  /** GET /settlements requests this pass made. */
  pages: number;
}

/** Remembered between passes: a total at which a full sweep could not match the counts. */
export interface SettlementsMemory {
  unreconciledTotal: number | null;
}

export async function syncSettlements(
  ctx: StreamContext,
  memory: SettlementsMemory,
  opts: { newestPageOnly?: boolean } = {},
): Promise<SettlementsPass> {
  const { store, accountId } = ctx;
  const initial = !isBackfilled(ctx);
  const inserted: Settlement[] = [];
  let offset = 0;
  let pages = 0;
  let total: number;
  for (;;) {
    const page = await readPage(ctx, offset);
    pages += 1;
    total = page.total;
    const fresh = storePage(ctx, page);
    inserted.push(...fresh);
    offset += page.settlements.length;
    // A sweep is reading the rest, and will mark the backfill itself.
    if (opts.newestPageOnly === true) return { inserted, total, initial, pages };

    const agree = store.settlements.count(accountId) >= page.total;
    if (page.settlements.length === 0 || offset >= page.total) {
      memory.unreconciledTotal = agree ? null : page.total;
      break;
    }
    if (agree) break;
    // Rows are missing somewhere: sweep on, unless a sweep at this total already failed.
    if (fresh.length === 0 && memory.unreconciledTotal === page.total) break;
  }
  if (initial) store.cursors.set(accountId, BACKFILLED, total, ctx.now());
  return { inserted, total, initial, pages };
}

export function readPage(ctx: StreamContext, offset: number): Promise<SettlementList> {
  return ctx.client.settlements({ limit: PAGE_LIMIT, offset }, { signal: ctx.signal });
}

/**
 * Stores a page's rows once each and the exchange's total, in one transaction with whatever
 * `also` writes (a sweep's resume point, given the new rows); returns the rows new to the store.
 */
export function storePage(
  ctx: StreamContext,
  page: SettlementList,
  also: (fresh: Settlement[]) => void = () => {},
): Settlement[] {
  const { store, accountId } = ctx;
  return store.transaction(() => {
    // insertSettlements works out the realized P&L of what is new (docs/pnl.md).
    const rows = store.insertSettlements(accountId, page.settlements);
    store.cursors.set(accountId, 'settlements', page.total, ctx.now());
    also(rows);
    return rows;
  });
}
