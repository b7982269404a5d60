/** The orders table spelled once: the derived column list and mapping agree with the table. */
import { afterEach, describe, expect, it } from 'vitest';
import { COLUMNS, MUTABLE_COLUMNS } from '../../../src/main/store/repos/order-columns.js';
import { order, tempStore } from './support.js';

let done = () => {};
afterEach(() => done());

describe('the orders table', () => {
  it('binds every column the table has, in the table’s own order', () => {
    const t = tempStore();
    done = t.done;
    const table = (t.store.db.pragma('table_info(orders)') as { name: string }[]).map(
      (c) => c.name,
    );
    expect(COLUMNS).toEqual(table);
    // What a later report may not change: the ids, the bet and when it was made.
    expect(COLUMNS.filter((c) => !MUTABLE_COLUMNS.includes(c))).toEqual([
      'account_id',
      'order_id',
      'client_order_id',
      'contract_id',
      'outcome',
      'side',
      'order_type',
      'market_unit',
      'qty',
      'boost',
      'created_at',
    ]);
  });

  it('reads an order back with its fields in the API’s order, the optional ones last', () => {
    const t = tempStore();
    done = t.done;
    const full = order(1, {
      knockout: '0.3012',
      error: { code: -5004, msg: 'congested' },
      proceeds: '1.50',
      rfqId: 'rfq-1',
    });
    t.store.applyOrderUpdates(t.accountId, [order(0), full], full.updatedAt);
    // Key order is what a JSON line of `betdesk orders` shows.
    expect(Object.keys(t.store.orders.getByOrderId(t.accountId, full.orderId)!)).toEqual([
      'clientOrderId',
      'orderId',
      'contractId',
      'outcome',
      'side',
      'status',
      'contracts',
      'entryPrice',
      'cost',
      'maxWin',
      'deadline',
      'tx',
      'orderType',
      'marketUnit',
      'qty',
      'boost',
      'createdAt',
      'updatedAt',
      'knockout',
      'error',
      'proceeds',
      'rfqId',
    ]);
    const bare = t.store.orders.getByOrderId(t.accountId, order(0).orderId)!;
    expect(bare).toEqual(order(0));
    expect(Object.keys(bare)).not.toContain('knockout');
  });
});
