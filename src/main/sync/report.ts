/** What `syncOnce()` reports (the CLI's `sync --once`): one pass of each stream. */
import type { SyncStatus, SyncStreamName } from './events.js';
import type { FixturesPass } from './streams/fixtures.js';
import type { HistorySweepPass } from './streams/history.js';
import type { OrdersPass } from './streams/orders.js';
import type { PositionsPass } from './streams/positions.js';
import type { SettlementsPass } from './streams/settlements.js';

export interface SyncReport {
  ok: boolean;
  orders?: { received: number; changed: number; cursor: number };
  settlements?: { inserted: number; total: number; requests: number };
  positions?: { open: number; boosted: number };
  fixtures?: { changed: number; total: number };
  /** One sentence per stream that failed. */
  errors: { stream: SyncStreamName; message: string }[];
  status: SyncStatus;
}

/** What a stream's last pass found; a settlements pass may have been a history sweep. */
export type PassResult =
  OrdersPass | SettlementsPass | HistorySweepPass | PositionsPass | FixturesPass | null;

export function syncReport(
  results: ReadonlyMap<SyncStreamName, PassResult>,
  errors: SyncReport['errors'],
  status: SyncStatus,
): SyncReport {
  const report: SyncReport = { ok: errors.length === 0, errors, status };
  const orders = results.get('orders') as OrdersPass | undefined;
  if (orders) {
    report.orders = {
      received: orders.received,
      changed: orders.changed.length,
      cursor: orders.cursor,
    };
  }
  const settlements = results.get('settlements') as SettlementsPass | HistorySweepPass | undefined;
  if (settlements && 'kind' in settlements) {
    report.settlements = {
      inserted: settlements.inserted,
      total: settlements.total,
      requests: settlements.settlementPages,
    };
  } else if (settlements) {
    report.settlements = {
      inserted: settlements.inserted.length,
      total: settlements.total,
      requests: settlements.pages,
    };
  }
  const positions = results.get('positions') as PositionsPass | undefined;
  if (positions) {
    report.positions = {
      open: positions.positions.length,
      boosted: positions.positions.filter((p) => p.boosted).length,
    };
  }
  const fixtures = results.get('fixtures') as FixturesPass | undefined;
  if (fixtures) report.fixtures = { changed: fixtures.changed.length, total: fixtures.total };
  return report;
}
