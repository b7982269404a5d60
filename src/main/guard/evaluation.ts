/**
 * The parts of one guardian evaluation that need no guardian: the daily limits a close would
 * pass, the observation a log row keeps, the kept rules' watching state changed in place, and
 * a claim's clientOrderId (guardian.ts).
 */
import { randomBytes } from 'node:crypto';
import type { GuardLimits, GuardObservation } from '../../shared/ipc/contract.js';
import { dec, toMicros } from '../../shared/money.js';
import type {
  GuardProgress,
  GuardRule,
  LiveGuardProgress,
  StoredPosition,
} from '../store/index.js';
import type { CloseSize } from './close-size.js';
import type { FigureSnapshot } from './figures.js';
import type { Judgement } from './judge.js';
import { contractsText } from './messages.js';

/** What one evaluation has counted toward the daily limits so far. */
export interface DayUse {
  limits: GuardLimits;
  closes: number;
  contracts: number;
  stakeMicros: number;
}

/** The daily limit a close of `size` would pass, in words; null when it fits. */
export function limitWords(day: DayUse, size: CloseSize): string | null {
  const { limits } = day;
  if (day.closes + 1 > limits.closes) {
    return `The daily limit of ${limits.closes} automatic close${limits.closes === 1 ? '' : 's'} is reached (${day.closes} today): it fires again tomorrow, or once you raise the limit.`;
  }
  if (limits.contracts !== null && day.contracts + size.contracts > limits.contracts) {
    return `Selling ${contractsText(size.contracts)} would pass the daily limit of ${contractsText(limits.contracts)} (${day.contracts} sold today): it fires again tomorrow, or once you raise the limit.`;
  }
  if (limits.stake !== null && day.stakeMicros + size.stakeMicros > toMicros(limits.stake)) {
    return `Closing this stake would pass the daily limit of $${limits.stake} closed automatically: it fires again tomorrow, or once you raise the limit.`;
  }
  return null;
}

export function observationOf(
  j: Judgement,
  position: StoredPosition,
  figures: FigureSnapshot,
  rule: GuardRule,
  now: number,
): GuardObservation {
  const index = figures.figures(rule).index;
  // A knockout guard judges a fresh index read; the positions read before it does not describe
  // that moment (its closing price and P&L are from before the move), so they are left out
  // rather than shown beside a price they never met.
  const older =
    index?.readAt != null && figures.snapshotAt !== null && figures.snapshotAt < index.readAt;
  return {
    at: j.observedAt ?? now,
    closingPrice: older ? null : position.estimatedClosingPrice,
    indexPrice: index?.price ?? null,
    pnl: older ? null : position.pnl,
    pnlPercent: older ? null : position.pnlPercent,
    contracts: position.contracts,
  };
}

export function sameDec(a: string, b: string | null): boolean {
  return b !== null && (a === b || dec(a).eq(b));
}

/** The kept rule with the store's watching part of it (liveProgress), changed in place. */
export function keep(rule: GuardRule, p: LiveGuardProgress): GuardRule {
  rule.state = p.state;
  rule.best = p.best;
  rule.streak = p.streak;
  rule.observedAt = p.observedAt;
  rule.positionSeen = p.positionSeen;
  rule.hold = p.hold;
  return rule;
}

/** The kept rule after `progress` was written to the store, changed in place. */
export function written(rule: GuardRule, p: GuardProgress): GuardRule {
  if (p.best !== undefined) rule.best = p.best;
  if (p.streak !== undefined) rule.streak = p.streak;
  if (p.observedAt !== undefined) rule.observedAt = p.observedAt;
  if (p.positionSeen !== undefined) rule.positionSeen = p.positionSeen;
  if (p.hold !== undefined) rule.hold = p.hold;
  return rule;
}

/** Six random base-36 characters: a claim's clientOrderId is made once and stored. */
export function randomBase36(): string {
  return (randomBytes(4).readUInt32BE(0) % 36 ** 6).toString(36).padStart(6, '0');
}
