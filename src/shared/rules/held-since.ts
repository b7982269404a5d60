/**
 * When the position open now on an outcome began: a chart and a row speak of that position,
 * not of an earlier, finished one on the same outcome (docs/desk.md, "Positions").
 *
 * The lots are rebuilt from the FILLED orders as the exchange keeps them (lots.ts, docs/pnl.md).
 * The position began at the first BUY after the outcome was last flat: sold to nothing, or
 * holding only boosted lots that are knocked out by now (lots.ts says how a knockout's unknown
 * moment is read).
 */
import type { Order } from '../api/schemas.js';
import { replayLots, type KnockoutNow } from './lots.js';

/** The position as read: its highest knockout now (null: no boosted contract held). */
export type HeldPosition = KnockoutNow;

/** The local time (the order's createdAt) the position open now began; null: no BUY stored. */
export function heldSince(fills: readonly Order[], position: HeldPosition): number | null {
  return replayLots(fills, position).since;
}
