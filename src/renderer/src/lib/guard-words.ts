/**
 * Guardians in words (docs/guardians.md): a rule as a compact chip ("Stop −20 %"), how far it is
 * from firing or why it holds, and the guardian log's events. Words carry every state, so none
 * rests on colour alone.
 */
import type {
  GuardHold,
  GuardKind,
  GuardLogEvent,
  GuardRuleView,
  GuardSpec,
  GuardState,
} from '../../../shared/ipc/contract.js';

/** The kinds in the order the menus list them. */
export const GUARD_KINDS_IN_ORDER = [
  'knockout',
  'stop_loss',
  'take_profit',
  'trailing_stop',
  'time_exit',
] as const satisfies readonly GuardKind[];

export const GUARD_KIND_WORDS: Record<GuardKind, string> = {
  knockout: 'Knockout guard',
  stop_loss: 'Stop loss',
  take_profit: 'Take profit',
  trailing_stop: 'Trailing stop',
  time_exit: 'Time exit',
};

/** The log's events in the order the filter lists them (spelled here so TypeBox stays out). */
export const GUARD_EVENTS_IN_ORDER = [
  'armed',
  'disarmed',
  'ended',
  'fired',
  'held',
  'sent',
  'filled',
  'failed',
] as const satisfies readonly GuardLogEvent[];

export const GUARD_EVENT_WORDS: Record<GuardLogEvent, string> = {
  armed: 'Armed',
  disarmed: 'Disarmed',
  ended: 'Ended',
  fired: 'Fired',
  held: 'Held',
  sent: 'Sent',
  filled: 'Filled',
  failed: 'Failed',
};

/** Why a rule that wants to fire does not, when main sent no sentence of its own. */
export const GUARD_HOLD_WORDS: Record<GuardHold, string> = {
  stale: 'waiting for fresh prices',
  paused: 'guardians are paused',
  limit: 'today’s limit on automatic closes is reached',
  budget: 'the order budget is spent',
  position: 'the position is not known yet',
};

/** "Stop −20 %", "KO guard 5 %", "Trail 10 %", "Exit 15 min before kick-off". */
export function guardSpecWords(spec: GuardSpec): string {
  switch (spec.kind) {
    case 'knockout':
      return `KO guard ${spec.percent ?? '?'} %`;
    case 'stop_loss':
      return spec.price !== undefined ? `Stop at ${spec.price}` : `Stop −${spec.percent ?? '?'} %`;
    case 'take_profit':
      return spec.price !== undefined
        ? `Take profit at ${spec.price}`
        : `Take profit +${spec.percent ?? '?'} %`;
    case 'trailing_stop':
      return `Trail ${spec.percent ?? '?'} %`;
    case 'time_exit':
      return `Exit ${spec.minutes ?? '?'} min before kick-off`;
  }
}

/** What it closes and how sure it must be, when not the plain default: "sells 50 % · 3 checks". */
export function guardTermsWords(spec: GuardSpec): string {
  const parts: string[] = [];
  if (spec.sharePercent < 100) parts.push(`sells ${spec.sharePercent} %`);
  if (spec.confirmations > 1) parts.push(`${spec.confirmations} checks`);
  return parts.join(' · ');
}

/** A rule's whole description: "Stop −20 % · sells 50 % · 3 checks". */
export function guardRuleWords(spec: GuardSpec): string {
  const terms = guardTermsWords(spec);
  return terms ? `${guardSpecWords(spec)} · ${terms}` : guardSpecWords(spec);
}

/** How a rule looks now; the chip's colour follows it, its words say it too. */
export type GuardTone = 'watching' | 'held' | 'firing' | 'failed' | 'done';

export function guardTone(rule: Pick<GuardRuleView, 'state' | 'hold'>): GuardTone {
  if (rule.state === 'firing') return 'firing';
  if (rule.state === 'failed') return 'failed';
  if (rule.state !== 'armed') return 'done';
  return rule.hold ? 'held' : 'watching';
}

const STATE_WORDS: Record<Exclude<GuardState, 'armed'>, string> = {
  firing: 'Closing…',
  closed: 'Closed',
  failed: 'Failed',
  disarmed: 'Disarmed',
  ended: 'Ended',
};

/** "6.1 pts away", "Closing…", "Held: waiting for fresh prices", "Failed: betting closed". */
export function guardStatusWords(rule: GuardRuleView): string {
  if (rule.state === 'armed') {
    if (rule.hold) return `Held: ${rule.holdMessage ?? GUARD_HOLD_WORDS[rule.hold]}`;
    return rule.distance ?? 'distance not known yet';
  }
  const word = STATE_WORDS[rule.state];
  return rule.reason && rule.state !== 'firing' ? `${word}: ${rule.reason}` : word;
}

/** The chip: "Stop −20 % · 6.1 pts away"; a share under 100 % shows in brackets. */
export function guardChipWords(rule: GuardRuleView): string {
  const share = rule.spec.sharePercent < 100 ? ` (${rule.spec.sharePercent} %)` : '';
  return `${guardSpecWords(rule.spec)}${share} · ${guardStatusWords(rule)}`;
}

/** The rules a position row shows: watching, closing, or failed (so the failure is seen). */
export function isShownOnRow(rule: GuardRuleView): boolean {
  return rule.state === 'armed' || rule.state === 'firing' || rule.state === 'failed';
}

/** The rules that still watch or act: the ones a row's Guard dialog can change or disarm. */
export function isLive(rule: GuardRuleView): boolean {
  return rule.state === 'armed' || rule.state === 'firing';
}

/**
 * What a sell by hand does to the position's guardians (docs/guardians.md, "Sells by hand"):
 * a sell of everything ends them, a partial one keeps them on what is left. Null with none.
 */
export function sellGuardWords(
  rules: readonly GuardRuleView[],
  selling: number,
  held: number,
): string | null {
  const armed = rules.filter((r) => r.state === 'armed');
  if (armed.length === 0) return null;
  const names = armed.map((r) => guardRuleWords(r.spec)).join(', ');
  const them = armed.length === 1 ? 'it' : 'them';
  if (selling >= held) return `Sells all ${held}: ends your ${names} (nothing left for ${them}).`;
  const n = armed.length === 1 ? 'your rule' : `your ${armed.length} rules`;
  return `Sells ${selling} of ${held}: ${n} (${names}) stay${armed.length === 1 ? 's' : ''} armed on the ${held - selling} left, each selling its share of those.`;
}

/** A guardian is closing the position now: said in the Close slip, so a sell is not raced. */
export function guardClosingWords(rules: readonly GuardRuleView[]): string | null {
  const firing = rules.find((r) => r.state === 'firing');
  if (firing === undefined) return null;
  const sells = firing.contracts === null ? '' : ` ${firing.contracts} of`;
  return `A guardian is closing this position now: your ${guardRuleWords(firing.spec)} fired and is selling${sells} it at the market. Wait for it to finish before you sell more.`;
}
