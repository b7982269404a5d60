/**
 * One guardian rule as the dialog and the defaults form edit it: text fields as typed, checked
 * into a GuardSpec (src/shared/ipc/schemas/guards.ts) or a sentence saying what is wrong.
 * Decimal strings only; a figure is compared through the money module, never as a float.
 */
import type { GuardKind, GuardLimits, GuardSpec } from '../../../shared/ipc/contract.js';
import { dec, isDecimalString } from '../../../shared/money.js';
import {
  GUARD_PROBLEMS,
  guardFields,
  guardSpecProblem,
  percentOf,
  wholeOf,
} from '../../../shared/rules/guard-kinds.js';

/** The position a Guard dialog arms rules on. */
export interface GuardTarget {
  contractId: string;
  outcome: string;
  /** The fixture as people name it: "ARS v CHE". */
  name: string;
  /** False for a bet without a boost: it has no knockout, so no knockout guard. */
  boosted?: boolean;
}

export interface GuardDraft {
  kind: GuardKind;
  /** stop_loss and take_profit: a P&L percentage, or a closing price. */
  by: 'percent' | 'price';
  /** The percentage, the price or the minutes, as typed. */
  figure: string;
  /** % of the position's contracts to sell. */
  share: string;
  /** Consecutive fresh observations the condition must hold on. */
  confirmations: string;
}

/** What each kind's figure is, for the field's label and its placeholder. */
export function figureLabel(draft: Pick<GuardDraft, 'kind' | 'by'>): string {
  switch (draft.kind) {
    case 'knockout':
      return 'Close within (% of the knockout)';
    case 'stop_loss':
      return draft.by === 'price' ? 'Close at closing price' : 'Close at a loss of (%)';
    case 'take_profit':
      return draft.by === 'price' ? 'Close at closing price' : 'Close at a profit of (%)';
    case 'trailing_stop':
      return 'Close when it falls below its best by (%)';
    case 'time_exit':
      return 'Minutes before kick-off';
  }
}

const FIRST_FIGURE: Record<GuardKind, string> = {
  knockout: '5',
  stop_loss: '20',
  take_profit: '15',
  trailing_stop: '10',
  time_exit: '15',
};

/** A new rule of `kind`, with a figure to start from (nothing is armed until the user says). */
export function newDraft(kind: GuardKind = 'knockout'): GuardDraft {
  return { kind, by: 'percent', figure: FIRST_FIGURE[kind], share: '100', confirmations: '1' };
}

/**
 * The draft with another kind, keeping its share and checks. The figure a kind starts from,
 * untouched, becomes the new kind's own; a figure the user typed is cleared, never replaced by
 * a default: it meant something for the old kind, and a rule is armed only on a figure typed
 * for its own (a "0" typed before a change of kind once armed a 5 % knockout guard).
 */
export function withKind(draft: GuardDraft, kind: GuardKind): GuardDraft {
  const untouched = draft.by === 'percent' && draft.figure === FIRST_FIGURE[draft.kind];
  return { ...draft, kind, by: 'percent', figure: untouched ? FIRST_FIGURE[kind] : '' };
}

/** A rule as the form shows it (Change, or the account's defaults). */
export function draftOf(spec: GuardSpec): GuardDraft {
  const by = spec.price !== undefined ? 'price' : 'percent';
  const figure =
    spec.kind === 'time_exit' ? String(spec.minutes ?? '') : (spec.price ?? spec.percent ?? '');
  return {
    kind: spec.kind,
    by,
    figure,
    share: String(spec.sharePercent),
    confirmations: String(spec.confirmations),
  };
}

/** A whole number from `min` to `max`, as typed; null otherwise. */
function wholeIn(text: string, min: number, max: number): number | null {
  const n = wholeOf(text);
  return n !== null && n >= min && n <= max ? n : null;
}

/**
 * The rule the draft says, or why it is not one: the text is read here, its sense is judged by
 * the one definition main and the CLI use too (src/shared/rules/guard-kinds.ts).
 */
export function specOf(draft: GuardDraft): { spec: GuardSpec } | { problem: string } {
  const sharePercent = wholeOf(draft.share);
  if (sharePercent === null) return { problem: GUARD_PROBLEMS.share };
  const confirmations = wholeOf(draft.confirmations);
  if (confirmations === null) return { problem: GUARD_PROBLEMS.confirmations };
  const spec: GuardSpec = { kind: draft.kind, sharePercent, confirmations };
  const figure = draft.figure.trim();
  if (draft.kind === 'time_exit') {
    const minutes = wholeOf(figure);
    if (minutes === null) return { problem: GUARD_PROBLEMS.minutes };
    spec.minutes = minutes;
  } else if (draft.by === 'price' && guardFields(draft.kind).includes('price')) {
    spec.price = figure;
  } else {
    // Malformed text is judged as the empty figure would be: the kind's own sentence.
    spec.percent = percentOf(figure) ?? 'none';
  }
  const problem = guardSpecProblem(spec);
  return problem === null ? { spec } : { problem };
}

/** The daily limits as the form holds them: blank contracts or stake means no such limit. */
export interface LimitsDraft {
  closes: string;
  contracts: string;
  stake: string;
}

export function limitsDraftOf(limits: GuardLimits): LimitsDraft {
  return {
    closes: String(limits.closes),
    contracts: limits.contracts === null ? '' : String(limits.contracts),
    stake: limits.stake ?? '',
  };
}

/** The limits the draft says, or why they are not limits. */
export function limitsOf(draft: LimitsDraft): { limits: GuardLimits } | { problem: string } {
  const closes = wholeIn(draft.closes, 0, 1000);
  if (closes === null) {
    return { problem: 'Automatic closes a day: a whole number from 0 (none) to 1000.' };
  }
  const c = draft.contracts.trim();
  const contracts = c === '' ? null : /^[1-9][0-9]{0,8}$/.test(c) ? Number(c) : undefined;
  if (contracts === undefined) {
    return { problem: 'Contracts a day: a whole number above 0, or blank for no limit.' };
  }
  const s = draft.stake.trim().replace(/^\$/, '');
  if (s !== '' && (!isDecimalString(s) || dec(s).lte(0) || dec(s).decimalPlaces() > 2)) {
    return { problem: 'Stake a day: dollars above 0 with up to two places, or blank.' };
  }
  return { limits: { closes, contracts, stake: s === '' ? null : dec(s).toFixed() } };
}
