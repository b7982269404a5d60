/**
 * The judge of one rule: from the figures the store holds now, the figure the rule watches, the
 * value at which it fires, whether its condition holds, whether the figures are fresh enough
 * to act on, and how far it is from firing in words. Pure: no store, no clock of its own, so
 * the guardian, the view and the tests judge alike (docs/guardians.md).
 *
 * Fresh: the positions snapshot (and, for the knockout guard, the index price, the one the
 * exchange knocks out on) is at most twice the polling interval old. A rule never fires on
 * stale figures. Confirmations: the condition must hold on K consecutive fresh observations;
 * an observation is the figures of one read, and counts once however often it is judged.
 */
import type { GuardSpec } from '../../shared/ipc/contract.js';
import { Dec, dec } from '../../shared/money.js';
import { knockoutDistance } from '../alerts/distance.js';
import { isFresh, type IndexReading } from '../alerts/index-price.js';
import { STALE_AFTER_POLLS, isFreshRead } from '../../shared/rules/freshness.js';
import type { GuardRule } from '../store/index.js';
import { minutesText, pct, priceText } from './messages.js';

/** The stored position a rule is on, as far as the judge needs it. */
export interface JudgedPosition {
  contracts: number;
  estimatedClosingPrice: string;
  pnl: string;
  pnlPercent: string;
  costBasis: string;
  boosted: boolean;
  knockout?: string | undefined;
}

/** The figures a rule is judged on now. */
export interface GuardFigures {
  /** The position held (contracts > 0), or undefined when the snapshot has none. */
  position: JudgedPosition | undefined;
  /** Local time of the positions snapshot (store.cursors 'positions'); null: never read. */
  snapshotAt: number | null;
  /** The outcome's index price as last read; undefined when its fixture is unknown. */
  index: IndexReading | undefined;
  /** Kick-off of the position's fixture; null when the fixture is unknown. */
  startsAt: number | null;
  /** How often positions are read now, ms. */
  pollMs: number;
  /** Local time now. */
  now: number;
}

export interface Judgement {
  /** The figure the rule watches now: distance %, P&L %, closing price, minutes to kick-off. */
  readonly now: Dec | null;
  /** The value of that figure at which it fires. */
  readonly firesAt: Dec | null;
  /** The condition holds on these figures. */
  holds: boolean;
  /** The figures are recent enough to act on. */
  fresh: boolean;
  /** The time of the figures judged (one observation); null when there are none. */
  observedAt: number | null;
  /** trailing_stop: the best closing price seen, this observation included; else null. */
  best: string | null;
  /** How far it is from firing, in words (worked out when read); null without figures. */
  readonly distance: string | null;
}

const HUNDRED = new Dec(100);
const MINUTE_MS = 60_000;

/**
 * Decimal strings read once: the same prices, P&L percentages and rule figures come back on
 * every update, and parsing them again is most of a judgement's cost (Dec is immutable, so one
 * parse serves every rule). Emptied when it grows past DEC_CACHE_SIZE.
 */
const decCache = new Map<string, Dec>();
const DEC_CACHE_SIZE = 20_000;

function decOf(text: string): Dec {
  let d = decCache.get(text);
  if (d === undefined) {
    if (decCache.size >= DEC_CACHE_SIZE) decCache.clear();
    d = dec(text);
    decCache.set(text, d);
  }
  return d;
}

/** Whether the positions snapshot is recent enough at `now`. */
export function snapshotFresh(f: Pick<GuardFigures, 'snapshotAt' | 'pollMs' | 'now'>): boolean {
  return isFreshRead(f.snapshotAt, f.pollMs * STALE_AFTER_POLLS, f.now);
}

/** Judges `rule` (its spec, and the best price kept for a trailing stop) on `f`. */
export function judge(rule: Pick<GuardRule, 'spec' | 'best'>, f: GuardFigures): Judgement {
  const none: Judgement = {
    now: null,
    firesAt: null,
    holds: false,
    fresh: false,
    observedAt: null,
    best: rule.best,
    distance: null,
  };
  const p = f.position;
  if (p === undefined || p.contracts <= 0) return none;
  const positionsFresh = snapshotFresh(f);
  const spec = rule.spec;
  switch (spec.kind) {
    case 'knockout':
      return judgeKnockout(spec, p, f, positionsFresh, none);
    case 'stop_loss':
    case 'take_profit':
      return judgeLevel(spec, p, f, positionsFresh);
    case 'trailing_stop':
      return judgeTrailing(spec, rule.best, p, f, positionsFresh);
    case 'time_exit':
      return judgeTime(spec, f, positionsFresh, none);
  }
}

function judgeKnockout(
  spec: GuardSpec,
  p: JudgedPosition,
  f: GuardFigures,
  positionsFresh: boolean,
  none: Judgement,
): Judgement {
  if (!p.boosted || p.knockout === undefined || f.index === undefined) return none;
  const index = decOf(f.index.price);
  const knockout = p.knockout;
  const firesAt = decOf(spec.percent ?? '0');
  // At or below its knockout the exchange has knocked the boosted lots out already: selling
  // then would sell what was never boosted. The guard waits for the positions to say so.
  const alive = index.gt(knockout);
  // The distance Positions shows (desk/positions.ts), (index − knockout) / index, at most
  // percent / 100: multiplied out, so exact and without a division on every update.
  const holds = alive && index.minus(knockout).times(HUNDRED).lte(firesAt.times(index));
  const distancePercent = () => knockoutDistance(index, knockout).times(HUNDRED);
  return {
    get now() {
      return distancePercent();
    },
    firesAt,
    holds,
    fresh: positionsFresh && isFresh(f.index, f.now),
    observedAt: f.index.readAt,
    best: null,
    // Words only when asked for (the view, the log): judging stays cheap.
    get distance() {
      if (!alive) {
        return `index ${priceText(index)} at or below the knockout ${priceText(knockout)}: the boosted contracts are knocked out`;
      }
      return holds
        ? `knockout ${pct(distancePercent())} away, within ${pct(firesAt)}`
        : `knockout ${pct(distancePercent())} away, fires at ${pct(firesAt)}`;
    },
  };
}

/** stop_loss and take_profit: on the P&L percentage, or on the closing price. */
function judgeLevel(
  spec: GuardSpec,
  p: JudgedPosition,
  f: GuardFigures,
  positionsFresh: boolean,
): Judgement {
  const stop = spec.kind === 'stop_loss';
  const what = stop ? 'stop' : 'target';
  const byPrice = spec.price !== undefined;
  const percent = decOf(spec.percent ?? '0');
  const now = byPrice ? decOf(p.estimatedClosingPrice) : decOf(p.pnlPercent);
  const firesAt = byPrice ? decOf(spec.price ?? '0') : stop ? percent.neg() : percent;
  const holds = stop ? now.lte(firesAt) : now.gte(firesAt);
  const side = stop ? 'above' : 'below';
  return {
    now,
    firesAt,
    holds,
    fresh: positionsFresh,
    observedAt: f.snapshotAt,
    best: null,
    get distance() {
      if (byPrice) {
        const gap = priceText(now.minus(firesAt).abs());
        return holds
          ? `closing price ${priceText(now)}, at or past the ${what} at ${priceText(firesAt)}`
          : `closing price ${priceText(now)}, ${gap} ${side} the ${what} at ${priceText(firesAt)}`;
      }
      const gap = now.minus(firesAt).abs().toDecimalPlaces(2).toString();
      return holds
        ? `P&L ${pct(now, true)}, at or past the ${what} at ${pct(firesAt, true)}`
        : `P&L ${pct(now, true)}, ${gap} points ${side} the ${what} at ${pct(firesAt, true)}`;
    },
  };
}

function judgeTrailing(
  spec: GuardSpec,
  kept: string | null,
  p: JudgedPosition,
  f: GuardFigures,
  positionsFresh: boolean,
): Judgement {
  const closing = decOf(p.estimatedClosingPrice);
  // The best seen since armed, from the store; a fresh observation may raise it.
  let best = kept === null ? null : decOf(kept);
  if (positionsFresh && (best === null || closing.gt(best))) best = closing;
  const base = best ?? closing;
  const percent = decOf(spec.percent ?? '0');
  // closing ≤ base × (100 − percent) / 100, multiplied out.
  const holds = closing.times(HUNDRED).lte(base.times(HUNDRED.minus(percent)));
  const trail = () => base.times(HUNDRED.minus(percent)).dividedBy(HUNDRED);
  return {
    now: closing,
    get firesAt() {
      return trail();
    },
    holds,
    fresh: positionsFresh,
    observedAt: f.snapshotAt,
    best: best === null ? null : best.toString(),
    get distance() {
      const below = base.isZero() ? new Dec(0) : base.minus(closing).dividedBy(base).times(HUNDRED);
      return holds
        ? `closing price ${priceText(closing)}, ${pct(below)} below its best ${priceText(base)}: past the trail at ${priceText(trail())}`
        : `closing price ${priceText(closing)}, ${pct(below)} below its best ${priceText(base)}, fires at ${pct(percent)} (${priceText(trail())})`;
    },
  };
}

function judgeTime(
  spec: GuardSpec,
  f: GuardFigures,
  positionsFresh: boolean,
  none: Judgement,
): Judgement {
  if (f.startsAt === null) return none;
  const minutes = spec.minutes ?? 0;
  const fireTime = f.startsAt - minutes * MINUTE_MS;
  const toKickOff = Math.max(0, Math.floor((f.startsAt - f.now) / MINUTE_MS));
  const holds = f.now >= fireTime;
  const inMin = Math.ceil((fireTime - f.now) / MINUTE_MS);
  return {
    now: new Dec(toKickOff),
    firesAt: new Dec(minutes),
    holds,
    fresh: positionsFresh,
    observedAt: f.snapshotAt,
    best: null,
    get distance() {
      return holds
        ? `kick-off in ${minutesText(toKickOff)}: within ${minutesText(minutes)}`
        : `fires in ${minutesText(inMin)} (${minutesText(minutes)} before kick-off)`;
    },
  };
}

/** A rule's watching state after one judgement. */
export interface Step {
  streak: number;
  observedAt: number | null;
  /** The condition held on K consecutive fresh observations: it wants to fire now. */
  fire: boolean;
  /** The judgement is a fresh observation not counted before. */
  counted: boolean;
}

/**
 * Counts a judgement toward the rule's confirmations: a fresh observation not seen before
 * extends the streak when the condition holds and ends it otherwise; a stale one, the same
 * observation again, or one read before the rule was armed changes nothing: a rule acts only on
 * figures newer than the user's act of arming it (docs/guardians.md, "Fresh figures only").
 */
export function step(
  rule: Pick<GuardRule, 'spec' | 'streak' | 'observedAt' | 'armedAt'>,
  j: Judgement,
): Step {
  const k = rule.spec.confirmations;
  const newer = j.observedAt !== null && j.observedAt > rule.armedAt;
  if (!j.fresh || !newer || j.observedAt === rule.observedAt) {
    return {
      streak: rule.streak,
      observedAt: rule.observedAt,
      fire: newer && j.fresh && j.holds && rule.streak >= k,
      counted: false,
    };
  }
  const streak = j.holds ? rule.streak + 1 : 0;
  return { streak, observedAt: j.observedAt, fire: streak >= k, counted: true };
}
