/**
 * A store whose SETTLEMENT rows were worked out by the method before issue 28 (every knockout
 * after all the orders), opened by this version (migration 010, docs/pnl.md "The upgrade"): the
 * backfill works them out again. F3's row said basis $6.37 and +$2.45 and F2's was unknown
 * ("4 were bought by orders this store does not hold"); both now add up to the cash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RealizedBackfill } from '../../../src/main/pnl/backfill.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import type { Order, Settlement } from '../../../src/shared/api/schemas.js';
import { order, tempStore } from './support.js';

let cleanup = () => {};
afterEach(() => cleanup());

const T = Date.UTC(2026, 10, 1, 18);
let ids = 0;
const fill = (contractId: string, over: Partial<Order>): Order =>
  order(++ids, {
    contractId,
    outcome: 'ARS',
    status: 'FILLED',
    createdAt: T + ids * 1000,
    updatedAt: T + ids * 1000 + 500,
    ...over,
  });
const row = (contractId: string, over: Partial<Settlement>): Settlement => ({
  type: 'SETTLEMENT',
  contractId,
  outcome: 'ARS',
  contracts: 0,
  tx: `0x${contractId}${over.type ?? ''}`,
  timestamp: new Date(T + 100_000).toISOString(),
  ...over,
});

/** Issue 28's F2 and F3 as the exchange reports them. */
const ORDERS = [
  fill('F2', { contracts: 10, cost: '3.42', boost: 50, knockout: '0.2749' }),
  fill('F2', { contracts: 10, cost: '6.57' }),
  fill('F2', { side: 'SELL', contracts: 4, cost: '0.021', proceeds: '2.13' }),
  fill('F3', { contracts: 10, cost: '1.77', boost: 80, knockout: '0.4393' }),
  fill('F3', { contracts: 10, cost: '6.37' }),
  fill('F3', { contracts: 10, cost: '5.40', boost: 20, knockout: '0.1171' }),
  fill('F3', { side: 'SELL', contracts: 10, cost: '0.053', proceeds: '5.34' }),
];
const ROWS = [
  row('F2', { type: 'KNOCKED_OUT', contracts: 10, price: '0.2749', pnl: '-3.42' }),
  row('F2', { type: 'CLOSED', contracts: 4, price: '0.5380', pnl: '-0.50' }),
  row('F2', { contracts: 6, payout: '6.00' }),
  row('F3', { type: 'KNOCKED_OUT', contracts: 10, price: '0.4393', pnl: '-1.77' }),
  row('F3', { type: 'CLOSED', contracts: 10, price: '0.5394', pnl: '-1.03' }),
  row('F3', { contracts: 10, payout: '8.82' }),
];

interface Figure {
  contract_id: string;
  realized_micros: number | null;
  basis_micros: number | null;
  pnl_source: string;
  pnl_note: string | null;
}
const settled = (store: Store) =>
  store.db
    .prepare(
      `SELECT contract_id, realized_micros, basis_micros, pnl_source, pnl_note FROM settlements
       WHERE type = 'SETTLEMENT' ORDER BY contract_id`,
    )
    .all() as Figure[];

/** Σ the slots' realized P&L of SETTLEMENT rows and Σ the rows': equal when the slots are kept. */
const sums = (store: Store) =>
  store.db
    .prepare(
      `SELECT (SELECT sum(realized_micros) FROM settlements WHERE type = 'SETTLEMENT') AS rows,
         (SELECT sum(pnl_sum) FROM settlement_slots WHERE type = 'SETTLEMENT') AS slots`,
    )
    .get() as { rows: number; slots: number };

describe('a store worked out by the method before issue 28', () => {
  it('has its SETTLEMENT rows worked out again after the upgrade, and they add up', async () => {
    const { store, file, accountId, done } = tempStore();
    cleanup = done;
    store.applyOrderUpdates(accountId, ORDERS, 1);
    store.applySettlements(accountId, ROWS);
    // What version 9 wrote for them, and its queue closed.
    const old = store.db.prepare(
      `UPDATE settlements SET realized_micros = ?, basis_micros = ?, pnl_source = ?, pnl_note = ?
       WHERE type = 'SETTLEMENT' AND contract_id = ?`,
    );
    old.run(null, null, 'unknown', '4 were bought by orders this store does not hold.', 'F2');
    old.run(2_450_000, 6_370_000, 'orders', null, 'F3');
    store.db.exec('DELETE FROM realized_backfill');
    store.db.pragma('user_version = 9');
    store.close();

    const upgraded = openStore(file);
    try {
      expect(upgraded.settlementRealized.backfillFrom()).toBe(0);
      await new RealizedBackfill(upgraded, { sliceMs: 0 }).start();
      expect(upgraded.settlementRealized.backfillFrom()).toBeNull();
      expect(settled(upgraded)).toEqual([
        {
          contract_id: 'F2',
          realized_micros: 2_060_000,
          basis_micros: 3_940_000,
          pnl_source: 'orders',
          pnl_note: null,
        },
        {
          contract_id: 'F3',
          realized_micros: 3_420_000,
          basis_micros: 5_400_000,
          pnl_source: 'orders',
          pnl_note: null,
        },
      ]);
      const { rows, slots } = sums(upgraded);
      expect(slots).toBe(rows);
    } finally {
      upgraded.close();
    }
  });
});

describe('a position’s rows stamped after its SETTLEMENT', () => {
  it('work the SETTLEMENT out when they come a sync later, a millisecond after it', () => {
    const { store, accountId, done } = tempStore();
    cleanup = done;
    store.applyOrderUpdates(accountId, ORDERS, 1);
    const [knocked, closed, win] = ROWS.filter((r) => r.contractId === 'F2');
    // The SETTLEMENT alone first: the orders leave 16 held for 6 settled, so it is unknown.
    store.applySettlements(accountId, [win!]);
    expect(settled(store)[0]).toMatchObject({ contract_id: 'F2', pnl_source: 'unknown' });
    const later = new Date(Date.parse(win!.timestamp) + 1).toISOString();
    store.applySettlements(accountId, [
      { ...knocked!, timestamp: later },
      { ...closed!, timestamp: later },
    ]);
    expect(settled(store)[0]).toEqual({
      contract_id: 'F2',
      realized_micros: 2_060_000,
      basis_micros: 3_940_000,
      pnl_source: 'orders',
      pnl_note: null,
    });
  });
});
