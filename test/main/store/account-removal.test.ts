/**
 * Issue 27 item 10: removing an account names everything it deletes, with counts, armed rules
 * first. The counts are read from a real store; every table that holds an account's rows is
 * either counted or named below as bookkeeping, so a new table cannot go unsaid.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/main/store/index.js';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';
import { removalWords } from '../../../src/shared/rules/account-removal.js';
import {
  fixture,
  order,
  position,
  settlement,
  storeAndDirEachTest,
  accountTables,
} from './support.js';

let store: Store;
let accountId: number;
storeAndDirEachTest((t) => ({ store, accountId } = t));

const STOP: GuardSpec = { kind: 'stop_loss', percent: '20', sharePercent: 100, confirmations: 1 };

/** Tables of an account's rows the words do not name: how the store keeps its sums and place. */
const BOOKKEEPING = new Set([
  'accounts',
  'sync_cursors',
  'settlement_day_counts',
  'settlement_slots',
  'settlement_league_slots',
  'realized_backfill',
  'position_cost_basis',
  'settlement_realized',
]);

/** Tables the counts read (their SQL, store/repos/account-removal.ts). */
const COUNTED = new Set([
  'guard_rules',
  'guard_log',
  'orders',
  'order_intents',
  'settlements',
  'position_snapshots',
  'alerts',
  'price_series',
  'equity_points',
  'fixtures',
]);

function fill(id: number): void {
  const armed = store.guards.arm(id, 'EPL-1', 'ARS', STOP, 1);
  store.guards.arm(id, 'EPL-2', 'CHE', { ...STOP, percent: '30' }, 2);
  const ended = store.guards.arm(id, 'EPL-3', 'ARS', STOP, 3);
  store.guards.finish(ended.id, ['armed'], 'disarmed', 4, 'by hand');
  for (const event of ['armed', 'disarmed'] as const) {
    store.guards.log({
      accountId: id,
      ruleId: armed.id,
      at: 5,
      kind: 'stop_loss',
      contractId: 'EPL-1',
      outcome: 'ARS',
      event,
      message: event,
    });
  }
  store.intents.create({ clientOrderId: `open-${id}`, accountId: id, params: {} });
  store.applyOrderUpdates(id, [order(id * 10 + 1), order(id * 10 + 2), order(id * 10 + 3)], 5);
  store.applySettlements(id, [settlement(id * 10 + 1)]);
  store.positions.replace(id, [position('EPL-1', 'ARS'), position('EPL-2', 'CHE')], 6);
  store.alerts.insertOnce({
    accountId: id,
    kind: 'near',
    contractId: 'EPL-1',
    outcome: 'ARS',
    message: 'near',
    createdAt: 1,
  });
  store.prices.record(
    id,
    1_000,
    [{ contractId: 'EPL-1', outcome: 'ARS', micros: 500_000 }],
    60_000,
  );
  store.prices.record(
    id,
    2_000,
    [{ contractId: 'EPL-1', outcome: 'ARS', micros: 510_000 }],
    60_000,
  );
  store.equity.record(id, 7, {
    positions: 2,
    unrealizedMicros: 0,
    costBasisMicros: 1,
    maxPayoutMicros: 2,
    valueMicros: 1,
  });
  store.fixtures.upsertMany(id, [fixture('EPL-1'), fixture('EPL-2'), fixture('EPL-3')], 8);
}

describe('what removing an account deletes', () => {
  it('counts every kind of row, the armed (and closing) rules apart, of this account only', () => {
    fill(accountId);
    const other = store.accounts.create({ label: 'other', baseUrl: 'http://x', apiKey: 'k' });
    fill(other.id);
    const counts = store.removal.counts(accountId);
    expect(counts.pricePoints).toBeGreaterThanOrEqual(2); // raw points and their bucket
    expect({ ...counts, pricePoints: 0 }).toEqual({
      armedRules: 2,
      otherRules: 1,
      guardLogLines: 2,
      orders: 4, // 3 exchange orders and the request never answered
      settlements: 1,
      positions: 2,
      alerts: 1,
      priceSeries: 1,
      pricePoints: 0,
      equityPoints: 1,
      fixtures: 3,
    });
    expect(removalWords('main', counts)).toMatch(
      /^Removing main deletes what Betdesk keeps of it on this computer\. 2 armed guardian rules will be deleted: their positions stay open on the exchange, unprotected\. Also deleted: 4 orders, 1 settlement, 2 positions, 1 alert, 1 ended guardian rule and 2 guardian log lines, \d+ recorded prices of 1 outcome, 1 equity point, 3 fixtures, its alert settings, and its secret in the system keychain\./,
    );
    store.accounts.remove(accountId);
    expect(Object.values(store.removal.counts(accountId)).every((n) => n === 0)).toBe(true);
    expect(store.removal.counts(other.id)).toEqual(counts);
  });

  it('names every table that holds an account’s rows, or knows it for bookkeeping', () => {
    const tables = accountTables(store);
    const unsaid = tables.filter((t) => !COUNTED.has(t) && !BOOKKEEPING.has(t));
    expect(unsaid).toEqual([]);
    for (const t of COUNTED) expect(tables, t).toContain(t);
  });

  it('says when no rule is armed, and a firing rule counts as armed', () => {
    expect(removalWords('x', store.removal.counts(accountId))).toContain(
      'No guardian rule is armed on it.',
    );
    const rule = store.guards.arm(accountId, 'EPL-1', 'ARS', STOP, 1);
    store.db.prepare(`UPDATE guard_rules SET state = 'firing' WHERE id = ?`).run(rule.id);
    expect(store.removal.counts(accountId).armedRules).toBe(1);
    expect(removalWords('x', store.removal.counts(accountId))).toContain(
      '1 armed guardian rule will be deleted: its position stays open on the exchange, unprotected.',
    );
  });
});
