/**
 * The guardians' words: how a rule is named, how far it is from firing, why it holds, and what
 * the log and the alerts say it did. One place, so the screen, the log, the alert and the CLI
 * say the same thing (docs/guardians.md).
 */
import type { GuardHold, GuardKind, GuardSpec } from '../../shared/ipc/contract.js';
import { dec, type Dec } from '../../shared/money.js';
import { GUARD_KIND_NAMES } from '../../shared/rules/guard-kinds.js';

export function kindName(kind: GuardKind): string {
  return GUARD_KIND_NAMES[kind];
}

/**
 * "2.4 %", "−5 %", "+5 %" (signed): a percentage as people read it, at most two places, so a
 * rule's own figure (at most two places, src/shared/rules/guard-kinds.ts) reads exactly as
 * armed: 99.99 is never "100 %", 2.55 never "2.6 %".
 */
export function pct(value: Dec | string, signed = false): string {
  const d = dec(value).toDecimalPlaces(2);
  const abs = d.abs().toString();
  const sign = d.isNegative() && !d.isZero() ? '−' : signed && d.gt(0) ? '+' : '';
  return `${sign}${abs} %`;
}

/** "0.4200": a price as the exchange shows it. */
export function priceText(value: Dec | string): string {
  return dec(value).toFixed(4);
}

/** "42 min", "2 h 5 min". */
export function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** What the rule watches and when it fires: "stop loss at −5 %", "time exit 15 min before kick-off". */
export function ruleText(spec: GuardSpec): string {
  const name = kindName(spec.kind);
  const share = spec.sharePercent === 100 ? '' : `, closes ${spec.sharePercent} %`;
  const confirm =
    spec.confirmations === 1 ? '' : `, after ${spec.confirmations} fresh observations`;
  return `${name} ${trigger(spec)}${share}${confirm}`;
}

function trigger(spec: GuardSpec): string {
  switch (spec.kind) {
    case 'knockout':
      return `within ${pct(spec.percent ?? '0')} of the knockout`;
    case 'stop_loss':
      return spec.price !== undefined
        ? `at a closing price of ${priceText(spec.price)}`
        : `at ${pct(dec(spec.percent ?? '0').neg(), true)}`;
    case 'take_profit':
      return spec.price !== undefined
        ? `at a closing price of ${priceText(spec.price)}`
        : `at ${pct(spec.percent ?? '0', true)}`;
    case 'trailing_stop':
      return `${pct(spec.percent ?? '0')} below the best closing price`;
    case 'time_exit':
      return `${minutesText(spec.minutes ?? 0)} before kick-off`;
  }
}

/** "ARS (ARS v CHE)": the position a rule is on. */
export function positionText(outcome: string, fixture: string): string {
  return fixture === outcome ? outcome : `${outcome} (${fixture})`;
}

export const HOLD_MESSAGES: Record<Exclude<GuardHold, 'budget' | 'limit'>, string> = {
  stale: 'Waiting for fresh prices.',
  paused: 'Guardians are paused: nothing fires until you resume them.',
  position: 'Waiting for the position to show in the positions.',
};

export function contractsText(n: number): string {
  return `${n} contract${n === 1 ? '' : 's'}`;
}

/** The time of day a held close will be sent, local: "14:32:05". */
export function clockText(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}
