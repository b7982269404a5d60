/**
 * Orders: GET /orders/updates from the cursor stored with the account. Each answer and its new
 * cursor are committed in one transaction (Store.applyOrderUpdates), so a crash or a stop
 * between two polls resumes exactly where the store says: no gap (the cursor never moves past
 * orders that were not stored) and no double (orders are keyed by orderId, and replaying an
 * older cursor only rewrites the same rows).
 *
 * A history sweep (streams/history.ts) reads the whole history instead (no `since`,
 * docs/api.md 4.7 rule 1) and applies it the same way. The stored cursor only moves forward: a
 * whole-history answer committed after a poll that stored a later cursor must not take it back.
 */
import type { Order } from '../../../shared/api/schemas.js';
import type { StreamContext } from './context.js';

export interface OrdersPass {
  /** Orders the exchange reported changed. */
  received: number;
  /** Of those, the ones that changed the store (new, or newer than the stored report). */
  changed: Order[];
  cursor: number;
  /** No cursor was stored before this pass: the answer is the account's whole history. */
  initial: boolean;
  /**
   * The cursor stored before the pass (undefined on the first). Orders changed after it are
   * news; a whole-history read also repairs older ones, which are history.
   */
  since: number | undefined;
}

export async function syncOrders(
  ctx: StreamContext,
  opts: { wholeHistory?: boolean } = {},
): Promise<OrdersPass> {
  const since = ctx.store.cursors.get(ctx.accountId, 'orders')?.cursor;
  const res = await ctx.client.orderUpdates(opts.wholeHistory === true ? undefined : since, {
    signal: ctx.signal,
  });
  const { changed, cursor } = ctx.store.transaction(() => {
    const fresh = res.orders.filter((o) => isNewer(ctx, o));
    const stored = ctx.store.cursors.get(ctx.accountId, 'orders')?.cursor;
    const next = stored === undefined ? res.cursor : Math.max(stored, res.cursor);
    ctx.store.applyOrderUpdates(ctx.accountId, res.orders, next);
    return { changed: fresh, cursor: next };
  });
  return { received: res.orders.length, changed, cursor, initial: since === undefined, since };
}

/** Whether the store would take this report (the repository keeps the newest updatedAt). */
function isNewer(ctx: StreamContext, o: Order): boolean {
  const stored = ctx.store.orders.getByOrderId(ctx.accountId, o.orderId);
  return stored === undefined || stored.updatedAt < o.updatedAt;
}

/** True while an order of ours may still change: poll updates faster. */
export function hasPendingOrders(ctx: Pick<StreamContext, 'store' | 'accountId'>): boolean {
  if (ctx.store.orders.listPending(ctx.accountId).length > 0) return true;
  return ctx.store.intents
    .listOpen(ctx.accountId)
    .some((i) => i.state === 'pending' || i.state === 'sent' || i.state === 'unknown');
}
