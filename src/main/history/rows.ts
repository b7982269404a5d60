/**
 * A stored settlement as every screen lists it: History's rows and detail, the Portfolio's
 * latest settlements. Realized P&L and where it comes from: docs/pnl.md.
 */
import type { SettlementRow } from '../../shared/ipc/contract.js';
import type { fixtureLookup } from '../desk/rows.js';
import type { StoredSettlement } from '../store/index.js';

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
    // Placeholder until realized P&L lands (issue 18): the exchange's figure where it has one.
    realizedPnl: r.pnl ?? null,
    costBasis: null,
    pnlSource: r.pnl === undefined ? 'unknown' : 'exchange',
    pnlNote: r.pnl === undefined ? 'Not worked out yet.' : null,
  };
}
