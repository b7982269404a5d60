/**
 * History on the bridge: the active account's settlements read from the store (so the screen
 * works with the exchange away), their totals and P&L series aggregated in SQLite, a
 * settlement's detail, the Orders screen's totals, and the history sweep (first sync, resync).
 *
 * Every P&L figure is realized P&L and says where it comes from (docs/pnl.md): the exchange's
 * (CLOSED, KNOCKED_OUT) or payout − cost basis from the account's orders (SETTLEMENT), or
 * unknown with the reason. A SETTLEMENT's detail shows the arithmetic (`working`).
 */
import type { HistoryFilter, HistorySyncProgress, OrdersScope } from '../../shared/ipc/contract.js';
import { fixtureLookup, orderRow } from '../desk/rows.js';
import { withSession, type Handlers } from '../ipc/handler.js';
import { Refusal } from '../refusal.js';
import type { ActiveAccount } from '../root/active.js';
import type { AccountSession } from '../root/session.js';
import {
  orderStatusesOf,
  type OrderFilter,
  type SettlementFilter,
  type Store,
} from '../store/index.js';
import type { StoreReads } from '../store/read-worker.js';
import type { HistorySweepProgress } from '../sync/index.js';
import { settlementRow } from './rows.js';

export type HistoryChannel =
  | 'history:list'
  | 'history:summary'
  | 'history:detail'
  | 'history:choices'
  | 'history:resync'
  | 'history:status'
  | 'orders:totals';

export interface HistoryContext {
  store: Store;
  /** The active session, waiting for it while the app starts or switches accounts. */
  active: Pick<ActiveAccount, 'started'>;
  /** The store's read worker: where the heavy reads (summary, choices) run. */
  reads: Pick<StoreReads, 'run'>;
  /** Local time (tests move it). */
  now?: () => number;
  /** The upgrade's backfill of realized P&L, while it runs (src/main/pnl/backfill.ts). */
  backfill?: { progress(): { done: number; total: number } | null };
}

export function historyFeature(ctx: HistoryContext): Handlers<HistoryChannel> {
  const { store, active, reads } = ctx;
  const now = ctx.now ?? Date.now;
  return {
    'history:list': withSession(active, (s, query) => {
      const page = store.settlements.query(s.accountId, {
        ...settlementFilter(query.filter),
        sort: query.sort,
        limit: query.limit,
        offset: query.offset,
      });
      const fixture = fixtureLookup(store, s.accountId);
      return {
        accountId: s.bridgeId,
        rows: page.settlements.map((r) => settlementRow(r, fixture)),
        total: page.total,
        limit: page.limit,
        offset: page.offset,
      };
    }),

    // On the store's read worker: a big account's totals never hold the main thread.
    'history:summary': withSession(active, async (s, { filter, timeZone }) => {
      const input = { accountId: s.accountId, filter: settlementFilter(filter), timeZone };
      const summary = await reads.run('historySummary', { ...input, now: now() });
      // The upgrade's backfill runs on main: only main knows how far it is.
      const working = ctx.backfill?.progress() ?? null;
      return { accountId: s.bridgeId, ...summary, working };
    }),

    'history:detail': withSession(active, (s, { id }) => {
      const row = store.settlements.get(s.accountId, id);
      if (row === undefined) return { row: null, working: null, orders: [] };
      const fixture = fixtureLookup(store, s.accountId);
      const since = store.settlements.previousOnOutcome(s.accountId, row);
      const orders = store.orders.listBetween(
        s.accountId,
        row.contractId,
        row.outcome,
        since,
        row.settledAt,
      );
      const worked = row.type === 'SETTLEMENT' ? store.realized.explain(row.id) : undefined;
      return {
        row: settlementRow(row, fixture),
        working: worked?.working ?? null,
        orders: orders.map((o) => orderRow(o, fixture)),
      };
    }),

    'history:choices': withSession(active, (s) =>
      reads.run('historyChoices', { accountId: s.accountId }),
    ),

    'history:resync': withSession(active, (s) => {
      if (s.engine.historyProgress()?.state === 'running') {
        throw new Refusal(
          'conflict',
          'The history is being loaded from the exchange already; wait for it to finish.',
        );
      }
      // Answers at once: the sweep reports through history:progress, failure included.
      s.engine.resyncHistory().catch(() => undefined);
      return { progress: bridgeProgress(s, s.engine.historyProgress()) };
    }),

    'history:status': withSession(active, (s) => ({
      progress: bridgeProgress(s, s.engine.historyProgress()),
    })),

    // The Orders screen's totals, on the read worker (reads.ts).
    'orders:totals': withSession(active, async (s, scope) => {
      const filter = orderFilter(scope);
      if (filter === null) return { count: 0, filled: 0, staked: '0', proceeds: '0' };
      return reads.run('ordersTotals', { accountId: s.accountId, filter });
    }),
  };
}

/** The store's filter for a bridge filter: the same fields, absent ones left out. */
export function settlementFilter(f: HistoryFilter): SettlementFilter {
  const out: SettlementFilter = {};
  if (f.type !== undefined) out.type = f.type;
  if (f.from !== undefined) out.from = f.from;
  if (f.to !== undefined) out.to = f.to;
  if (f.league !== undefined) out.league = f.league;
  if (f.team !== undefined) out.team = f.team;
  if (f.contractId !== undefined) out.contractId = f.contractId;
  return out;
}

/** The store's order filter for the blotter's scope; null when it can match no order. */
export function orderFilter(scope: OrdersScope): OrderFilter | null {
  const out: OrderFilter = {};
  if (scope.status !== undefined) {
    const statuses = orderStatusesOf(scope.status);
    if (statuses.length === 0) return null;
    out.status = statuses;
  }
  if (scope.side !== undefined) out.side = scope.side;
  if (scope.contractId !== undefined) out.contractId = scope.contractId;
  if (scope.from !== undefined) out.from = scope.from;
  if (scope.to !== undefined) out.to = scope.to;
  return out;
}

function bridgeProgress(
  s: AccountSession,
  p: HistorySweepProgress | null,
): HistorySyncProgress | null {
  return p === null ? null : { ...p, accountId: s.bridgeId };
}
