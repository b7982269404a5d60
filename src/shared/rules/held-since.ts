/**
 * When the position open now on an outcome began: a chart and a row speak of that position,
 * not of an earlier, finished one on the same outcome (docs/desk.md, "Positions").
 *
 * The lots are rebuilt from the FILLED orders as the exchange keeps them (docs/pnl.md): a BUY
 * adds a lot, a SELL takes the oldest first. The position began at the first BUY after the
 * outcome was last flat: sold to nothing, or holding only boosted lots that are knocked out by
 * now (their knockout is above the highest the position shows, or it shows none). The exchange
 * does not say when a knockout happened: a lot knocked out after a later buy counts as gone at
 * that buy (the position starts a little late), and a knocked-out lot whose knockout is below
 * the held ones' cannot be told from a held one (it starts early).
 */
import type { Order } from '../api/schemas.js';
import { dec } from '../money.js';
import { sellOldest } from './lots.js';

/** The position as read: its highest knockout now (null: no boosted contract held). */
export interface HeldPosition {
  knockout: string | null;
}

/** The local time (the order's createdAt) the position open now began; null: no BUY stored. */
export function heldSince(fills: readonly Order[], position: HeldPosition): number | null {
  const gone = (knockout: string | null): boolean =>
    knockout !== null && (position.knockout === null || dec(knockout).gt(position.knockout));
  let lots: { contracts: number; knockout: string | null }[] = [];
  let since: number | null = null;
  const ordered = [...fills].sort((a, b) => a.createdAt - b.createdAt);
  for (const o of ordered) {
    if (o.status !== 'FILLED') continue;
    if (o.side === 'BUY') {
      if (lots.every((l) => gone(l.knockout))) {
        lots = [];
        since = o.createdAt;
      }
      lots.push({ contracts: o.contracts, knockout: o.boost > 0 ? (o.knockout ?? null) : null });
      continue;
    }
    sellOldest(lots, o.contracts);
  }
  return since;
}
