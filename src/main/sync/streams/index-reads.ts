/**
 * When each boosted fixture's index price was last read, and how often it is read. The exchange
 * knocks a boosted position out when its outcome's index price falls to the knockout
 * (docs/api.md 1 and 2.4), so the knockout watch and the positions screen judge on that price, and a
 * price read too long ago must not pass for the price now. GET /positions has no index price:
 * the fixtures stream and the price watch (prices.ts) read it with the fixture, and record the
 * read here, one sync cursor per fixture: `index:<contractId>`, whose cursor is the polling
 * interval that applies to it (ms) and whose lastSyncAt is the time of the read.
 */
import type { Store } from '../../store/index.js';
import type { StreamContext } from './context.js';
import { STALE_AFTER_POLLS } from '../../../shared/rules/freshness.js';

/** An index price older than this many of its polling intervals is stale. */
export const INDEX_STALE_AFTER_POLLS = STALE_AFTER_POLLS;

export interface IndexRead {
  /** Local time of the read, ms. */
  readAt: number;
  /** The price is stale once older than this: twice its polling interval. */
  staleAfterMs: number;
}

function indexReadKey(contractId: string): string {
  return `index:${contractId.toUpperCase()}`;
}

/**
 * Records that `contractIds` were read now, to be read again within `intervalMs`. A stream
 * that reads less often does not loosen the interval of one that reads more often while that
 * one's record is fresh: the fixtures refresh (every minute) does not hide a price watch
 * (every second or so) that stopped.
 */
export function markIndexRead(
  ctx: Pick<StreamContext, 'store' | 'accountId' | 'now'>,
  contractIds: Iterable<string>,
  intervalMs: number,
): void {
  const now = ctx.now();
  for (const contractId of new Set(contractIds)) {
    const key = indexReadKey(contractId);
    const before = ctx.store.cursors.get(ctx.accountId, key);
    const tighter =
      before !== undefined &&
      before.cursor < intervalMs &&
      now - before.lastSyncAt <= before.cursor * INDEX_STALE_AFTER_POLLS;
    ctx.store.cursors.set(ctx.accountId, key, tighter ? before.cursor : intervalMs, now);
  }
}

/** The last recorded read of the fixture's index price, or undefined when none is recorded. */
export function lastIndexRead(
  store: Pick<Store, 'cursors'>,
  accountId: number,
  contractId: string,
): IndexRead | undefined {
  const c = store.cursors.get(accountId, indexReadKey(contractId));
  if (c === undefined) return undefined;
  return { readAt: c.lastSyncAt, staleAfterMs: Math.max(1, c.cursor) * INDEX_STALE_AFTER_POLLS };
}
