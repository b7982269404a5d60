/**
 * History: the active account's settlements from the local store (so it works offline), their
 * totals and P&L over time (aggregated in SQLite), CSV export from the app, and rebuilding the
 * local history from the exchange.
 *
 * The exchange reports P&L only for CLOSED and KNOCKED_OUT settlements; a SETTLEMENT (the game
 * resolved while the bet was held) carries a payout and no P&L (docs/api.md 2.7). Betdesk works
 * it out from the account's own orders (realized P&L = payout − cost basis of the contracts
 * that settled, docs/pnl.md) and says where every figure comes from; where the orders are not
 * all in the store it is unknown, with the reason, never a guess. Totals, the chart and the
 * breakdown add realized P&L; payouts stay a figure of their own.
 */
import Type, { type Static } from 'typebox';
import { SETTLEMENT_TYPES } from '../../api/schemas.js';
import {
  AccountScope,
  Closed,
  Count,
  Dec,
  FilterMillis,
  Literals,
  Millis,
  NoInput,
  Nullable,
  NullableDec,
  PageCounts,
  PageWindow,
} from './common.js';
import { OrderRow, OrdersScope } from './desk.js';
import { GuardLogScope } from './guards.js';
import { FixtureName, FixtureRef } from './markets.js';

const Name = Type.String({ minLength: 1, maxLength: 64 });

// ---------------------------------------------------------------- filters

/**
 * What the History screen, its totals, its chart and its export all show. Dates are ms since
 * epoch (negative before 1970); the renderer turns "today", "7 days", "this year" and custom
 * dates into local midnights.
 */
export const HistoryFilter = Closed({
  type: Type.Optional(Literals(SETTLEMENT_TYPES)),
  from: Type.Optional(FilterMillis('Settled at or after (inclusive).')),
  to: Type.Optional(FilterMillis('Settled before (exclusive).')),
  league: Type.Optional(Name),
  team: Type.Optional(
    Type.String({ minLength: 1, maxLength: 8, description: 'The team the bet was on.' }),
  ),
  contractId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
export type HistoryFilter = Static<typeof HistoryFilter>;

export const HISTORY_SORTS = ['time', 'pnl'] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

export const HistoryQuery = Closed({
  filter: HistoryFilter,
  /** time: newest first. pnl: largest realized P&L first; rows whose P&L is unknown last. */
  sort: Literals(HISTORY_SORTS),
  ...PageWindow(500),
});
export type HistoryQuery = Static<typeof HistoryQuery>;

// ---------------------------------------------------------------- rows

/**
 * Where a realized P&L comes from (docs/pnl.md): `exchange` (the pnl of a CLOSED or KNOCKED_OUT
 * row, or a SETTLEMENT's payout − the costBasis the exchange reported for exactly the contracts
 * that settled), `orders` (a SETTLEMENT's payout − the cost basis worked out from the account's
 * orders and the exchange's rows), `unknown` (a SETTLEMENT the store cannot know, or not worked
 * out yet after an upgrade).
 */
export const PNL_SOURCES = ['exchange', 'orders', 'unknown'] as const;
export type PnlSource = (typeof PNL_SOURCES)[number];

export const SettlementRow = Closed({
  id: Type.Integer({ minimum: 1, description: 'The local row id (stable).' }),
  type: Literals(SETTLEMENT_TYPES),
  contractId: Type.String(),
  fixture: Nullable(FixtureRef),
  outcome: Type.String(),
  contracts: Count(),
  price: NullableDec('Closing price (CLOSED, KNOCKED_OUT).'),
  pnl: NullableDec(
    'Profit or loss as the exchange reported it (CLOSED, KNOCKED_OUT); null for SETTLEMENT.',
  ),
  payout: NullableDec('Paid out (SETTLEMENT only).'),
  tx: Type.String(),
  settledAt: Millis('When it settled.'),
  realizedPnl: NullableDec(
    'Realized P&L: the reported pnl (CLOSED, KNOCKED_OUT) or payout − costBasis (SETTLEMENT); ' +
      'null when unknown.',
  ),
  costBasis: NullableDec(
    "SETTLEMENT: what the settled contracts cost (the exchange's costBasis or the orders', see " +
      'pnlSource); null when unknown and on the other types.',
  ),
  pnlSource: Literals(PNL_SOURCES),
  pnlNote: Nullable(
    Type.String({
      description:
        "unknown: why, in words. Also set when the exchange's costBasis and the orders' disagree " +
        "by more than a cent (the exchange's figure stands, the note says by how much).",
    }),
  ),
});
export type SettlementRow = Static<typeof SettlementRow>;

export const HistoryPage = Closed({
  accountId: AccountScope,
  rows: Type.Array(SettlementRow),
  ...PageCounts,
});
export type HistoryPage = Static<typeof HistoryPage>;

export const SettlementRef = Closed({ id: Type.Integer({ minimum: 1 }) });
export type SettlementRef = Static<typeof SettlementRef>;

/**
 * How a SETTLEMENT's realized P&L was worked out (docs/pnl.md): the basis of the contracts that
 * settled, rebuilt from the orders shown beside it, against the payout. Null on the other types
 * (their P&L is the exchange's own) and when the row is unknown (`pnlNote` says why).
 */
export const RealizedWorking = Closed({
  method: Type.String({ description: 'The method in words (docs/pnl.md).' }),
  // Whose cost basis the figure uses: the exchange's, read for exactly the contracts that
  // settled, or the one worked out from the orders (docs/pnl.md).
  basisSource: Literals(['exchange', 'orders'] as const),
  boughtContracts: Nullable(Count('Contracts bought by the orders, before sells and knockouts.')),
  boughtCost: NullableDec('What those buys cost, fees included.'),
  soldContracts: Nullable(Count('Contracts sold or knocked out before the result.')),
  soldCost: NullableDec('The part of the cost those contracts carried away.'),
  ordersCostBasis: NullableDec(
    'boughtCost − soldCost: the basis from the orders; null (with the four above) when the ' +
      'orders cannot give it.',
  ),
  ordersUnknown: Nullable(Type.String({ description: 'Why the orders cannot give the basis.' })),
  settledContracts: Count("Contracts left to settle: the row's contracts."),
  costBasis: Dec('The basis the figure uses (see basisSource).'),
  payout: Dec("The row's payout."),
  realizedPnl: Dec('payout − costBasis.'),
  exchangeCostBasis: NullableDec(
    'The last costBasis GET /positions reported for this position; null when never seen.',
  ),
  exchangeCostBasisAt: Nullable(Millis('When that costBasis was read.')),
  difference: NullableDec('ordersCostBasis − exchangeCostBasis; null when either is unknown.'),
});
export type RealizedWorking = Static<typeof RealizedWorking>;

/** A settlement opened: its fixture, and the orders that built and closed the position. */
export const SettlementDetail = Closed({
  row: Nullable(SettlementRow),
  working: Nullable(RealizedWorking),
  orders: Type.Array(OrderRow, {
    description:
      'Orders on this outcome of this fixture, from the settlement before it on the same ' +
      'outcome (or the first) up to this one, oldest first.',
  }),
});
export type SettlementDetail = Static<typeof SettlementDetail>;

/** What the filter menus offer: what the account's settlements hold. */
export const HistoryChoices = Closed({
  leagues: Type.Array(Type.String()),
  teams: Type.Array(Type.String()),
  fixtures: Type.Array(
    Closed({
      ...FixtureName.properties,
      league: Nullable(Type.String()),
      startsAt: Nullable(Millis('Kick-off.')),
    }),
  ),
  first: Nullable(Millis('The oldest settlement.')),
  last: Nullable(Millis('The newest settlement.')),
});
export type HistoryChoices = Static<typeof HistoryChoices>;

// ---------------------------------------------------------------- totals and P&L over time

export const HistorySummaryQuery = Closed({
  filter: HistoryFilter,
  /** IANA zone the buckets follow ("Europe/London"); the renderer's own. */
  timeZone: Type.String({ minLength: 1, maxLength: 64 }),
});
export type HistorySummaryQuery = Static<typeof HistorySummaryQuery>;

/** Totals of one set of settlements. Amounts are exact decimal strings in dollars. */
export const HistoryTotals = Closed({
  count: Count(),
  pnl: Dec('Sum of realized P&L over every row whose P&L is known.'),
  payouts: Dec('Sum of payouts (SETTLEMENT).'),
  unknown: Count('Rows whose realized P&L is unknown (left out of pnl, wins and the rate).'),
  wins: Count('Realized P&L above zero.'),
  winRate: NullableDec('wins / (count − unknown), 4 places; null when that is 0.'),
  largestWin: NullableDec('The largest realized P&L above zero; null when none.'),
  largestLoss: NullableDec('The most negative realized P&L; null when none below zero.'),
  knockouts: Count(),
});
export type HistoryTotals = Static<typeof HistoryTotals>;

export const HISTORY_BUCKETS = ['day', 'week', 'month'] as const;
export type HistoryBucket = (typeof HISTORY_BUCKETS)[number];

export const HistoryPoint = Closed({
  start: Millis('Local start of the bucket (midnight in timeZone).'),
  count: Count(),
  pnl: Dec('Realized P&L settled in the bucket (rows whose P&L is known).'),
  payouts: Dec('Payouts in the bucket.'),
  cumulativePnl: Dec('Realized P&L from the start of the range to the end of the bucket.'),
  cumulativePayouts: Dec('Payouts from the start of the range to the end of the bucket.'),
});
export type HistoryPoint = Static<typeof HistoryPoint>;

export const HistorySummary = Closed({
  accountId: AccountScope,
  totals: HistoryTotals,
  byType: Type.Array(Closed({ type: Literals(SETTLEMENT_TYPES), totals: HistoryTotals }), {
    description: 'One entry per settlement type, in SETTLEMENT_TYPES order.',
  }),
  bucket: Literals(HISTORY_BUCKETS),
  series: Type.Array(HistoryPoint, {
    description:
      'Every bucket from the first settlement (or `from`) to the last (or `to`), ' +
      'empty buckets included, oldest first. Empty when there is nothing.',
  }),
  working: Nullable(
    Closed(
      { done: Count(), total: Count() },
      {
        description:
          'While the P&L of settlements stored before this version is being worked out ' +
          '(after an upgrade): how far it is. Null when nothing is left.',
      },
    ),
  ),
});
export type HistorySummary = Static<typeof HistorySummary>;

// ---------------------------------------------------------------- the orders' totals

/** The Orders screen's totals for its filter (OrdersScope): exchange orders only. */
export const OrderTotals = Closed({
  count: Count('Exchange orders matching.'),
  filled: Count(),
  staked: Dec('Cost of filled BUY orders.'),
  proceeds: Dec('Proceeds of filled SELL orders.'),
});
export type OrderTotals = Static<typeof OrderTotals>;

// ---------------------------------------------------------------- export

export const EXPORT_KINDS = ['settlements', 'orders', 'guards'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const ExportOptions = Closed({
  /** Begin with a UTF-8 byte order mark (some spreadsheets need it to read UTF-8). */
  bom: Type.Boolean(),
  /** Prefix cells a spreadsheet would run as a formula with an apostrophe. */
  formulaGuard: Type.Boolean(),
});
export type ExportOptions = Static<typeof ExportOptions>;

export const ExportRequest = Type.Union([
  Closed({ kind: Type.Literal('settlements'), filter: HistoryFilter, options: ExportOptions }),
  Closed({ kind: Type.Literal('orders'), filter: OrdersScope, options: ExportOptions }),
  Closed({ kind: Type.Literal('guards'), filter: GuardLogScope, options: ExportOptions }),
]);
export type ExportRequest = Static<typeof ExportRequest>;

/**
 * An export that started, or null when the user closed the save dialog. `download` is set in the
 * browser host: the renderer navigates to it and the host streams the file (never built in the
 * renderer's memory). `file` is set in the desktop app: the path the user chose.
 */
export const ExportStarted = Closed({
  export: Nullable(
    Closed({
      exportId: Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' }),
      total: Count('Rows the filter matches.'),
      fileName: Type.String({ description: 'betdesk-settlements-YYYY-MM-DD.csv' }),
      download: Nullable(Type.String({ description: 'Same-origin path to fetch.' })),
      file: Nullable(Type.String({ description: 'Where the desktop app writes it.' })),
    }),
  ),
});
export type ExportStarted = Static<typeof ExportStarted>;

export const ExportRef = Closed({ exportId: Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' }) });
export type ExportRef = Static<typeof ExportRef>;

export const EXPORT_STATES = ['waiting', 'running', 'done', 'canceled', 'failed'] as const;
export type ExportState = (typeof EXPORT_STATES)[number];

/** Pushed while an export runs (at most about ten a second) and once when it ends. */
export const ExportProgress = Closed({
  exportId: Type.String(),
  kind: Literals(EXPORT_KINDS),
  state: Literals(EXPORT_STATES),
  rows: Count('Rows written so far.'),
  total: Count(),
  fileName: Type.String(),
  message: Nullable(Type.String({ description: 'failed: why, in words.' })),
});
export type ExportProgress = Static<typeof ExportProgress>;

export const ExportCanceled = Closed({
  canceled: Type.Boolean({ description: 'False when it had already ended.' }),
});
export type ExportCanceled = Static<typeof ExportCanceled>;

// ---------------------------------------------------------------- keeping the history whole

export const HISTORY_SYNC_REASONS = ['first-sync', 'resync'] as const;
export const HISTORY_SYNC_STATES = ['running', 'done', 'failed', 'interrupted'] as const;

/**
 * A sweep of the account's whole history from the exchange: the first sync of an account, or a
 * resync the user asked for. Nothing stored is removed, so an interrupted sweep loses nothing.
 */
export const HistorySyncProgress = Closed({
  accountId: AccountScope,
  reason: Literals(HISTORY_SYNC_REASONS),
  state: Literals(HISTORY_SYNC_STATES),
  pages: Count('Pages fetched so far.'),
  estimatedPages: Count('Pages the sweep expects in all.'),
  added: Count('Records new to the local store so far.'),
  startedAt: Millis('When the sweep started.'),
  message: Nullable(Type.String({ description: 'failed/interrupted: why, in words.' })),
});
export type HistorySyncProgress = Static<typeof HistorySyncProgress>;

export const HistorySyncStatus = Closed({ progress: Nullable(HistorySyncProgress) });
export type HistorySyncStatus = Static<typeof HistorySyncStatus>;

/** New settlements reached the store: the History screen refreshes its totals and rows. */
export const HistoryChanged = Closed({
  accountId: AccountScope,
  added: Count(),
  at: Millis('Local time of the change.'),
});
export type HistoryChanged = Static<typeof HistoryChanged>;

/** Calls of the History and Orders screens: settlements, totals, resync, export. (contract.ts joins every feature's calls.) */
export const historyCalls = {
  'history:list': { input: HistoryQuery, output: HistoryPage },
  'history:summary': { input: HistorySummaryQuery, output: HistorySummary },
  'history:detail': { input: SettlementRef, output: SettlementDetail },
  'history:choices': { input: NoInput, output: HistoryChoices },
  'history:resync': { input: NoInput, output: HistorySyncStatus },
  'history:status': { input: NoInput, output: HistorySyncStatus },
  'export:start': { input: ExportRequest, output: ExportStarted },
  'export:cancel': { input: ExportRef, output: ExportCanceled },
  'orders:totals': { input: OrdersScope, output: OrderTotals },
} as const;
