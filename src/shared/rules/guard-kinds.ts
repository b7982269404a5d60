/**
 * The one definition of every guardian rule kind (docs/guardians.md): which figure each takes,
 * its range, the share and the confirmations, and the sentence that says what is wrong. The
 * dialog and the defaults form (renderer), the CLI's `guard add` and main's own check before
 * arming all ask this module, so none of them accepts what another refuses.
 * Decimal strings only; a figure is compared through the money module, never as a float.
 */
import type { GuardKind, GuardSpec } from '../ipc/contract.js';
import { dec, isDecimalString } from '../money.js';

export type GuardField = 'percent' | 'price' | 'minutes';

interface KindRule {
  /** The fields that fit the kind: exactly one of them is given. */
  fields: readonly GuardField[];
  /** What the kind asks for, in words (after "takes exactly one figure: "). */
  asks: string;
  /** The largest percentage (inclusive), where the kind takes one. */
  maxPercent?: string;
  /** The sentence when the percentage is out of range or malformed. */
  percentProblem?: string;
}

const KINDS: Record<GuardKind, KindRule> = {
  knockout: {
    fields: ['percent'],
    asks: 'a percentage of the index price from the knockout (percent)',
    maxPercent: '99.99',
    percentProblem: 'A knockout guard’s % is above 0 and below 100, with up to two places, like 5.',
  },
  stop_loss: {
    fields: ['percent', 'price'],
    asks: 'a P&L percentage (percent) or a closing price (price)',
    maxPercent: '100',
    percentProblem: 'A loss is a % above 0 and at most 100, with up to two places, like 20.',
  },
  take_profit: {
    fields: ['percent', 'price'],
    asks: 'a P&L percentage (percent) or a closing price (price)',
    maxPercent: '999.99',
    percentProblem: 'A profit is a % above 0 and below 1000, with up to two places, like 15.',
  },
  trailing_stop: {
    fields: ['percent'],
    asks: 'a percentage below the best closing price (percent)',
    maxPercent: '99.99',
    percentProblem: 'A trailing stop’s % is above 0 and below 100, with up to two places, like 10.',
  },
  time_exit: { fields: ['minutes'], asks: 'minutes before kick-off (minutes)' },
};

export const GUARD_KIND_NAMES: Record<GuardKind, string> = {
  knockout: 'knockout guard',
  stop_loss: 'stop loss',
  take_profit: 'take profit',
  trailing_stop: 'trailing stop',
  time_exit: 'time exit',
};

export const GUARD_BOUNDS = {
  share: { min: 1, max: 100 },
  confirmations: { min: 1, max: 10 },
  minutes: { min: 1, max: 1440 },
} as const;

export const GUARD_PROBLEMS = {
  share: 'The share to close is a whole % from 1 to 100.',
  confirmations: 'Confirmations are a whole number of fresh checks from 1 to 10.',
  minutes: 'Minutes before kick-off: a whole number from 1 to 1440.',
  price: 'A closing price is between 0 and 1 with up to four places, like 0.4200.',
} as const;

const PERCENT = /^(?:0|[1-9][0-9]{0,2})(?:\.[0-9]{1,2})?$/;
const PRICE = /^0\.[0-9]{1,4}$/;

/** The fields `kind` takes (exactly one of them). */
export function guardFields(kind: GuardKind): readonly GuardField[] {
  return KINDS[kind].fields;
}

function wholeIn(n: number, b: { min: number; max: number }): boolean {
  return Number.isInteger(n) && n >= b.min && n <= b.max;
}

/**
 * What is wrong with `spec`, in one sentence, or null when it is a rule: the same verdict for
 * the app's form, the CLI and main (docs/guardians.md, "The rules").
 */
export function guardSpecProblem(spec: GuardSpec): string | null {
  const k = KINDS[spec.kind];
  const name = GUARD_KIND_NAMES[spec.kind];
  const given = (['percent', 'price', 'minutes'] as const).filter((f) => spec[f] !== undefined);
  const wrong = given.filter((f) => !k.fields.includes(f));
  if (wrong.length > 0 || given.length !== 1) {
    return (
      `A ${name} takes exactly one figure: ${k.asks}` +
      (wrong.length > 0 ? `, not ${wrong.join(' or ')}.` : '.')
    );
  }
  if (!wholeIn(spec.sharePercent, GUARD_BOUNDS.share)) return GUARD_PROBLEMS.share;
  if (!wholeIn(spec.confirmations, GUARD_BOUNDS.confirmations)) {
    return GUARD_PROBLEMS.confirmations;
  }
  if (spec.percent !== undefined) {
    const p = spec.percent;
    const ok =
      PERCENT.test(p) && isDecimalString(p) && dec(p).gt(0) && dec(p).lte(k.maxPercent ?? '0');
    if (!ok) return k.percentProblem ?? `A ${name} takes no percentage.`;
  }
  if (spec.price !== undefined && !(PRICE.test(spec.price) && dec(spec.price).gt(0))) {
    return GUARD_PROBLEMS.price;
  }
  if (spec.minutes !== undefined && !wholeIn(spec.minutes, GUARD_BOUNDS.minutes)) {
    return GUARD_PROBLEMS.minutes;
  }
  return null;
}

/** A typed percentage as the spec holds it ("5 %" -> "5", "2.50" -> "2.5"), or null. */
export function percentOf(text: string): string | null {
  const t = text.trim().replace(/\s*%$/, '');
  if (!PERCENT.test(t) || !isDecimalString(t)) return null;
  return dec(t).toFixed();
}

/** A typed whole number (at most four digits), or null. */
export function wholeOf(text: string): number | null {
  const t = text.trim();
  return /^[0-9]{1,4}$/.test(t) ? Number(t) : null;
}

/**
 * Two specs that watch the same figure the same way and close the same share: the second
 * would never act (the first closes first), so arming it is refused. Confirmations aside: a
 * rule that only waits longer is the same exit.
 */
export function sameGuard(a: GuardSpec, b: GuardSpec): boolean {
  const same = (x: string | undefined, y: string | undefined) =>
    x === y || (x !== undefined && y !== undefined && dec(x).eq(y));
  return (
    a.kind === b.kind &&
    a.sharePercent === b.sharePercent &&
    a.minutes === b.minutes &&
    same(a.percent, b.percent) &&
    same(a.price, b.price)
  );
}
