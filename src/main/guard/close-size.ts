/**
 * What a firing rule sells: its share of the contracts held when it fires, rounded down, at
 * least one and never more than are held (docs/guardians.md, "Share"). The guardian, the
 * preview before arming and the daily limits all size a close here.
 */
import { dec, toMicros } from '../../shared/money.js';
import type { StoredPosition } from '../store/index.js';

/** What a close sells: the rule's share of the position, at least one contract. */
export interface CloseSize {
  contracts: number;
  /** Their share of the position's cost basis, micro-dollars (the daily stake limit). */
  stakeMicros: number;
}

export function closeSize(position: StoredPosition, sharePercent: number): CloseSize {
  const held = position.contracts;
  return saleOf(position, Math.min(held, Math.max(1, Math.floor((held * sharePercent) / 100))));
}

/** A sale of `contracts` of the position (a knockout guard's, boosted.ts), with its stake. */
export function saleOf(position: StoredPosition, contracts: number): CloseSize {
  const held = position.contracts;
  const stake = dec(position.costBasis).times(contracts).dividedBy(held).toFixed(6);
  return { contracts, stakeMicros: toMicros(stake) };
}
