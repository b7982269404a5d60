/**
 * Fixtures: looking one up by contractId and an outcome by team, the public view and list, and
 * the control API's changes (docs/sandbox.md: create, set the index price, close betting,
 * resolve). A price change knocks out boosted lots and a resolution settles every position
 * (positions.ts).
 */
import { ErrorCodes } from '../../shared/api/errors.js';
import type { Fixture, FixtureList, FixturesQuery } from '../../shared/api/schemas.js';
import { dec, isDecimalString, price } from '../../shared/money.js';
import type { NewFixture } from './contract.js';
import { ApiError, badParameter } from './errors.js';
import type { FixtureRec } from './model.js';
import { pageOf } from './paging.js';
import { knockOut, settleResolved } from './positions.js';
import { complementPrice } from './pricing.js';
import { randomHex } from './rng.js';
import { DEFAULT_LOT_SIZE, DEFAULT_MIN_CONTRACTS, leagueSpec, makeContractId } from './seed.js';
import type { ExchangeState } from './state.js';

const teamRe = /^[A-Z]{2,4}$/;

export function addFixture(s: ExchangeState, f: FixtureRec): void {
  s.fixtures.set(f.contractId, f);
  s.fixturesSorted.push(f);
  sortFixtures(s);
  s.store?.put('fixture', f.contractId, f);
}

export function sortFixtures(s: ExchangeState): void {
  s.fixturesSorted.sort(
    (a, b) =>
      a.startsAt - b.startsAt ||
      (a.contractId < b.contractId ? -1 : a.contractId > b.contractId ? 1 : 0),
  );
}

/** The fixture with this contractId (any case); -1121 when there is none. */
export function fixtureOf(s: ExchangeState, contractId: string): FixtureRec {
  const f = typeof contractId === 'string' ? s.fixtures.get(contractId.toUpperCase()) : undefined;
  if (f === undefined) {
    throw new ApiError(
      ErrorCodes.UNKNOWN_CONTRACT,
      `contractId: unknown contract ${String(contractId)}`,
    );
  }
  return f;
}

/** The outcome (a team of the fixture, any case) in upper case; -1102 for another team. */
export function outcomeOf(f: FixtureRec, outcome: string): string {
  const o = String(outcome).toUpperCase();
  if (o !== f.homeTeam && o !== f.awayTeam) {
    throw badParameter(
      `outcome: ${o} is not a team of ${f.contractId} (${f.homeTeam} or ${f.awayTeam})`,
    );
  }
  return o;
}

function fixtureView(f: FixtureRec): Fixture {
  const v: Fixture = {
    contractId: f.contractId,
    league: f.league,
    homeTeam: f.homeTeam,
    awayTeam: f.awayTeam,
    startsAt: f.startsAt,
    bettingOpen: f.status === 'OPEN',
    status: f.status,
    homePrice: f.homePrice,
    awayPrice: complementPrice(f.homePrice),
    lotSize: f.lotSize,
    minContracts: f.minContracts,
  };
  if (f.winner !== undefined) v.winner = f.winner;
  return v;
}

export function listFixtures(s: ExchangeState, query: FixturesQuery): FixtureList {
  const league = query.league?.toUpperCase();
  const team = query.team?.toUpperCase();
  const open = query.bettingOpen === undefined ? undefined : query.bettingOpen === 'true';
  const matches = s.fixturesSorted.filter(
    (f) =>
      (open === undefined || (f.status === 'OPEN') === open) &&
      (league === undefined || f.league.toUpperCase() === league) &&
      (team === undefined || f.homeTeam === team || f.awayTeam === team),
  );
  const { items, ...counts } = pageOf(matches, query.limit, query.offset);
  return { fixtures: items.map(fixtureView), ...counts };
}

export function createFixture(s: ExchangeState, input: NewFixture): Fixture {
  const home = String(input.homeTeam ?? '').toUpperCase();
  const away = String(input.awayTeam ?? '').toUpperCase();
  if (!teamRe.test(home)) throw badParameter('homeTeam: must be a 2 to 4 letter abbreviation');
  if (!teamRe.test(away)) throw badParameter('awayTeam: must be a 2 to 4 letter abbreviation');
  if (home === away) throw badParameter('awayTeam: must differ from homeTeam');
  const league = typeof input.league === 'string' ? input.league.trim() : '';
  if (league === '' || league.length > 64) {
    throw badParameter('league: required, at most 64 characters');
  }
  if (input.startsAt !== undefined && (!Number.isInteger(input.startsAt) || input.startsAt < 0)) {
    throw badParameter('startsAt: must be milliseconds since epoch');
  }
  const spec = leagueSpec(league);
  let contractId: string;
  do contractId = makeContractId(league, home, away, randomHex(2));
  while (s.fixtures.has(contractId));
  const f: FixtureRec = {
    seq: s.nextSeq(),
    contractId,
    league: spec?.league ?? league,
    homeTeam: home,
    awayTeam: away,
    startsAt: input.startsAt ?? s.now() + 86_400_000,
    status: 'OPEN',
    homePrice: '0.5000',
    lotSize: spec?.lotSize ?? DEFAULT_LOT_SIZE,
    minContracts: spec?.minContracts ?? DEFAULT_MIN_CONTRACTS,
  };
  addFixture(s, f);
  s.persist();
  return fixtureView(f);
}

export function setPrice(
  s: ExchangeState,
  contractId: string,
  outcome: string,
  indexPrice: string,
): { knockedOut: number } {
  const f = fixtureOf(s, contractId);
  const o = outcomeOf(f, outcome);
  if (typeof indexPrice !== 'string' || !isDecimalString(indexPrice)) {
    throw badParameter('indexPrice: must be a decimal string between 0 and 1');
  }
  const p = dec(price(indexPrice));
  if (p.lte(0) || p.gte(1))
    throw badParameter('indexPrice: must be above 0 and below 1 (4 places)');
  if (f.status === 'RESOLVED') throw badParameter(`contractId: ${f.contractId} is resolved`);
  f.homePrice = o === f.homeTeam ? price(p) : price(dec(1).minus(p));
  s.store?.put('fixture', f.contractId, f);
  const knockedOut = knockOut(s, f);
  s.persist();
  return { knockedOut };
}

export function closeFixture(s: ExchangeState, contractId: string): Fixture {
  const f = fixtureOf(s, contractId);
  if (f.status === 'OPEN') {
    f.status = 'CLOSED';
    s.store?.put('fixture', f.contractId, f);
    s.persist();
  }
  return fixtureView(f);
}

/** Moves a fixture's kick-off (practice of a guardian's time exit); a resolved one is refused. */
export function setKickoff(s: ExchangeState, contractId: string, startsAt: number): Fixture {
  const f = fixtureOf(s, contractId);
  if (!Number.isInteger(startsAt) || startsAt < 0) {
    throw badParameter('startsAt: must be milliseconds since epoch');
  }
  if (f.status === 'RESOLVED') throw badParameter(`contractId: ${f.contractId} is resolved`);
  f.startsAt = startsAt;
  sortFixtures(s);
  s.store?.put('fixture', f.contractId, f);
  s.persist();
  return fixtureView(f);
}

export function resolveFixture(s: ExchangeState, contractId: string, winner: string): Fixture {
  const f = fixtureOf(s, contractId);
  const w = String(winner).toUpperCase();
  if (w !== 'DRAW' && w !== f.homeTeam && w !== f.awayTeam) {
    throw badParameter(`winner: must be ${f.homeTeam}, ${f.awayTeam} or DRAW`);
  }
  if (f.status === 'RESOLVED')
    throw badParameter(`contractId: ${f.contractId} is already resolved`);
  f.status = 'RESOLVED';
  f.winner = w;
  s.store?.put('fixture', f.contractId, f);
  settleResolved(s, f, w);
  s.persist();
  return fixtureView(f);
}
