/**
 * Every order the store gains or changes reaches the open screens, whoever placed it
 * (docs/desk.md, "Orders"): the desk, a guardian's close, the sync's reports, and another
 * process on the same store file (the CLI).
 *
 * This process's writes arrive through the store's blotter feed (store/blotter-feed.ts); the
 * rows written in one turn of the event loop are read back after it (so after their
 * transaction) and pushed as one `orders:changed`. Another process's writes cannot be heard:
 * SQLite's data_version, read every `checkEveryMs`, says the file changed, and the push then
 * asks the screens to read their page again (`more`).
 */
import type { IpcEventPayload, OrderRow } from '../../shared/ipc/contract.js';
import type { Store } from '../store/index.js';
import type { BlotterWrite } from '../store/blotter-feed.js';
import { entryRow, fixtureLookup, orderRow } from './rows.js';

/** At most this many changed rows ride on one push; beyond, the screens read their page again. */
export const MAX_PUSHED_ROWS = 200;

/** How often another process's writes are looked for. */
export const OTHER_WRITERS_CHECK_MS = 2_000;

export interface OrdersNewsOptions {
  store: Store;
  /** The account (store row) whose rows are announced. */
  accountId: number;
  /** Its id on the bridge (null for paper). */
  bridgeId: string | null;
  /** Whether an intent's request is being sent now (TradingService.isPlacing). */
  placing: (clientOrderId: string) => boolean;
  emit: (event: 'orders:changed', payload: IpcEventPayload<'orders:changed'>) => void;
  now?: () => number;
  checkEveryMs?: number;
}

/** Announces the account's blotter changes until the returned function is called. */
export function announceOrderWrites(o: OrdersNewsOptions): () => void {
  const now = o.now ?? Date.now;
  /** clientOrderId (or `#orderId` for an order placed without one) → the write. */
  const pending = new Map<string, BlotterWrite>();
  let overflow = false;
  let flushing: NodeJS.Immediate | undefined;
  let seenVersion = o.store.dataVersion();

  const flush = (): void => {
    flushing = undefined;
    const writes = [...pending.values()];
    pending.clear();
    if (overflow) {
      overflow = false;
      o.emit('orders:changed', {
        accountId: o.bridgeId,
        orderIds: [],
        rows: [],
        more: true,
        at: now(),
      });
      return;
    }
    const rows = readRows(o, writes);
    if (rows.length === 0) return;
    o.emit('orders:changed', {
      accountId: o.bridgeId,
      orderIds: rows.flatMap((r) => (r.orderId !== null ? [r.orderId] : [])),
      rows,
      more: false,
      at: now(),
    });
  };

  const stopFeed = o.store.blotterFeed.subscribe((w) => {
    if (w.accountId !== null && w.accountId !== o.accountId) return;
    if (!overflow) {
      pending.set(w.clientOrderId !== '' ? w.clientOrderId : `#${w.orderId}`, w);
      if (pending.size > MAX_PUSHED_ROWS) {
        overflow = true;
        pending.clear();
      }
    }
    flushing ??= setImmediate(flush);
  });

  const otherWriters = setInterval(() => {
    let version: number;
    try {
      version = o.store.dataVersion();
    } catch {
      return; // a closed store: the session is stopping
    }
    if (version === seenVersion) return;
    seenVersion = version;
    overflow = true;
    flushing ??= setImmediate(flush);
  }, o.checkEveryMs ?? OTHER_WRITERS_CHECK_MS);
  otherWriters.unref();

  return () => {
    stopFeed();
    clearInterval(otherWriters);
    if (flushing !== undefined) clearImmediate(flushing);
    flushing = undefined;
  };
}

/** The rows as stored now; an intent of another account (its state change) is skipped. */
function readRows(o: OrdersNewsOptions, writes: readonly BlotterWrite[]): OrderRow[] {
  const fixture = fixtureLookup(o.store, o.accountId);
  const rows: OrderRow[] = [];
  for (const w of writes) {
    if (w.clientOrderId !== '') {
      const entry = o.store.blotter.get(o.accountId, w.clientOrderId);
      if (entry !== undefined) rows.push(entryRow(entry, o.placing, fixture));
    } else if (w.orderId !== null) {
      const order = o.store.orders.getByOrderId(o.accountId, w.orderId);
      if (order !== undefined) rows.push(orderRow(order, fixture));
    }
  }
  return rows;
}
