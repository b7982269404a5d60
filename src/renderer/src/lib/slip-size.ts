/**
 * The slip's size, read and checked before a quote is asked for: what was typed (size-input.ts),
 * then the fixture's lots and minimum (docs/api.md 2.2, 2.4: a contract-sized open rounds to the
 * nearest lot, halves up; a close rounds down; the exchange refuses fewer than `minContracts`).
 * What the exchange alone can judge (a dollar amount's contracts, its capacity) is left to the
 * quote, whose refusal main words as a sentence.
 */
import { dec, Dec } from '../../../shared/money.js';
import { contractCount } from './format.js';
import { readSize, type Separators } from './size-input.js';

/** A fixture's lot size and smallest bet, in contracts (docs/api.md 2.1, Fixture). */
export interface Lots {
  lotSize: number;
  minContracts: number;
}

export interface SlipSizeFacts {
  side: 'BUY' | 'SELL';
  unit: 'BASE' | 'QUOTE';
  text: string;
  /** Null when the fixture's lots are not known here (the exchange then decides). */
  lots: Lots | null;
  fixtureName: string;
  seps?: Separators;
}

export interface SlipSize {
  /** The size as the API takes it, or null when there is none to quote. */
  qty: string | null;
  /** Why it cannot be quoted, or null. */
  problem: string | null;
  /** What the slip will send when it differs from what was typed ("Read as 12000 contracts."). */
  note: string | null;
}

/**
 * "Lots of 5 contracts; the smallest bet is 10 contracts." A close has no minimum (docs/api.md
 * 2.4 names it for bets), only lots; null when it sells whole contracts.
 */
export function lotsText(lots: Lots, side: 'BUY' | 'SELL' = 'BUY'): string | null {
  if (side === 'SELL')
    return lots.lotSize === 1 ? null : `Sold in lots of ${contractCount(lots.lotSize)}.`;
  const lot = lots.lotSize === 1 ? 'Whole contracts' : `Lots of ${contractCount(lots.lotSize)}`;
  return `${lot}; the smallest bet is ${contractCount(lots.minContracts)}.`;
}

export function slipSize(f: SlipSizeFacts): SlipSize {
  const read = readSize(f.text, f.unit, f.seps);
  if (read === null) return { qty: null, problem: null, note: null };
  if (!read.ok) return { qty: null, problem: read.problem, note: null };
  const { qty } = read;
  const dollars = f.unit === 'QUOTE';
  const readAs = read.rewritten
    ? `Read as ${dollars ? `$${dec(qty).toFixed(2)}` : contractCount(dec(qty))}.`
    : null;
  if (dollars || f.lots === null) return { qty, problem: null, note: readAs };

  const { lotSize, minContracts } = f.lots;
  const lots = dec(qty).dividedBy(lotSize);
  const closing = f.side === 'SELL';
  const rounded = (closing ? lots.floor() : lots.toDecimalPlaces(0, Dec.ROUND_HALF_UP)).times(
    lotSize,
  );
  if (closing && rounded.isZero()) {
    return {
      qty: null,
      problem: `Too small: ${f.fixtureName} is sold in lots of ${contractCount(lotSize)}.`,
      note: null,
    };
  }
  if (!closing && rounded.lt(minContracts)) {
    const lotWords = lotSize === 1 ? '' : ` (lots of ${contractCount(lotSize)})`;
    return {
      qty: null,
      problem: `Too small: the smallest bet on ${f.fixtureName} is ${contractCount(minContracts)}${lotWords}.`,
      note: null,
    };
  }
  if (!rounded.eq(qty)) {
    const verb = closing ? 'Sells' : 'Rounds to';
    return {
      qty,
      problem: null,
      note: `${verb} ${contractCount(rounded)}: ${f.fixtureName} trades in lots of ${contractCount(lotSize)}.`,
    };
  }
  return { qty, problem: null, note: readAs };
}
