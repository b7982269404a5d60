/**
 * Reconciliation: settling every open intent of the account with the exchange, run after a
 * start before the first placement. GET /order?clientOrderId= found -> the order is stored and
 * the intent is `done`; absent (-2025) -> the intent is marked not placed, and nothing is
 * placed: Betdesk never places a bet by itself after a restart; unreachable -> left `unknown`
 * for the next time.
 */
import { Backoff } from '../../shared/backoff.js';
import { storeOrder, type TradingContext } from './context.js';
import { NOT_PLACED_CODE } from './outcome.js';
import type { Lookup, Placements } from './placements.js';

export interface ReconcileReport {
  /** Open intents looked up on the exchange. */
  checked: number;
  /** Intents whose order the exchange has: now `done`, the order stored. */
  placed: string[];
  /** Intents the exchange has no order for: marked not placed (and not placed by us). */
  notPlaced: string[];
  /** Intents that could not be looked up (exchange unreachable): left `unknown` for next time. */
  unknown: string[];
}

const NOT_PLACED_AFTER_RESTART =
  'Not placed: the exchange has no order with this clientOrderId. Betdesk stopped before the ' +
  'order was confirmed and never places a bet by itself after a restart; place it again if you ' +
  'still want it.';

/** Lookups per intent when the exchange refuses one for a while (-1003, 5xx). */
const LOOKUP_ATTEMPTS = 3;

export async function reconcileIntents(
  ctx: TradingContext,
  placements: Placements,
): Promise<ReconcileReport> {
  const report: ReconcileReport = { checked: 0, placed: [], notPlaced: [], unknown: [] };
  for (const intent of ctx.store.intents.listOpen(ctx.accountId)) {
    // `failed` is settled (the exchange refused, or it was found not placed); a late order
    // for it still closes it when the sync engine sees that order.
    if (intent.state === 'failed' || placements.isRunning(intent.clientOrderId)) continue;
    report.checked++;
    const found = await lookupPatiently(ctx, placements, intent.clientOrderId);
    if (found.seen === 'placed') {
      storeOrder(ctx, found.order);
      report.placed.push(intent.clientOrderId);
    } else if (found.seen === 'absent') {
      ctx.store.intents.markFailed(intent.clientOrderId, {
        code: NOT_PLACED_CODE,
        msg: NOT_PLACED_AFTER_RESTART,
      });
      report.notPlaced.push(intent.clientOrderId);
    } else {
      placements.markUnknown(intent.clientOrderId, found.error);
      report.unknown.push(intent.clientOrderId);
    }
  }
  if (report.checked > 0) ctx.log.info('open order intents reconciled', { ...report });
  return report;
}

/** A lookup tried again on a refusal that passes (-1003, 5xx); a network failure ends it. */
async function lookupPatiently(
  ctx: TradingContext,
  placements: Placements,
  clientOrderId: string,
): Promise<Lookup> {
  const backoff = new Backoff(ctx.backoff, ctx.random);
  for (let attempt = 1; ; attempt++) {
    const found = await placements.lookup(clientOrderId);
    if (found.seen !== 'unknown' || found.error.code === 'NETWORK') return found;
    if (attempt >= LOOKUP_ATTEMPTS) return found;
    await ctx.sleep(backoff.next());
  }
}
