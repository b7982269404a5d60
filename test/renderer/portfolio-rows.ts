/** Portfolio answers as main sends them (portfolio:view, portfolio:equity), for the tests. */
import type {
  Account,
  EquityPeriod,
  EquitySeries,
  ExposureGroup,
  PortfolioPosition,
  PortfolioScope,
  PortfolioView,
} from '../../src/shared/ipc/contract.js';
import { fixtureRef, NOW, settlementRow } from './rows.js';

export function account(over: Partial<Account> = {}): Account {
  return {
    id: 'acc-main',
    label: 'Main',
    baseUrl: 'http://127.0.0.1:1',
    apiKeyHint: '…1234',
    permission: 'trade',
    active: true,
    createdAt: NOW - 86_400_000,
    sameWalletAs: [],
    ...over,
  };
}

export function portfolioPosition(over: Partial<PortfolioPosition> = {}): PortfolioPosition {
  return {
    accountId: 'acc-main',
    accountLabel: 'Main',
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    fixture: fixtureRef(),
    contracts: 10,
    costBasis: '5.10',
    pnl: '0.40',
    value: '5.50',
    maxPayout: '10.00',
    boosted: false,
    knockout: null,
    knockoutFraction: null,
    ...over,
  };
}

export function exposureGroup(over: Partial<ExposureGroup> = {}): ExposureGroup {
  return {
    key: 'EPL-ARSCHE',
    label: 'ARS v CHE',
    positions: 1,
    atRisk: '5.10',
    maxPayout: '10.00',
    pnl: '0.40',
    share: '1.0000',
    ...over,
  };
}

/** One open position and one settlement on the account "Main". */
export function portfolioView(over: Partial<PortfolioView> = {}): PortfolioView {
  const pos = portfolioPosition();
  const league = exposureGroup({ key: 'EPL', label: 'EPL' });
  return {
    scope: { kind: 'live' },
    accounts: [{ accountId: 'acc-main', label: 'Main', positionsAt: NOW - 120_000 }],
    sharedWallets: [],
    realized: '12.50',
    unknownSettlements: 0,
    unrealized: '0.40',
    equity: '12.90',
    openPositions: 1,
    exposure: {
      atRisk: '5.10',
      maxPayout: '10.00',
      worstCase: '-5.10',
      nearKnockout: { positions: 0, atRisk: '0.00' },
      largestFixture: exposureGroup(),
      byLeague: [league],
      byFixture: [exposureGroup()],
      byOutcome: [exposureGroup({ key: 'EPL-ARSCHE:ARS', label: 'ARS in ARS v CHE' })],
    },
    best: [pos],
    worst: [pos],
    latest: [
      {
        accountId: 'acc-main',
        accountLabel: 'Main',
        row: settlementRow({
          id: 7,
          type: 'SETTLEMENT',
          pnl: null,
          payout: '10.00',
          realizedPnl: '4.90',
          costBasis: '5.10',
          pnlSource: 'orders',
        }),
      },
    ],
    ...over,
  };
}

/** A scope with nothing in it yet. */
export function emptyPortfolio(scope: PortfolioScope): PortfolioView {
  return portfolioView({
    scope,
    accounts: [],
    sharedWallets: [],
    realized: '0.00',
    unrealized: '0.00',
    equity: '0.00',
    openPositions: 0,
    exposure: {
      atRisk: '0.00',
      maxPayout: '0.00',
      worstCase: '0.00',
      nearKnockout: { positions: 0, atRisk: '0.00' },
      largestFixture: null,
      byLeague: [],
      byFixture: [],
      byOutcome: [],
    },
    best: [],
    worst: [],
    latest: [],
  });
}

const PERIOD_MS: Record<EquityPeriod, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
  all: 0,
};

/**
 * An equity curve through `equities` (decimal strings), one point an hour, ending now, over the
 * whole period (the accounts' records older than it; "all" starts at the first point).
 */
export function equitySeries(
  scope: PortfolioScope,
  period: EquityPeriod,
  equities: string[] = ['10.00', '4.00', '31.00', '25.00'],
): EquitySeries {
  const stepMs = 3_600_000;
  const first = NOW - (equities.length - 1) * stepMs;
  const points = equities.map((equity, i) => ({
    at: first + i * stepMs,
    realized: equity,
    unrealized: '0.00',
    equity,
  }));
  const from = period === 'all' ? first : NOW - PERIOD_MS[period];
  return { scope, period, from, to: NOW, stepMs, points };
}
