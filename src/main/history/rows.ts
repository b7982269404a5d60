/**
 * A stored settlement as every screen lists it: History's rows and detail, the Portfolio's
 * latest settlements. Realized P&L and where it comes from: docs/pnl.md.
 */
import type { SettlementRow } from '../../shared/ipc/contract.js';
import type { fixtureLookup } from '../desk/rows.js';
import { moneyText } from '../pnl/amounts.js';
import type { StoredSettlement } from '../store/index.js';

/** The note of a row the upgrade's backfill has not reached yet. */
export const NOT_WORKED_OUT = 'Being worked out from your orders after the upgrade.';

export function settlementRow(
  r: StoredSettlement,
  fixture: ReturnType<typeof fixtureLookup>,
): SettlementRow {
  return {
    id: r.id,
    type: r.type,
    contractId: r.contractId,
    fixture: fixture(r.contractId),
    outcome: r.outcome,
    contracts: r.contracts,
    price: r.price ?? null,
    pnl: r.pnl ?? null,
    payout: r.payout ?? null,
    tx: r.tx,
    settledAt: r.settledAt,
    // The exchange's own string where the figure is its pnl; else exact micros with the cents.
    realizedPnl:
      r.realizedMicros === null
        ? null
        : r.pnlSource === 'exchange' && r.pnl !== undefined
          ? r.pnl
          : moneyText(r.realizedMicros),
    costBasis: r.basisMicros === null ? null : moneyText(r.basisMicros),
    pnlSource: r.pnlSource,
    // Not worked out yet: an upgraded store's row the backfill has not reached.
    pnlNote: r.pnlSource === 'unknown' && r.pnlNote === null ? NOT_WORKED_OUT : r.pnlNote,
  };
}
