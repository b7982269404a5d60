/**
 * Positions and what ends them: open interest per outcome (the exchange's capacity), the lots a
 * close takes, knockouts when the index reaches a boosted lot's knockout, settlement at
 * resolution, the settlement rows a flat position leaves, and the wallet's position and
 * settlement lists (docs/api.md 2.6, 2.7). Filling an order into a position is block execution
 * (execution.ts).
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import type {
  Position,
  PositionList,
  PositionsQuery,
  Settlement,
  SettlementList,
  SettlementsQuery,
} from '../../shared/api/schemas.js';
import { Dec, dec, price, usd, usdFloor } from '../../shared/money.js';
import { ApiError } from './errors.js';
import type { ExitTally, FixtureRec, LotRec, PositionRec, SettlementRec } from './model.js';
import { pageOf } from './paging.js';
import {
  CAPACITY_PER_OUTCOME,
  closeReturn,
  fillPrice,
  settlementValue,
  type CloseSlice,
} from './pricing.js';
import { randomHex } from './rng.js';
import {
  heldContracts,
  indexPrice,
  otherOutcome,
  positionKey,
  type ExchangeState,
  type WalletState,
} from './state.js';

// ------------------------------------------------------------------ open interest

export function addOpenInterest(
  s: ExchangeState,
  contractId: string,
  outcome: string,
  delta: number,
): void {
  const key = positionKey(contractId, outcome);
  s.openInterest.set(key, (s.openInterest.get(key) ?? 0) + delta);
}

/** Contracts the exchange can still take on this outcome. */
export function capacity(s: ExchangeState, contractId: string, outcome: string): number {
  const oi = s.openInterest.get(positionKey(contractId, outcome)) ?? 0;
  return Math.max(0, CAPACITY_PER_OUTCOME - oi);
}

// ------------------------------------------------------------------ what a wallet may trade

/** -2030 when the wallet holds the fixture's other outcome (a BUY must close it first). */
export function oppositeHeld(w: WalletState, f: FixtureRec, outcome: string): ApiError | undefined {
  const other = otherOutcome(f, outcome);
  if (!w.positions.has(positionKey(f.contractId, other))) return undefined;
  return new ApiError(
    ErrorCodes.OPPOSITE_HELD,
    `${other} is held in ${f.contractId}; close it before betting on ${outcome}`,
  );
}

/** -2029: a SELL of an outcome the wallet does not hold. */
export function nothingToSell(contractId: string, outcome: string): ApiError {
  return new ApiError(
    ErrorCodes.NOTHING_TO_SELL,
    `nothing is held on ${outcome} in ${contractId} to sell`,
  );
}

/** The slices a close of `contracts` takes, oldest lot first. */
export function takeSlices(lots: readonly LotRec[], contracts: number): CloseSlice[] {
  const slices: CloseSlice[] = [];
  let left = contracts;
  for (const lot of lots) {
    if (left <= 0) break;
    const take = Math.min(left, lot.contracts);
    slices.push({ contracts: take, loanPerContract: lot.loanPerContract });
    left -= take;
  }
  return slices;
}

/** The highest knockout among the lots (and `from`, when given); undefined when none is boosted. */
export function highestKnockout(lots: readonly LotRec[], from?: string): Dec | undefined {
  let best = from === undefined ? undefined : dec(from);
  for (const lot of lots) {
    if (lot.knockout !== undefined && (best === undefined || best.lt(lot.knockout))) {
      best = dec(lot.knockout);
    }
  }
  return best;
}

/** The highest knockout among the lots a close of `contracts` (oldest first) leaves. */
export function remainingKnockout(lots: readonly LotRec[], contracts: number): string | undefined {
  let left = contracts;
  const kept: LotRec[] = [];
  for (const lot of lots) {
    const take = Math.min(left, lot.contracts);
    left -= take;
    if (take < lot.contracts) kept.push(lot);
  }
  const best = highestKnockout(kept);
  return best === undefined ? undefined : price(best);
}

// ------------------------------------------------------------------ ends of positions

export function indexPosition(s: ExchangeState, p: PositionRec): void {
  let set = s.positionsByFixture.get(p.contractId);
  if (set === undefined) {
    set = new Set();
    s.positionsByFixture.set(p.contractId, set);
  }
  set.add(p);
}

/** Knocks out every boosted lot on the fixture whose knockout the index has reached. */
export function knockOut(s: ExchangeState, f: FixtureRec): number {
  const held = s.positionsByFixture.get(f.contractId);
  if (held === undefined) return 0;
  let count = 0;
  for (const p of [...held]) {
    const index = dec(indexPrice(f, p.outcome));
    const out = p.lots.filter((l) => l.knockout !== undefined && dec(l.knockout).gte(index));
    if (out.length === 0) continue;
    count += 1;
    const now = s.now();
    let contracts = 0;
    let cost = dec(p.knocked.cost);
    // A knocked-out lot closes at its knockout (docs/api.md 2.7: the row's price is the closing
    // price), whatever index the price was set to.
    let notional = knockedNotional(p.knocked);
    for (const lot of out) {
      contracts += lot.contracts;
      cost = cost.plus(lot.cost);
      notional = notional.plus(dec(lot.knockout!).times(lot.contracts));
    }
    p.lots = p.lots.filter((l) => !out.includes(l));
    p.knocked = {
      ...p.knocked,
      contracts: p.knocked.contracts + contracts,
      notional: notional.toString(),
      cost: cost.toString(),
      tx: `0x${randomHex(32)}`,
    };
    p.updatedAt = now;
    addOpenInterest(s, p.contractId, p.outcome, -contracts);
    if (p.lots.length === 0) finishPosition(s, p, 'knock');
    else s.store?.put('position', p.id, p);
  }
  return count;
}

/**
 * Σ contracts × knockout of the lots knocked out so far. A state file written before knockouts
 * kept it holds notional '0' and only the index of the last knockout: that price stands in.
 */
function knockedNotional(t: ExitTally): Dec {
  const notional = dec(t.notional);
  return t.contracts > 0 && notional.isZero() ? dec(t.price).times(t.contracts) : notional;
}

/** Pays out every position on a fixture just resolved: 1 a contract to the winner, 0 to the
 *  loser, the entry price back on a DRAW. */
export function settleResolved(s: ExchangeState, f: FixtureRec, winner: string): void {
  const held = [...(s.positionsByFixture.get(f.contractId) ?? [])];
  for (const p of held) {
    let payout = dec(0);
    for (const lot of p.lots) {
      const settle = winner === 'DRAW' ? lot.entryPrice : winner === p.outcome ? '1' : '0';
      payout = payout.plus(settlementValue(settle, lot));
    }
    const contracts = heldContracts(p);
    finishPosition(s, p, {
      type: 'SETTLEMENT',
      contractId: p.contractId,
      outcome: p.outcome,
      contracts,
      payout: usdFloor(payout),
      tx: `0x${randomHex(32)}`,
      timestamp: new Date(s.now()).toISOString(),
    });
  }
}

/**
 * Turns a flat (or resolved) position into settlement rows: a KNOCKED_OUT row for the lots
 * knocked out and a CLOSED row for the contracts sold during its life, then the SETTLEMENT row
 * when it resolved. The row of the event that made it flat is the newest.
 */
export function finishPosition(
  s: ExchangeState,
  p: PositionRec,
  last: 'sell' | 'knock' | Settlement,
): void {
  const w = s.walletState(p.wallet);
  // One moment for the rows of one end: the SETTLEMENT's own when it resolved (a clock read
  // again here could be a millisecond later, and the KNOCKED_OUT and CLOSED rows would then
  // read as after the result).
  const timestamp = typeof last === 'object' ? last.timestamp : new Date(s.now()).toISOString();
  const rows: Settlement[] = [];
  const knockedRow = (): Settlement => ({
    type: 'KNOCKED_OUT',
    contractId: p.contractId,
    outcome: p.outcome,
    contracts: p.knocked.contracts,
    price: price(knockedNotional(p.knocked).dividedBy(p.knocked.contracts)),
    pnl: usd(dec(p.knocked.proceeds).minus(p.knocked.cost)),
    tx: p.knocked.tx,
    timestamp,
  });
  const closedRow = (): Settlement => ({
    type: 'CLOSED',
    contractId: p.contractId,
    outcome: p.outcome,
    contracts: p.sold.contracts,
    price: price(dec(p.sold.notional).dividedBy(p.sold.contracts)),
    pnl: usd(dec(p.sold.proceeds).minus(p.sold.cost)),
    tx: p.sold.tx,
    timestamp,
  });
  if (last === 'knock') {
    if (p.sold.contracts > 0) rows.push(closedRow());
    rows.push(knockedRow());
  } else {
    if (p.knocked.contracts > 0) rows.push(knockedRow());
    if (p.sold.contracts > 0) rows.push(closedRow());
    if (last !== 'sell') rows.push(last);
  }
  for (const row of rows) {
    const rec: SettlementRec = { seq: s.nextSeq(), wallet: p.wallet, row };
    w.settlements.push(rec);
    s.store?.put('settlement', String(rec.seq), rec);
  }
  addOpenInterest(s, p.contractId, p.outcome, -heldContracts(p));
  p.lots = [];
  w.positions.delete(positionKey(p.contractId, p.outcome));
  s.positionsByFixture.get(p.contractId)?.delete(p);
  s.store?.put('position', p.id, null);
}

// ------------------------------------------------------------------ lists

/**
 * A position as GET /positions shows it (docs/api.md 2.6). `value` is what closing all of it at
 * `estimatedClosingPrice` would pay before the sell's fee, lot by lot as a close pays (a boosted
 * lot returns nothing below its loan), rounded down to the cent and at most `maxPayout`; so
 * `pnl = value − collateral` never loses more than the collateral. `entryPrice`, `costBasis` and
 * the collateral are those of the contracts still held.
 */
function positionView(s: ExchangeState, p: PositionRec): Position {
  const f = s.fixtures.get(p.contractId)!;
  const index = indexPrice(f, p.outcome);
  let contracts = 0;
  let weighted = dec(0);
  let collateral = dec(0);
  let maxPayout = dec(0);
  let costBasis = dec(0);
  for (const lot of p.lots) {
    contracts += lot.contracts;
    weighted = weighted.plus(dec(lot.entryPrice).times(lot.contracts));
    collateral = collateral.plus(dec(lot.collateralPerContract).times(lot.contracts));
    maxPayout = maxPayout.plus(dec(1).minus(lot.loanPerContract).times(lot.contracts));
    costBasis = costBasis.plus(lot.cost);
  }
  const knockout = highestKnockout(p.lots);
  const closing = fillPrice('SELL', index, contracts);
  const payout = usdFloor(maxPayout);
  const value = Dec.min(payout, usdFloor(closeReturn(closing, p.lots)));
  const pnl = value.minus(collateral);
  const v: Position = {
    contractId: p.contractId,
    outcome: p.outcome,
    contracts,
    entryPrice: price(weighted.dividedBy(contracts)),
    estimatedClosingPrice: closing,
    boosted: knockout !== undefined,
    costBasis: usd(costBasis),
    value: usd(value),
    pnl: usd(pnl),
    pnlPercent: collateral.isZero() ? '0.0000' : price(pnl.dividedBy(collateral).times(100)),
    maxPayout: payout,
    updatedAt: p.updatedAt,
  };
  if (knockout !== undefined) v.knockout = price(knockout);
  return v;
}

export function listPositions(
  s: ExchangeState,
  wallet: string,
  query: PositionsQuery,
): PositionList {
  const w = s.readWallet(wallet);
  const contractId = query.contractId?.toUpperCase();
  const league = query.league?.toUpperCase();
  const team = query.team?.toUpperCase();
  const matches = [...w.positions.values()].filter(
    (p) =>
      (contractId === undefined || p.contractId === contractId) &&
      (team === undefined || p.outcome === team) &&
      (league === undefined || s.fixtures.get(p.contractId)?.league.toUpperCase() === league),
  );
  const { items, ...counts } = pageOf(matches, query.limit, query.offset);
  return { positions: items.map((p) => positionView(s, p)), ...counts };
}

/** Newest first. */
export function listSettlements(
  s: ExchangeState,
  wallet: string,
  query: SettlementsQuery,
): SettlementList {
  const w = s.readWallet(wallet);
  const contractId = query.contractId?.toUpperCase();
  const team = query.team?.toUpperCase();
  const matches: Settlement[] = [];
  for (let i = w.settlements.length - 1; i >= 0; i--) {
    const row = w.settlements[i]!.row;
    if (contractId !== undefined && row.contractId !== contractId) continue;
    if (team !== undefined && row.outcome !== team) continue;
    if (query.type !== undefined && row.type !== query.type) continue;
    matches.push(row);
  }
  const { items, ...counts } = pageOf(matches, query.limit, query.offset);
  return { settlements: items.map((row) => ({ ...row })), ...counts };
}
