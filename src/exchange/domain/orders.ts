/**
 * Orders: placing one (inline, or on a quote by rfqId), idempotent by clientOrderId and held
 * when a fault asks for latency; looking them up, listing them and the update feed. An accepted
 * order is SUBMITTED until its block arrives (clock.ts runs it, execution.ts fills it).
 * docs/api.md 3 and 4.4 to 4.7.
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import type {
  Order,
  OrderList,
  OrderQuery,
  OrderRequest,
  OrdersQuery,
  OrderUpdates,
} from '../../shared/api/schemas.js';
import { armTimer, schedule } from './clock.js';
import type { PlacementFault } from './contract.js';
import { ApiError, badParameter } from './errors.js';
import { fixtureOf } from './fixtures.js';
import type { OrderRec, QuoteRec } from './model.js';
import { pageOf } from './paging.js';
import {
  checkClientOrderId,
  checkState,
  liveQuote,
  noLiveQuote,
  priceTrade,
  type TradeTerms,
} from './quoting.js';
import { randomHex } from './rng.js';
import type { ExchangeState, WalletState } from './state.js';

/** deadline = acceptance + blockMs + this. */
export const DEADLINE_WINDOW_MS = 30_000;
/** The transaction hash appears min(this, blockMs / 2) after acceptance. */
export const TX_DELAY_MAX_MS = 200;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function shuttingDown(): ApiError {
  return new ApiError(ErrorCodes.INTERNAL, 'the exchange is shutting down');
}

function inFlight(clientOrderId: string): ApiError {
  return new ApiError(
    ErrorCodes.ORDER_IN_FLIGHT,
    `clientOrderId ${clientOrderId} is already being placed; retry shortly`,
  );
}

export async function placeOrder(
  s: ExchangeState,
  wallet: string,
  request: OrderRequest,
  fault?: PlacementFault,
): Promise<Order> {
  if (s.closed) throw shuttingDown();
  const w = s.walletState(wallet);
  const orderType = String(request.orderType ?? '').toUpperCase();
  if (orderType !== 'MARKET' && orderType !== 'FOK') {
    throw badParameter('orderType: must be MARKET or FOK');
  }
  const rfqId = request.rfqId?.toLowerCase();
  if (rfqId !== undefined && (request.qty !== undefined || request.legs !== undefined)) {
    throw badParameter('rfqId: qty and legs must not accompany an rfqId');
  }
  if (orderType === 'FOK' && rfqId === undefined) {
    throw badParameter('rfqId: required for a FOK order (request a quote first)');
  }
  checkClientOrderId(request.clientOrderId);
  const clientOrderId = request.clientOrderId ?? rfqId ?? '';
  if (request.clientOrderId !== undefined) {
    const existing = w.byClientId.get(request.clientOrderId);
    if (existing !== undefined) return orderView(existing);
  }
  if (clientOrderId !== '' && w.inFlight.has(clientOrderId)) throw inFlight(clientOrderId);
  if (rfqId !== undefined) checkRfq(s, w, rfqId, clientOrderId);
  const placement: Placement = { w, request, orderType, rfqId, clientOrderId, fault };
  const delayMs = fault?.delayMs ?? 0;
  if (delayMs <= 0) return placeNow(s, placement);
  if (clientOrderId !== '') w.inFlight.add(clientOrderId);
  if (rfqId !== undefined) s.claimedRfqs.set(rfqId, clientOrderId);
  try {
    await sleep(delayMs);
    if (s.closed) throw shuttingDown();
    return placeNow(s, placement);
  } finally {
    w.inFlight.delete(clientOrderId);
    if (rfqId !== undefined) s.claimedRfqs.delete(rfqId);
  }
}

/** Checks that an rfqId names a live, unused quote of this wallet. */
function checkRfq(s: ExchangeState, w: WalletState, rfqId: string, clientOrderId: string): void {
  const used = s.ordersByRfq.get(rfqId);
  if (used !== undefined) {
    if (used.wallet !== w.rec.address) throw noLiveQuote(rfqId);
    throw new ApiError(
      ErrorCodes.QUOTE_USED,
      `rfqId ${rfqId} was already used by order ${used.order.orderId}` +
        (used.order.clientOrderId !== '' ? ` (clientOrderId ${used.order.clientOrderId})` : ''),
    );
  }
  const claimedBy = s.claimedRfqs.get(rfqId);
  if (claimedBy !== undefined) {
    if (claimedBy === clientOrderId) throw inFlight(clientOrderId);
    throw new ApiError(
      ErrorCodes.QUOTE_USED,
      `rfqId ${rfqId} is already being executed by clientOrderId ${claimedBy}`,
    );
  }
  liveQuote(s, w, rfqId);
}

/** A placement that passed the request checks, to be broadcast now. */
interface Placement {
  w: WalletState;
  request: OrderRequest;
  orderType: 'MARKET' | 'FOK';
  rfqId: string | undefined;
  clientOrderId: string;
  fault: PlacementFault | undefined;
}

/** The terms of a quoted order, checked again: a held placement may have outlived its quote. */
function quotedTerms(s: ExchangeState, w: WalletState, rfqId: string): QuoteRec {
  const q = liveQuote(s, w, rfqId);
  const fixture = fixtureOf(s, q.contractId);
  checkState(w, { ...q, fixture });
  return q;
}

function placeNow(s: ExchangeState, p: Placement): Order {
  const { w, rfqId, clientOrderId, fault } = p;
  const now = s.now();
  const terms: TradeTerms =
    rfqId !== undefined
      ? quotedTerms(s, w, rfqId)
      : priceTrade(s, w, p.request.legs, p.request.qty, p.request.marketUnit);
  const stamp = s.stamp();
  const order: Order = {
    clientOrderId,
    orderId: `0x${randomHex(16)}`,
    contractId: terms.contractId,
    outcome: terms.outcome,
    side: terms.side,
    status: 'SUBMITTED',
    contracts: terms.contracts,
    entryPrice: terms.entryPrice,
    cost: terms.cost,
    maxWin: terms.maxWin,
    deadline: stamp + s.blockMs + DEADLINE_WINDOW_MS,
    tx: '',
    orderType: p.orderType,
    marketUnit: terms.marketUnit,
    qty: terms.qty,
    boost: terms.boost,
    ...(rfqId !== undefined ? { rfqId } : {}),
    createdAt: stamp,
    updatedAt: stamp,
  };
  if (terms.lotKnockout !== undefined) order.knockout = terms.lotKnockout;
  if (rfqId !== undefined) s.quotes.delete(rfqId);
  if (fault?.outcome === 'congested') {
    order.error = {
      code: ErrorCodes.CHAIN_CONGESTED,
      msg: 'the chain was congested: the transaction was sent but not yet confirmed; the order stands',
    };
  }
  const rec: OrderRec = {
    order,
    seq: s.nextSeq(),
    wallet: w.rec.address,
    dueAt: now + s.blockMs,
    txAt: now + Math.min(TX_DELAY_MAX_MS, Math.floor(s.blockMs / 2)),
  };
  if (fault?.outcome === 'revert') rec.fault = 'revert';
  w.orders.push(rec);
  if (clientOrderId !== '') w.byClientId.set(clientOrderId, rec);
  s.ordersById.set(order.orderId, rec);
  if (rfqId !== undefined) s.ordersByRfq.set(rfqId, rec);
  s.store?.put('order', order.orderId, rec);
  schedule(s, rec);
  s.persist();
  armTimer(s);
  return orderView(rec);
}

export function getOrder(s: ExchangeState, wallet: string, query: OrderQuery): Order {
  const w = s.readWallet(wallet);
  const hasId = query.orderId !== undefined;
  const hasClientId = query.clientOrderId !== undefined;
  if (hasId === hasClientId) {
    throw badParameter('orderId: pass exactly one of orderId or clientOrderId');
  }
  const rec = hasId
    ? s.ordersById.get(query.orderId!.toLowerCase())
    : w.byClientId.get(query.clientOrderId!);
  if (rec === undefined || rec.wallet !== w.rec.address) {
    throw new ApiError(
      ErrorCodes.UNKNOWN_ORDER,
      hasId
        ? `no order with orderId ${query.orderId}`
        : `no order with clientOrderId ${query.clientOrderId}`,
    );
  }
  return orderView(rec);
}

/** Newest first. */
export function listOrders(s: ExchangeState, wallet: string, query: OrdersQuery): OrderList {
  const w = s.readWallet(wallet);
  const contractId = query.contractId?.toUpperCase();
  const team = query.team?.toUpperCase();
  const matches: OrderRec[] = [];
  for (let i = w.orders.length - 1; i >= 0; i--) {
    const rec = w.orders[i]!;
    const o = rec.order;
    if (contractId !== undefined && o.contractId !== contractId) continue;
    if (team !== undefined && o.outcome !== team) continue;
    if (query.status !== undefined && o.status !== query.status) continue;
    matches.push(rec);
  }
  const { items, ...counts } = pageOf(matches, query.limit, query.offset);
  return { orders: items.map(orderView), ...counts };
}

export function orderUpdates(
  s: ExchangeState,
  wallet: string,
  since: number | undefined,
): OrderUpdates {
  const w = s.readWallet(wallet);
  const changed = w.orders.filter((rec) => since === undefined || rec.order.updatedAt > since);
  changed.sort((a, b) => a.order.updatedAt - b.order.updatedAt || a.seq - b.seq);
  // Every later change is stamped above the cursor handed out here, so none can be missed.
  const cursor = Math.max(s.now(), s.lastStamp);
  s.lastStamp = cursor;
  return { orders: changed.map(orderView), cursor };
}

/** A copy the caller may keep: later changes to the record do not show through. */
function orderView(rec: OrderRec): Order {
  const v = { ...rec.order };
  if (v.error !== undefined) v.error = { ...v.error };
  return v;
}
