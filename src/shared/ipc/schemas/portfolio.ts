/**
 * The Portfolio screen: what the user has made, what is at risk and where, and how it has moved,
 * from the local store (so it works offline), across every exchange account together or one
 * account at a time. Paper money is its own scope and never added to real money (docs/portfolio.md).
 */
import Type, { type Static } from 'typebox';
import { Closed, Count, Dec, Literals, Millis, Nullable, NullableDec } from './common.js';
import { FixtureRef } from './markets.js';
import { SettlementRow } from './history.js';

/** `live`: every exchange account added up; `paper`: paper mode alone; or one account. */
export const PortfolioScope = Type.Union([
  Closed({ kind: Type.Literal('live') }),
  Closed({ kind: Type.Literal('paper') }),
  Closed({
    kind: Type.Literal('account'),
    accountId: Type.String({ minLength: 1, maxLength: 128 }),
  }),
]);
export type PortfolioScope = Static<typeof PortfolioScope>;

export const PortfolioQuery = Closed({ scope: PortfolioScope });
export type PortfolioQuery = Static<typeof PortfolioQuery>;

/** An open position as the portfolio lists it, with the account it belongs to. */
export const PortfolioPosition = Closed({
  accountId: Type.String({ description: 'The account; "paper" for paper mode.' }),
  accountLabel: Type.String(),
  contractId: Type.String(),
  outcome: Type.String(),
  fixture: Nullable(FixtureRef),
  contracts: Count(),
  costBasis: Dec('Money at risk.'),
  pnl: Dec('Unrealized P&L as last reported.'),
  value: Dec(''),
  maxPayout: Dec(''),
  boosted: Type.Boolean(),
  knockout: NullableDec(''),
  knockoutFraction: NullableDec(
    '(index − knockout) / index, 4 places; null when unboosted or unread.',
  ),
});
export type PortfolioPosition = Static<typeof PortfolioPosition>;

/** Money at risk grouped one way (a league, a fixture or an outcome). */
export const ExposureGroup = Closed({
  key: Type.String({ description: 'League name, contractId, or contractId + ":" + outcome.' }),
  label: Type.String({ description: 'How the screen names it ("ARS v CHE", "ARS in ARS v CHE").' }),
  positions: Count(),
  atRisk: Dec('Sum of costBasis.'),
  maxPayout: Dec(''),
  pnl: Dec('Unrealized P&L.'),
  share: Dec('atRisk / all money at risk, 4 places; "0.0000" when nothing is at risk.'),
});
export type ExposureGroup = Static<typeof ExposureGroup>;

export const PortfolioExposure = Closed({
  atRisk: Dec('Cost basis of every open position.'),
  maxPayout: Dec('What every open position returns if all win.'),
  worstCase: Dec('If every open bet loses: −atRisk.'),
  nearKnockout: Closed({
    positions: Count('Boosted positions whose index is within 10 % of the knockout.'),
    atRisk: Dec('Their cost basis.'),
  }),
  largestFixture: Nullable(ExposureGroup),
  byLeague: Type.Array(ExposureGroup, { description: 'Largest atRisk first.' }),
  byFixture: Type.Array(ExposureGroup, { description: 'Largest atRisk first.' }),
  byOutcome: Type.Array(ExposureGroup, { description: 'Largest atRisk first.' }),
});
export type PortfolioExposure = Static<typeof PortfolioExposure>;

/** An account as the portfolio names it. */
const AccountName = Closed({ accountId: Type.String(), label: Type.String() });

export const PortfolioView = Closed({
  scope: PortfolioScope,
  accounts: Type.Array(
    Closed({
      accountId: Type.String(),
      label: Type.String(),
      positionsAt: Nullable(Millis('When its positions were last read; null when never.')),
    }),
    { description: 'The accounts the figures add up.' },
  ),
  sharedWallets: Type.Array(
    Closed({
      counted: AccountName,
      others: Type.Array(AccountName, { minItems: 1 }),
    }),
    {
      description:
        'Wallets that several accounts of the scope read (they hold the same orders): each counted once, from `counted` (its positions were read last); `others` are left out of every figure.',
    },
  ),
  realized: Dec('Realized P&L to date (rows whose P&L is known).'),
  unknownSettlements: Count('Settlements whose realized P&L is unknown, left out of realized.'),
  unrealized: Dec('P&L of the open positions as last reported.'),
  equity: Dec('realized + unrealized.'),
  openPositions: Count(),
  exposure: PortfolioExposure,
  best: Type.Array(PortfolioPosition, { maxItems: 5, description: 'Highest pnl first.' }),
  worst: Type.Array(PortfolioPosition, { maxItems: 5, description: 'Lowest pnl first.' }),
  latest: Type.Array(
    Closed({ accountId: Type.String(), accountLabel: Type.String(), row: SettlementRow }),
    { maxItems: 10, description: 'The newest settlements, newest first.' },
  ),
});
export type PortfolioView = Static<typeof PortfolioView>;

export const EQUITY_PERIODS = ['day', 'week', 'month', 'year', 'all'] as const;
export type EquityPeriod = (typeof EQUITY_PERIODS)[number];

export const EquityQuery = Closed({ scope: PortfolioScope, period: Literals(EQUITY_PERIODS) });
export type EquityQuery = Static<typeof EquityQuery>;

export const EquityPoint = Closed({
  at: Millis(''),
  realized: Dec('Realized P&L to date at `at`.'),
  unrealized: Dec('Unrealized P&L of the positions snapshot in force at `at`.'),
  equity: Dec('realized + unrealized.'),
});
export type EquityPoint = Static<typeof EquityPoint>;

export const EquitySeries = Closed({
  scope: PortfolioScope,
  period: Literals(EQUITY_PERIODS),
  from: Millis('Start of the period (the first point for "all").'),
  to: Millis('Now.'),
  stepMs: Type.Integer({ minimum: 1, description: 'The spacing the points were thinned to.' }),
  points: Type.Array(EquityPoint, { maxItems: 2000, description: 'Oldest first.' }),
});
export type EquitySeries = Static<typeof EquitySeries>;

/** Calls of the Portfolio screen. (contract.ts joins every feature's calls.) */
export const portfolioCalls = {
  'portfolio:view': { input: PortfolioQuery, output: PortfolioView },
  'portfolio:equity': { input: EquityQuery, output: EquitySeries },
} as const;
