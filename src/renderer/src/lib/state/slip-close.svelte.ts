/**
 * A close (SELL) from the bet slip: what it would fetch and lock in, and once filled what it did.
 * The position is kept as it was when the close was sent, so nothing the slip says of the sale is
 * worked out from the position the sale left (its oldest lots are no longer the ones sold). Once
 * the SELL is FILLED the slip speaks from the exchange's proceeds, and once the sale made the
 * position flat, from the exchange's CLOSED row for it too (src/shared/rules/close.ts,
 * docs/desk.md "Positions").
 */
import type { OrderRow, PositionRow } from '../../../../shared/ipc/contract.js';
import {
  closeResult,
  estimateClose,
  type CloseEstimate,
  type CloseResult,
} from '../../../../shared/rules/close.js';
import type { Bridge } from '../bridge.js';

/** The exchange's CLOSED row for the position the close made flat: what it booked. */
export interface BookedClose {
  pnl: string;
  /** Every contract sold while the position was open, this sale's among them. */
  contracts: number;
}

/** What the slip says of a close. */
export interface CloseView {
  /** Before the fill: from the quote and the position as it was when sent (or is, until then). */
  estimate: CloseEstimate | null;
  /** Once FILLED: the exchange's proceeds less the cost of the lots sold. */
  result: CloseResult | null;
  booked: BookedClose | null;
}

/** What the slip knows of the close it shows. */
export interface CloseFacts {
  /** The slip's bet; the close sent under it, if any, is the one shown. */
  clientOrderId: string | null;
  /** The position held now. */
  current: PositionRow | null;
  /** The quote's contracts and sell price. */
  contracts: number;
  sellPrice: string;
  /** The bet's order, once placed. */
  order: OrderRow | null;
}

interface SentClose {
  clientOrderId: string;
  position: PositionRow;
}

export class SlipClose {
  /** The close sent last and the position it sold from. */
  #sent = $state.raw<SentClose | null>(null);
  #booked = $state.raw<(BookedClose & { clientOrderId: string }) | null>(null);
  #looking = false;
  #again = false;
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  /** The close `clientOrderId` is being sent, selling from `position` as it is now. */
  sending(clientOrderId: string, position: PositionRow | null): void {
    this.#sent = position ? { clientOrderId, position } : null;
    this.#booked = null;
  }

  forget(): void {
    this.#sent = null;
    this.#booked = null;
  }

  view(facts: CloseFacts): CloseView {
    const sent = this.#sent?.clientOrderId === facts.clientOrderId ? this.#sent : null;
    // Placed without the position it sold from (never expected): nothing rather than a figure
    // from the position the sale left.
    const position = sent ? sent.position : facts.order ? null : facts.current;
    const estimate = position ? estimateClose(position, facts.contracts, facts.sellPrice) : null;
    const o = facts.order;
    const result =
      sent && o?.status === 'FILLED' && o.proceeds !== null && o.contracts !== null
        ? closeResult(sent.position, o.contracts, o.proceeds)
        : null;
    const booked = this.#booked?.clientOrderId === facts.clientOrderId ? this.#booked : null;
    return {
      estimate,
      result,
      booked: booked && { pnl: booked.pnl, contracts: booked.contracts },
    };
  }

  /**
   * Reads the exchange's CLOSED row for the position once `order`, the close sent, filled and
   * sold all of it (the exchange writes the row when a position is flat: docs/api.md 2.7). The
   * newest CLOSED row on the outcome settled at or after the order was accepted is that one.
   * History that cannot be read now is asked again at its next change (`history:changed`).
   */
  async lookUp(order: OrderRow | null): Promise<void> {
    const sent = this.#sent;
    if (sent === null || order === null || order.clientOrderId !== sent.clientOrderId) return;
    if (order.status !== 'FILLED' || order.side !== 'SELL' || order.contracts === null) return;
    if (order.contracts < sent.position.contracts) return;
    if (this.#booked?.clientOrderId === sent.clientOrderId) return;
    // A change while a read is out is read again after it: the row may have come in between.
    if (this.#looking) {
      this.#again = true;
      return;
    }
    this.#looking = true;
    try {
      do {
        this.#again = false;
        const row = await this.#closedRow(sent.position);
        if (this.#sent !== sent) return;
        if (row && row.settledAt >= order.createdAt) {
          this.#booked = {
            clientOrderId: sent.clientOrderId,
            pnl: row.pnl,
            contracts: row.contracts,
          };
          return;
        }
      } while (this.#again);
    } finally {
      this.#looking = false;
    }
  }

  /** The newest CLOSED row on the position's outcome; null when none, or History cannot be read. */
  async #closedRow(
    position: PositionRow,
  ): Promise<{ pnl: string; contracts: number; settledAt: number } | null> {
    try {
      const page = await this.#bridge.invoke('history:list', {
        filter: { type: 'CLOSED', contractId: position.contractId, team: position.outcome },
        sort: 'time',
        limit: 1,
        offset: 0,
      });
      const row = page.rows[0];
      return row?.pnl == null ? null : { ...row, pnl: row.pnl };
    } catch {
      // The slip keeps its figure from the exchange's proceeds; history:changed asks again.
      return null;
    }
  }
}
