/**
 * Exposure of a set of open positions (docs/portfolio.md): money at risk (their cost basis), what
 * they return if all win, the worst case (all lose: −atRisk), the boosted stake near its
 * knockout, and the money at risk by league, fixture and outcome with each group's share. Sums
 * are whole micro-dollars, so the groups add up to the whole exactly.
 */
import type { ExposureGroup, PortfolioExposure } from '../../shared/ipc/contract.js';
import { dec, fromMicros } from '../../shared/money.js';

/** An open position as the exposure adds it up; amounts in micro-dollars. */
export interface ExposedPosition {
  contractId: string;
  outcome: string;
  /** The fixture's league; null when the account's store does not know the fixture. */
  league: string | null;
  /** "ARS v CHE", or the contractId when the fixture is unknown. */
  fixtureName: string;
  costMicros: number;
  maxPayoutMicros: number;
  pnlMicros: number;
  /** A boosted position whose index is within NEAR_KNOCKOUT of its knockout. */
  nearKnockout: boolean;
}

/** Positions are "near" their knockout inside this distance on the index (the 10 % level). */
export const NEAR_KNOCKOUT = '0.10';
/** How an unknown fixture's league is named in the by-league list. */
export const UNKNOWN_LEAGUE = 'Unknown league';

interface Tally {
  key: string;
  label: string;
  positions: number;
  atRisk: number;
  maxPayout: number;
  pnl: number;
}

export function exposureOf(positions: readonly ExposedPosition[]): PortfolioExposure {
  const whole = tally('', '');
  const near = tally('', '');
  const leagues = new Map<string, Tally>();
  const fixtures = new Map<string, Tally>();
  const outcomes = new Map<string, Tally>();
  for (const p of positions) {
    add(whole, p);
    if (p.nearKnockout) add(near, p);
    const league = p.league ?? UNKNOWN_LEAGUE;
    add(group(leagues, league, league), p);
    add(group(fixtures, p.contractId, p.fixtureName), p);
    add(group(outcomes, `${p.contractId}:${p.outcome}`, `${p.outcome} in ${p.fixtureName}`), p);
  }
  const byFixture = ranked(fixtures, whole.atRisk);
  return {
    atRisk: fromMicros(whole.atRisk),
    maxPayout: fromMicros(whole.maxPayout),
    worstCase: fromMicros(-whole.atRisk),
    nearKnockout: { positions: near.positions, atRisk: fromMicros(near.atRisk) },
    largestFixture: byFixture[0] ?? null,
    byLeague: ranked(leagues, whole.atRisk),
    byFixture,
    byOutcome: ranked(outcomes, whole.atRisk),
  };
}

/** `part / whole` to 4 places; "0.0000" when nothing is at risk. */
export function shareOf(part: number, whole: number): string {
  return whole === 0 ? '0.0000' : dec(part).dividedBy(whole).toFixed(4);
}

function tally(key: string, label: string): Tally {
  return { key, label, positions: 0, atRisk: 0, maxPayout: 0, pnl: 0 };
}

function group(map: Map<string, Tally>, key: string, label: string): Tally {
  let t = map.get(key);
  if (t === undefined) {
    t = tally(key, label);
    map.set(key, t);
  }
  return t;
}

function add(t: Tally, p: ExposedPosition): void {
  t.positions += 1;
  t.atRisk += p.costMicros;
  t.maxPayout += p.maxPayoutMicros;
  t.pnl += p.pnlMicros;
}

/** Largest atRisk first, then by label, so the order is stable. */
function ranked(map: Map<string, Tally>, wholeAtRisk: number): ExposureGroup[] {
  return [...map.values()]
    .sort((a, b) => b.atRisk - a.atRisk || a.label.localeCompare(b.label))
    .map((t) => ({
      key: t.key,
      label: t.label,
      positions: t.positions,
      atRisk: fromMicros(t.atRisk),
      maxPayout: fromMicros(t.maxPayout),
      pnl: fromMicros(t.pnl),
      share: shareOf(t.atRisk, wholeAtRisk),
    }));
}
