/** Rows as main sends them, with defaults a test overrides where it matters. */
import type { Fixture } from '../../src/shared/api/schemas.js';
import type {
  AlertsSummary,
  AlertView,
  AppInfo,
  AppStatus,
  FixtureRef,
  HistoryPage,
  HistoryQuery,
  HistorySummary,
  HistoryTotals,
  OrderRow,
  PositionRow,
  PositionsView,
  QuoteResult,
  RealizedWorking,
  SettlementRow,
} from '../../src/shared/ipc/contract.js';

export const NOW = 1_800_000_000_000;

export function fixture(over: Partial<Fixture> = {}): Fixture {
  return {
    contractId: 'EPL-ARSCHE',
    league: 'EPL',
    homeTeam: 'ARS',
    awayTeam: 'CHE',
    startsAt: NOW + 86_400_000,
    bettingOpen: true,
    status: 'OPEN',
    homePrice: '0.5500',
    awayPrice: '0.4500',
    lotSize: 1,
    minContracts: 1,
    ...over,
  };
}

export function fixtureRef(over: Partial<FixtureRef> = {}): FixtureRef {
  const f = fixture();
  return {
    league: f.league,
    homeTeam: f.homeTeam,
    awayTeam: f.awayTeam,
    startsAt: f.startsAt,
    bettingOpen: true,
    status: 'OPEN',
    ...over,
  };
}

export function position(over: Partial<PositionRow> = {}): PositionRow {
  return {
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    fixture: fixtureRef(),
    contracts: 10,
    entryPrice: '0.50',
    estimatedClosingPrice: '0.55',
    costBasis: '5.10',
    value: '6.00',
    pnl: '1.00',
    exchangePnl: '1.00',
    pnlPercent: '20',
    maxPayout: '10.00',
    boosted: false,
    knockout: null,
    indexPrice: null,
    indexReadAt: null,
    indexStaleAfterMs: null,
    knockoutDistance: null,
    nearLevel: null,
    updatedAt: NOW,
    heldSince: null,
    lots: null,
    ...over,
  };
}

export function positionsView(
  positions: PositionRow[],
  over: Partial<PositionsView> = {},
): PositionsView {
  return {
    accountId: null,
    positions,
    snapshotAt: NOW,
    pollMs: 5000,
    staleAfterMs: 10_000,
    ...over,
  };
}

export function quoteResult(
  over: Partial<QuoteResult['quote']> = {},
  clockOffsetMs = 0,
): QuoteResult {
  return {
    quote: {
      rfqId: 'rfq-1',
      reqId: '',
      contracts: 25,
      isOpen: true,
      entryPrice: '0.5600',
      indexPrice: '0.5500',
      cost: '24.00',
      maxWin: '25.00',
      exitValue: '23.00',
      minContracts: 1,
      exchangeCapacity: 1000,
      expiresAt: NOW + 30_000,
      ...over,
    },
    clockOffsetMs,
    receivedAt: NOW,
  };
}

export function orderRow(over: Partial<OrderRow> = {}): OrderRow {
  return {
    clientOrderId: 'bd-1',
    orderId: '0xabc',
    createdAt: NOW,
    updatedAt: NOW,
    contractId: 'EPL-ARSCHE',
    fixture: fixtureRef(),
    outcome: 'ARS',
    side: 'BUY',
    orderType: 'FOK',
    unit: 'BASE',
    qty: '25',
    contracts: 25,
    entryPrice: '0.5600',
    cost: '24.00',
    maxWin: '25.00',
    proceeds: null,
    boost: 0,
    knockout: null,
    status: 'SUBMITTED',
    tx: '',
    error: null,
    ...over,
  };
}

export function appInfo(over: Partial<AppInfo> = {}): AppInfo {
  return {
    mode: 'paper',
    activeAccountId: null,
    accountLabel: 'Paper',
    canTrade: true,
    host: 'browser',
    versions: { app: '0.1.0', node: '20', electron: null, chrome: null },
    ...over,
  };
}

/** Paper trading, online, sync idle. */
export function appStatus(over: Partial<AppStatus> = {}): AppStatus {
  return {
    mode: 'paper',
    online: true,
    sync: { state: 'idle', lastSyncAt: null, message: null },
    clockOffsetMs: 0,
    rateBudget: [],
    ...over,
  };
}

/** The account on screen's counts; alone among the watched ones unless `everyAccount` says. */
export function summary(over: Partial<AlertsSummary> = {}): AlertsSummary {
  const { everyAccount, ...counts } = over;
  const own = { accountId: null, unread: 0, unreadDanger: 0, nearKnockout: 0, ...counts };
  return { ...own, everyAccount: everyAccount ?? [{ ...own, account: 'Paper' }] };
}

export function alertView(over: Partial<AlertView> = {}): AlertView {
  return {
    id: 1,
    kind: 'near',
    accountId: null,
    account: 'Paper',
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    fixture: 'ARS v CHE',
    message: 'Your boosted bet on ARS (ARS v CHE) is 4.00 % above its knockout price of 0.2475.',
    createdAt: NOW,
    read: false,
    ...over,
  };
}

export function settlementRow(over: Partial<SettlementRow> = {}): SettlementRow {
  return {
    id: 1,
    type: 'CLOSED',
    contractId: 'EPL-ARSCHE',
    fixture: fixtureRef({ status: 'RESOLVED', bettingOpen: false }),
    outcome: 'ARS',
    contracts: 10,
    price: '0.6100',
    pnl: '1.10',
    payout: null,
    tx: '0x' + 'ab'.repeat(32),
    settledAt: NOW,
    realizedPnl: '1.10',
    costBasis: null,
    pnlSource: 'exchange',
    pnlNote: null,
    ...over,
  };
}

/**
 * A store of `n` settlements, newest first (id n is the newest), answered as main pages them:
 * only `type` filters here, and `sort: 'pnl'` reverses, which is enough to tell orders apart.
 */
export function settlementStore(n: number): (q: HistoryQuery) => HistoryPage {
  return (q) => {
    const total = q.filter.type === 'SETTLEMENT' ? Math.floor(n / 3) : n;
    const rows: SettlementRow[] = [];
    for (let i = q.offset; i < Math.min(total, q.offset + q.limit); i++) {
      const id = q.sort === 'pnl' ? i + 1 : total - i;
      rows.push(settlementRow({ id, settledAt: NOW - i * 60_000 }));
    }
    return { accountId: null, rows, total, limit: q.limit, offset: q.offset };
  };
}

/**
 * How main worked out a SETTLEMENT's realized P&L: 10 bought for $5.20, 4 sold carrying $2.08,
 * the 6 that settled cost $3.12 and paid $6.00; the exchange's last cost basis agrees.
 */
export function realizedWorking(over: Partial<RealizedWorking> = {}): RealizedWorking {
  return {
    method: 'average cost of the fills that built the position, fees included.',
    basisSource: 'orders',
    boughtContracts: 10,
    boughtCost: '5.20',
    soldContracts: 4,
    soldCost: '2.08',
    ordersCostBasis: '3.12',
    ordersUnknown: null,
    settledContracts: 6,
    costBasis: '3.12',
    payout: '6.00',
    realizedPnl: '2.88',
    exchangeCostBasis: '3.12',
    exchangeCostBasisAt: NOW - 3_600_000,
    difference: '0',
    ...over,
  };
}

export function historyTotals(over: Partial<HistoryTotals> = {}): HistoryTotals {
  return {
    count: 3,
    pnl: '2.50',
    payouts: '10.00',
    unknown: 0,
    wins: 2,
    winRate: '0.6667',
    largestWin: '3.00',
    largestLoss: '-0.50',
    knockouts: 1,
    ...over,
  };
}

export function historySummary(over: Partial<HistorySummary> = {}): HistorySummary {
  const zero = historyTotals({
    count: 0,
    pnl: '0',
    payouts: '0',
    wins: 0,
    winRate: null,
    largestWin: null,
    largestLoss: null,
    knockouts: 0,
  });
  return {
    accountId: null,
    totals: historyTotals(),
    byType: [
      { type: 'CLOSED', totals: zero },
      { type: 'KNOCKED_OUT', totals: zero },
      { type: 'SETTLEMENT', totals: zero },
    ],
    bucket: 'day',
    series: [],
    working: null,
    ...over,
  };
}
