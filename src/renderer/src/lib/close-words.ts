/**
 * A close's figures as the slip says them (QuoteDetails, ConfirmBet): each with where it comes
 * from, an estimate before the fill and the exchange's figures after it (state/slip-close.svelte.ts).
 */
import { dec } from '../../../shared/money.js';
import { FEE_RATE } from '../../../shared/rules/close.js';
import { contractCount, money, pnlWord, signedMoney } from './format.js';
import type { CloseView } from './state/slip-close.svelte.js';

export interface CloseLine {
  label: string;
  value: string;
}

/** The exchange's fee as people read it: "1 %". */
const FEE_PERCENT = `${dec(FEE_RATE).times(100).toString()} %`;

const pnlText = (pnl: string): string => `${signedMoney(pnl)} ${pnlWord(pnl)}`;

/** Proceeds and P&L: the exchange's once filled, else "about", and what the exchange booked. */
export function closeLines(view: CloseView): CloseLine[] {
  const { estimate, result, booked } = view;
  const lines: CloseLine[] = result
    ? [
        { label: 'Proceeds (exchange’s)', value: money(result.proceeds) },
        { label: 'P&L locked in', value: pnlText(result.pnl) },
      ]
    : [
        {
          label: 'Proceeds (estimate)',
          value: estimate ? `about ${money(estimate.proceeds)}` : '—',
        },
        {
          label: 'P&L locked in (estimate)',
          value: estimate ? `about ${pnlText(estimate.pnl)}` : '—',
        },
      ];
  if (booked) lines.push({ label: 'Booked by the exchange', value: pnlText(booked.pnl) });
  return lines;
}

/** Where the figures come from, in a sentence or two; null when there are none. */
export function closeNote(view: CloseView): string | null {
  const { estimate, result, booked } = view;
  if (result) {
    const n = contractCount(result.contracts);
    const cost =
      result.basis === 'lots'
        ? `what the ${n} sold cost (${money(result.cost)}, oldest lots first)`
        : `their share of the average cost (${money(result.cost)}): the orders that built this position are not all stored`;
    const row = booked
      ? ` Booked: the exchange’s CLOSED row for the position (${contractCount(booked.contracts)}${
          booked.contracts > result.contracts ? ', every sale of it' : ''
        }).`
      : '';
    return `P&L = the exchange’s proceeds − ${cost}.${row}`;
  }
  if (!estimate) return null;
  if (estimate.basis === 'average') {
    return `Estimate from the average cost: the orders that built this position are not all stored. Proceeds after the ${FEE_PERCENT} fee.`;
  }
  return `Estimated as the exchange closes: oldest lots first, at the sell price less any boost loan and the ${FEE_PERCENT} fee; P&L = proceeds − those lots’ cost (${money(estimate.cost)}).`;
}
