/**
 * Block execution: when an order's block arrives it fills at the book as it is then (a MARKET
 * order at the current price and the room left, a FOK only on its quoted terms or not at all)
 * or ends CANCELED or REJECTED. A BUY fill adds a lot to the position; a SELL takes lots from
 * it, oldest first, and a position left flat becomes settlement rows (positions.ts). The order
 * states are docs/api.md 3; the model is docs/sandbox.md, Pricing in short, and GET /docs.
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import { dec } from '../../shared/money.js';
import { emptyTally, positionId, type LotRec, type OrderRec, type PositionRec } from './model.js';
import {
  addOpenInterest,
  capacity,
  finishPosition,
  indexPosition,
  nothingToSell,
  oppositeHeld,
  takeSlices,
} from './positions.js';
import {
  closeTerms,
  closeTermsAt,
  contractsForBudget,
  fillPrice,
  openTerms,
  openTermsAt,
  type CloseTerms,
  type OpenTerms,
} from './pricing.js';
import { randomHex } from './rng.js';
import {
  heldContracts,
  indexPrice,
  positionKey,
  type ExchangeState,
  type WalletState,
} from './state.js';

type OrderError = { code: number; msg: string };

function reverted(msg: string): OrderError {
  return { code: ErrorCodes.REVERTED, msg };
}

/** The order's block has arrived: it fills, or ends CANCELED or REJECTED. */
export function executeBlock(s: ExchangeState, rec: OrderRec): void {
  const o = rec.order;
  if (rec.fault === 'revert') {
    return endOrder(s, rec, 'REJECTED', reverted('the transaction reverted on chain'));
  }
  const f = s.fixtures.get(o.contractId);
  if (f === undefined || f.status !== 'OPEN') return endOrder(s, rec, 'CANCELED');
  const w = s.walletState(rec.wallet);
  const index = indexPrice(f, o.outcome);
  const held = w.positions.get(positionKey(o.contractId, o.outcome));
  if (o.side === 'BUY') {
    const refusal = oppositeHeld(w, f, o.outcome);
    if (refusal !== undefined) return endOrder(s, rec, 'REJECTED', refusal.toBody());
    const room = capacity(s, o.contractId, o.outcome);
    let terms: OpenTerms;
    if (o.orderType === 'FOK') {
      if (o.contracts > room) return endOrder(s, rec, 'CANCELED');
      if (dec(fillPrice('BUY', index, o.contracts)).gt(o.entryPrice)) {
        return endOrder(s, rec, 'CANCELED');
      }
      terms = openTermsAt(o.entryPrice, index, o.contracts, o.boost);
      if (o.marketUnit === 'QUOTE' && dec(terms.cost).gt(o.qty)) {
        return endOrder(s, rec, 'CANCELED');
      }
      if (terms.knockout !== undefined && dec(terms.knockout).gte(index)) {
        return endOrder(s, rec, 'CANCELED');
      }
    } else {
      const lots = Math.floor(room / f.lotSize) * f.lotSize;
      const contracts =
        o.marketUnit === 'BASE'
          ? Math.min(o.contracts, lots)
          : contractsForBudget(index, o.qty, o.boost, f.lotSize, lots);
      if (contracts < f.minContracts) {
        return endOrder(
          s,
          rec,
          'REJECTED',
          reverted(
            `the transaction reverted: ${contracts} contracts fill at the current price, below minContracts ${f.minContracts}`,
          ),
        );
      }
      terms = openTerms(index, contracts, o.boost);
      if (terms.knockout !== undefined && dec(terms.knockout).gte(index)) {
        return endOrder(
          s,
          rec,
          'REJECTED',
          reverted(
            `the transaction reverted: the knockout ${terms.knockout} is at or above the index price ${index}`,
          ),
        );
      }
    }
    fillBuy(s, rec, w, held, terms);
    return;
  }
  const have = held === undefined ? 0 : heldContracts(held);
  if (held === undefined || have === 0) {
    return endOrder(s, rec, 'REJECTED', nothingToSell(o.contractId, o.outcome).toBody());
  }
  let terms: CloseTerms;
  if (o.orderType === 'FOK') {
    if (have < o.contracts) return endOrder(s, rec, 'CANCELED');
    if (dec(fillPrice('SELL', index, o.contracts)).lt(o.entryPrice)) {
      return endOrder(s, rec, 'CANCELED');
    }
    terms = closeTermsAt(o.entryPrice, takeSlices(held.lots, o.contracts));
  } else {
    terms = closeTerms(index, takeSlices(held.lots, Math.min(o.contracts, have)));
  }
  fillSell(s, rec, held, terms);
}

function fillBuy(
  s: ExchangeState,
  rec: OrderRec,
  w: WalletState,
  held: PositionRec | undefined,
  terms: OpenTerms,
): void {
  const o = rec.order;
  const now = s.now();
  const lot: LotRec = {
    orderId: o.orderId,
    contracts: terms.contracts,
    entryPrice: terms.entryPrice,
    boost: terms.boost,
    collateralPerContract: terms.collateralPerContract,
    loanPerContract: terms.loanPerContract,
    cost: terms.cost,
    openedAt: now,
  };
  if (terms.knockout !== undefined) lot.knockout = terms.knockout;
  let p = held;
  if (p === undefined) {
    p = {
      id: positionId(rec.wallet, o.contractId, o.outcome),
      seq: s.nextSeq(),
      wallet: rec.wallet,
      contractId: o.contractId,
      outcome: o.outcome,
      lots: [],
      openedAt: now,
      updatedAt: now,
      sold: emptyTally(),
      knocked: emptyTally(),
    };
    w.positions.set(positionKey(o.contractId, o.outcome), p);
    indexPosition(s, p);
  }
  p.lots.push(lot);
  p.updatedAt = now;
  addOpenInterest(s, o.contractId, o.outcome, terms.contracts);
  s.store?.put('position', p.id, p);
  o.contracts = terms.contracts;
  o.entryPrice = terms.entryPrice;
  o.cost = terms.cost;
  o.maxWin = terms.maxWin;
  if (terms.knockout !== undefined) o.knockout = terms.knockout;
  else delete o.knockout;
  endOrder(s, rec, 'FILLED');
}

function fillSell(s: ExchangeState, rec: OrderRec, p: PositionRec, terms: CloseTerms): void {
  const o = rec.order;
  if (o.tx === '') o.tx = `0x${randomHex(32)}`;
  let left = terms.contracts;
  let cost = dec(0);
  const lots: LotRec[] = [];
  for (const lot of p.lots) {
    if (left === 0) {
      lots.push(lot);
      continue;
    }
    const take = Math.min(left, lot.contracts);
    left -= take;
    if (take === lot.contracts) {
      cost = cost.plus(lot.cost);
      continue;
    }
    const share = dec(lot.cost).times(take).dividedBy(lot.contracts);
    cost = cost.plus(share);
    lots.push({
      ...lot,
      contracts: lot.contracts - take,
      cost: dec(lot.cost).minus(share).toString(),
    });
  }
  p.lots = lots;
  p.updatedAt = s.now();
  p.sold = {
    ...p.sold,
    contracts: p.sold.contracts + terms.contracts,
    notional: dec(p.sold.notional).plus(dec(terms.price).times(terms.contracts)).toString(),
    proceeds: dec(p.sold.proceeds).plus(terms.proceeds).toString(),
    cost: dec(p.sold.cost).plus(cost).toString(),
    tx: o.tx,
  };
  addOpenInterest(s, p.contractId, p.outcome, -terms.contracts);
  if (p.lots.length === 0) finishPosition(s, p, 'sell');
  else s.store?.put('position', p.id, p);
  o.contracts = terms.contracts;
  o.entryPrice = terms.price;
  o.cost = terms.fee;
  o.maxWin = '0';
  o.proceeds = terms.proceeds;
  endOrder(s, rec, 'FILLED');
}

function endOrder(
  s: ExchangeState,
  rec: OrderRec,
  status: 'FILLED' | 'CANCELED' | 'REJECTED',
  error?: OrderError,
): void {
  const o = rec.order;
  o.status = status;
  if (error !== undefined) o.error = error;
  else delete o.error;
  if (o.tx === '') o.tx = `0x${randomHex(32)}`;
  touchOrder(s, rec);
}

/** Stamps the order as changed and marks it to be saved. */
export function touchOrder(s: ExchangeState, rec: OrderRec): void {
  rec.order.updatedAt = s.stamp();
  s.store?.put('order', rec.order.orderId, rec);
}
