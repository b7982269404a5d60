/** A fixture as rows and the slip keep it: the fields of FixtureRef, none of the prices. */
import type { FixtureRef } from '../ipc/contract.js';

/** The FixtureRef of any fixture-shaped value (an API fixture, a markets row, a ref). */
export function fixtureRefOf(f: FixtureRef): FixtureRef {
  return {
    league: f.league,
    homeTeam: f.homeTeam,
    awayTeam: f.awayTeam,
    startsAt: f.startsAt,
    bettingOpen: f.bettingOpen,
    status: f.status,
  };
}
