/** Markets and quotes: fixtures from the store, and a quote for a bet. */
import Type, { type Static } from 'typebox';
import { Fixture, MARKET_UNITS, Quote, SIDES } from '../../api/schemas.js';
import { DECIMAL_PATTERN } from '../../money.js';
import { Closed, Count, Literals, Millis, Nullable, PageCounts, PageWindow } from './common.js';

export const FixturesFilter = Closed({
  openOnly: Type.Boolean({ description: 'Only fixtures open for betting.' }),
  team: Type.Optional(
    Type.String({ maxLength: 32, description: 'Part of a team abbreviation, any case.' }),
  ),
  league: Type.Optional(Type.String({ maxLength: 64, description: 'League name, exact.' })),
  ...PageWindow(100),
});
export type FixturesFilter = Static<typeof FixturesFilter>;

export const FixturePage = Closed({
  fixtures: Type.Array(Fixture),
  ...PageCounts,
  leagues: Type.Array(Type.String(), { description: 'Every league in the store, sorted.' }),
  syncedAt: Nullable(Millis('When fixtures were last fetched from the exchange.')),
  saved: Type.Optional(
    Type.Boolean({
      description:
        'True while these are the markets the store held at start, not yet confirmed by a ' +
        'fixtures sync of this session (docs/desk.md, "Saved markets"); absent: false.',
    }),
  ),
});
export type FixturePage = Static<typeof FixturePage>;

/** What `fixtures:changed` says: the store's fixtures were fetched again. */
export const FixturesChanged = Closed({
  total: Count(),
  syncedAt: Millis('When the fixtures were fetched.'),
});
export type FixturesChanged = Static<typeof FixturesChanged>;

/** What a row of positions or orders shows of its fixture; null when the store lacks it. */
export const FixtureRef = Closed({
  league: Type.String(),
  homeTeam: Type.String(),
  awayTeam: Type.String(),
  startsAt: Millis('Kick-off, ms since epoch.'),
  bettingOpen: Type.Boolean(),
  status: Literals(['OPEN', 'CLOSED', 'RESOLVED'] as const),
});
export type FixtureRef = Static<typeof FixtureRef>;

/** A fixture as a filter menu lists it: its contractId and how people name it. */
export const FixtureName = Closed({
  contractId: Type.String(),
  name: Type.String({ description: '"ARS v CHE", or the contractId when unknown.' }),
});
export type FixtureName = Static<typeof FixtureName>;

/** A bet as the slip describes it: what a quote prices and a MARKET order places. */
export const BetTerms = Closed({
  contractId: Type.String({ minLength: 1, maxLength: 128 }),
  outcome: Type.String({ minLength: 1, maxLength: 8 }),
  side: Literals(SIDES),
  qty: Type.String({ pattern: DECIMAL_PATTERN, maxLength: 40 }),
  unit: Literals(MARKET_UNITS),
  boost: Type.Integer({ minimum: 0, maximum: 100, description: '0 on a SELL.' }),
});
export type BetTerms = Static<typeof BetTerms>;

export const QuoteRequest = BetTerms;
export type QuoteRequest = BetTerms;

export const QuoteResult = Closed({
  quote: Quote,
  clockOffsetMs: Type.Integer({
    description: 'Server clock minus local clock; server now = Date.now() + clockOffsetMs.',
  }),
  receivedAt: Millis('Local time the quote arrived.'),
});
export type QuoteResult = Static<typeof QuoteResult>;

/** Calls of the markets screen. (contract.ts joins every feature's calls.) */
export const marketCalls = {
  'fixtures:list': { input: FixturesFilter, output: FixturePage },
  'quote:request': { input: QuoteRequest, output: QuoteResult },
} as const;
