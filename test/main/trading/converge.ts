/**
 * Does the store say exactly what the exchange says? Used by the crash test in the parent and in
 * every restarted child.
 * - `reconciled` (right after reconcileOpenIntents, before any sync): every intent settled
 *   against the exchange on its own: done with the exchange's order, which is stored; or not
 *   placed, and the exchange has no order for it. None open, none doubled, none lost.
 * - `synced` (after a sync as well): also the same orders with the same statuses.
 */
import type { ExchangeClient } from '../../../src/main/client/index.js';
import type { Store } from '../../../src/main/store/index.js';
import { isFinalStatus, type Order } from '../../../src/shared/api/schemas.js';
import { allPages } from '../../harness/pages.js';
import { until } from '../../harness/wait.js';

export interface Convergence {
  ok: boolean;
  problems: string[];
  exchangeOrders: number;
  intents: number;
  notPlaced: number;
}

/** Waits until no order of the client's wallet is still pending (each ends at its block). */
export function untilOrdersFinal(client: ExchangeClient): Promise<void> {
  return until('every order on the exchange is final', async () =>
    (await allExchangeOrders(client)).every((o) => isFinalStatus(o.status)),
  );
}

/** Every order of the client's wallet as the exchange has it (all pages). */
export function allExchangeOrders(client: ExchangeClient): Promise<Order[]> {
  return allPages(async (offset, limit) => (await client.orders({ limit, offset })).orders);
}

/** Brings the store's orders up to date the way a sync does: GET /orders/updates from its cursor. */
export async function syncOrders(
  store: Store,
  accountId: number,
  client: ExchangeClient,
): Promise<void> {
  const since = store.cursors.get(accountId, 'orders')?.cursor;
  const updates = await client.orderUpdates(since);
  store.applyOrderUpdates(accountId, updates.orders, updates.cursor);
}

export async function compareWithExchange(
  store: Store,
  accountId: number,
  client: ExchangeClient,
  stage: 'reconciled' | 'synced' = 'synced',
): Promise<Convergence> {
  const exchange = await allExchangeOrders(client);
  const problems: string[] = [];
  const byClientId = new Map<string, Order>();
  for (const o of exchange) {
    if (byClientId.has(o.clientOrderId)) {
      problems.push(`two exchange orders for ${o.clientOrderId}`);
    }
    byClientId.set(o.clientOrderId, o);
  }
  const stored = new Map<string, string>();
  const rows = await allPages(
    (offset, limit) => store.orders.list(accountId, { limit, offset }).orders,
    1000,
  );
  for (const o of rows) stored.set(o.orderId, o.status);
  if (stage === 'synced') {
    for (const o of exchange) {
      const s = stored.get(o.orderId);
      if (s === undefined) {
        problems.push(`order ${o.orderId} (${o.clientOrderId}) is not in the store`);
      } else if (s !== o.status) {
        problems.push(`order ${o.orderId}: store ${s}, exchange ${o.status}`);
      }
    }
    if (stored.size !== exchange.length) {
      problems.push(`the store has ${stored.size} orders, the exchange ${exchange.length}`);
    }
  }

  const ids = store.db
    .prepare('SELECT client_order_id FROM order_intents WHERE account_id = ?')
    .pluck()
    .all(accountId) as string[];
  let notPlaced = 0;
  for (const id of ids) {
    const intent = store.intents.get(id)!;
    const order = byClientId.get(id);
    if (intent.state === 'done') {
      if (!order) problems.push(`intent ${id} is done but the exchange has no order for it`);
      else if (order.orderId !== intent.orderId) problems.push(`intent ${id} names another order`);
      else if (!stored.has(order.orderId)) problems.push(`the order of intent ${id} is not stored`);
    } else if (intent.state === 'failed') {
      notPlaced++;
      if (order)
        problems.push(`intent ${id} is marked not placed but order ${order.orderId} exists`);
    } else {
      problems.push(`intent ${id} is still ${intent.state}`);
    }
  }
  const intentIds = new Set(ids);
  for (const o of exchange) {
    if (!intentIds.has(o.clientOrderId)) problems.push(`order ${o.orderId} has no intent (lost)`);
  }
  return {
    ok: problems.length === 0,
    problems: problems.slice(0, 20),
    exchangeOrders: exchange.length,
    intents: ids.length,
    notPlaced,
  };
}
