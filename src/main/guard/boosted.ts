/**
 * What a knockout guard sells: its share of the boosted contracts a position still holds, the
 * ones it protects (docs/guardians.md, "Knockout guard"). GET /positions says only whether a
 * position is boosted and its highest knockout, so the lots are rebuilt from the account's
 * FILLED orders the way the exchange keeps them (src/shared/rules/lots.ts, docs/pnl.md):
 * a BUY adds a lot (boosted when its boost is above 0, with its knockout), a SELL takes the
 * oldest lots first, and a boosted lot whose knockout is above the position's highest knockout
 * now was knocked out. A sale goes oldest first too, so closing boosted contracts bought after
 * unboosted ones sells those first. Where the orders do not add up to the contracts held (some
 * are not in the store), nothing can be proven and the sale is null: the guard then holds and
 * says why rather than sell what it cannot prove protects a boosted contract.
 */
import type { Order } from '../../shared/api/schemas.js';
import { heldLots as rebuiltLots, type Lot } from '../../shared/rules/lots.js';
import type { Store, StoredPosition } from '../store/index.js';

/** The position's lots now, oldest first, from its FILLED orders; null: they do not add up. */
function heldLots(position: StoredPosition, fills: readonly Order[]): Lot[] | null {
  return rebuiltLots(fills, { knockout: position.knockout ?? null, contracts: position.contracts });
}

/** What a knockout guard sells: how many contracts, of which how many are boosted. */
export interface KnockoutSale {
  /** Contracts to sell: the exchange sells the oldest first, unboosted ones included. */
  contracts: number;
  /** The boosted contracts that sale closes: the rule's share of those held. */
  boosted: number;
}

/**
 * The sale that closes `sharePercent` of the boosted contracts held (at least one): the
 * exchange takes the oldest lots first, so the contracts bought before them go too. null when
 * the lots cannot be rebuilt from the orders; `boosted` 0 when none is held.
 */
export function knockoutSale(
  position: StoredPosition,
  fills: readonly Order[],
  sharePercent: number,
): KnockoutSale | null {
  if (!position.boosted || position.knockout === undefined) return { contracts: 0, boosted: 0 };
  const lots = heldLots(position, fills);
  if (lots === null) return null;
  const held = lots.reduce((n, l) => n + (l.knockout === null ? 0 : l.contracts), 0);
  if (held === 0) return null;
  const want = Math.min(held, Math.max(1, Math.floor((held * sharePercent) / 100)));
  let contracts = 0;
  let boosted = 0;
  for (const lot of lots) {
    if (boosted >= want) break;
    const take = lot.knockout === null ? lot.contracts : Math.min(lot.contracts, want - boosted);
    contracts += take;
    if (lot.knockout !== null) boosted += take;
  }
  return { contracts, boosted };
}

/** knockoutSale for a position of the store's account, from its stored orders. */
export function storedKnockoutSale(
  store: Store,
  accountId: number,
  position: StoredPosition,
  sharePercent: number,
): KnockoutSale | null {
  const fills = store.orders.listBetween(
    accountId,
    position.contractId,
    position.outcome,
    null,
    Number.MAX_SAFE_INTEGER,
  );
  return knockoutSale(position, fills, sharePercent);
}
