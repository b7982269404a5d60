/**
 * The betting desk: placing a bet, the order blotter and the open positions. Orders and intents
 * meet in one row shape (OrderRow): an intent the exchange has not confirmed yet is a row too,
 * "Sending…", "Checking…" or "Not placed", so nothing the user asked for is ever out of sight.
 */
import Type, { type Static } from 'typebox';
import {
  ClientOrderId,
  MARKET_UNITS,
  ORDER_STATUSES,
  ORDER_TYPES,
  SIDES,
} from '../../api/schemas.js';
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
import { BetTerms, FixtureName, FixtureRef } from './markets.js';

// ---------------------------------------------------------------- placing

/**
 * One bet the user places: a FOK on a quote (`rfqId`), or a MARKET order on `bet`. The renderer
 * makes its `clientOrderId` once per bet (a click, a held key or a second window repeat it,
 * never a new one); main places the order under it, so the same bet can never be a second order.
 */
export const PlaceOrder = Closed({
  clientOrderId: ClientOrderId,
  type: Literals(ORDER_TYPES),
  rfqId: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_:.-]{1,128}$', description: 'FOK: the quote.' }),
  ),
  bet: Type.Optional(BetTerms),
});
export type PlaceOrder = Static<typeof PlaceOrder>;

/**
 * An order row's status: the exchange's, or one of the intent's before the exchange confirmed
 * it. SENDING: being sent now. CHECKING: its fate is not known yet (a timeout, a dropped
 * connection); Betdesk is asking the exchange, it is not failed. NOT_PLACED: the exchange
 * refused it before broadcast, or never received it; nothing was bought or sold.
 */
export const ORDER_ROW_STATUSES = [...ORDER_STATUSES, 'SENDING', 'CHECKING', 'NOT_PLACED'] as const;
export type OrderRowStatus = (typeof ORDER_ROW_STATUSES)[number];

/** The blotter's status filter, as people group statuses. */
export const ORDER_STATUS_GROUPS = [
  'working',
  'filled',
  'canceled',
  'rejected',
  'not_placed',
] as const;
export type OrderStatusGroup = (typeof ORDER_STATUS_GROUPS)[number];

export const OrderRow = Closed({
  clientOrderId: Type.String(),
  orderId: Nullable(Type.String({ description: 'null until the exchange accepted it.' })),
  createdAt: Millis('When it was accepted (or, for an intent, recorded).'),
  updatedAt: Millis('Its last change.'),
  contractId: Nullable(Type.String()),
  fixture: Nullable(FixtureRef),
  outcome: Nullable(Type.String()),
  side: Nullable(Literals(SIDES)),
  orderType: Nullable(Literals(ORDER_TYPES)),
  unit: Nullable(Literals(MARKET_UNITS)),
  qty: NullableDec('Size as asked: contracts (BASE) or dollars (QUOTE).'),
  contracts: Nullable(Count()),
  entryPrice: NullableDec('Estimate until filled, then the fill price.'),
  cost: NullableDec('BUY: total debited. SELL: the fee.'),
  maxWin: NullableDec('BUY: returned if it wins.'),
  proceeds: NullableDec('A filled SELL: paid out, net of fees.'),
  boost: Type.Integer({ minimum: 0, maximum: 100 }),
  knockout: NullableDec('Knockout price of a boosted BUY.'),
  status: Literals(ORDER_ROW_STATUSES),
  tx: Type.String({ description: 'Transaction hash; empty until known.' }),
  error: Nullable(
    Closed({
      code: Type.Optional(Type.Integer()),
      message: Type.String({ minLength: 1, description: 'Why, in words.' }),
    }),
  ),
});
export type OrderRow = Static<typeof OrderRow>;

export const PlaceResult = Closed({
  row: OrderRow,
  repeated: Type.Boolean({
    description: 'This bet was placed before: its order is shown, none was added.',
  }),
  warning: Type.Optional(Type.String({ description: 'e.g. sent but not yet confirmed.' })),
});
export type PlaceResult = Static<typeof PlaceResult>;

// ---------------------------------------------------------------- the blotter

/** Which orders the blotter, its totals and its export show. */
export const OrdersScope = Closed({
  status: Type.Optional(Literals(ORDER_STATUS_GROUPS)),
  side: Type.Optional(Literals(SIDES)),
  contractId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  from: Type.Optional(FilterMillis('Placed (or recorded) at or after (inclusive).')),
  to: Type.Optional(FilterMillis('Placed (or recorded) before (exclusive).')),
});
export type OrdersScope = Static<typeof OrdersScope>;

export const OrdersFilter = Closed({
  ...OrdersScope.properties,
  ...PageWindow(500),
});
export type OrdersFilter = Static<typeof OrdersFilter>;

export const OrderPage = Closed({
  rows: Type.Array(OrderRow),
  ...PageCounts,
});
export type OrderPage = Static<typeof OrderPage>;

export const OrderRef = Closed({ clientOrderId: Type.String({ minLength: 1, maxLength: 64 }) });
export type OrderRef = Static<typeof OrderRef>;

export const MaybeOrderRow = Closed({ row: Nullable(OrderRow) });
export type MaybeOrderRow = Static<typeof MaybeOrderRow>;

/** The fixtures the account has orders on, for the blotter's fixture filter. */
export const OrderFixtures = Closed({
  fixtures: Type.Array(FixtureName),
});
export type OrderFixtures = Static<typeof OrderFixtures>;

// ---------------------------------------------------------------- positions

/**
 * A lot the position holds, rebuilt in main from the account's stored orders as the exchange
 * keeps it (src/shared/rules/lots.ts): what a close takes, oldest first (src/shared/rules/close.ts).
 */
export const PositionLot = Closed({
  contracts: Count('Contracts left in the lot.'),
  cost: Dec(
    'What they cost, fees included: the BUY’s cost, less the share of the contracts sold (exact).',
  ),
  loanPerContract: Dec('Lent by the exchange per contract (exact); "0" unboosted.'),
  knockout: NullableDec('The BUY’s knockout; null unboosted.'),
});
export type PositionLot = Static<typeof PositionLot>;

export const PositionRow = Closed({
  contractId: Type.String(),
  outcome: Type.String(),
  fixture: Nullable(FixtureRef),
  contracts: Count(),
  entryPrice: Dec('Volume-weighted average entry price.'),
  estimatedClosingPrice: Dec('What closing the whole position would fetch per contract now.'),
  costBasis: Dec('Money spent to enter.'),
  value: Dec('Collateral plus the exchange’s P&L, capped at maxPayout.'),
  pnl: Dec(
    'Unrealized P&L: value − costBasis, what closing now would realize before the sell’s fee ' +
      '(src/shared/rules/unrealized.ts, docs/pnl.md).',
  ),
  exchangePnl: Dec('The exchange’s own pnl: value − posted collateral, fees left out.'),
  pnlPercent: Dec('The exchange’s P&L as a percentage of posted collateral (what guards judge).'),
  maxPayout: Dec('Most the bet can return.'),
  boosted: Type.Boolean(),
  knockout: NullableDec('The knockout price; null when unboosted.'),
  indexPrice: NullableDec(
    'The outcome’s index price as last read: the exchange knocks the position out when it falls to the knockout. Null when unboosted or not read yet.',
  ),
  indexReadAt: Nullable(Millis('Local time the index price was read; null when not known.')),
  indexStaleAfterMs: Nullable(
    Type.Integer({
      minimum: 1,
      description:
        'The index price is stale once older than this (twice its polling interval): it then raises no alert. Null when not known.',
    }),
  ),
  knockoutDistance: Nullable(
    Closed({
      price: Dec('indexPrice − knockout; 0 at the knockout, negative past it.'),
      fraction: Dec('That distance as a fraction of the index price, 4 places.'),
    }),
  ),
  nearLevel: NullableDec(
    'The deepest alert level the distance is inside ("0.05"), per the account settings.',
  ),
  updatedAt: Millis('The exchange’s time of its last change.'),
  heldSince: Nullable(
    Millis(
      'When the position open now began (its first fill after the outcome was last flat): the chart and the row speak of it alone. null when its orders are not stored.',
    ),
  ),
  lots: Nullable(
    Type.Array(PositionLot, {
      description:
        'The lots held, oldest first (a close takes them in that order). null when the stored ' +
        'orders do not rebuild the position: their contracts or cost differ from the exchange’s ' +
        '(orders not stored yet, or older than the first sync).',
    }),
  ),
});
export type PositionRow = Static<typeof PositionRow>;

export const PositionsView = Closed({
  accountId: AccountScope,
  positions: Type.Array(PositionRow),
  snapshotAt: Nullable(Millis('Local time the exchange last reported positions.')),
  pollMs: Type.Integer({ minimum: 1, description: 'How often positions are read now.' }),
  staleAfterMs: Type.Integer({ minimum: 1, description: 'Figures older than this are stale.' }),
});
export type PositionsView = Static<typeof PositionsView>;

// ---------------------------------------------------------------- events

export const PositionsChanged = Closed({
  accountId: AccountScope,
  at: Millis('Local time of the change.'),
  view: PositionsView,
});
export type PositionsChanged = Static<typeof PositionsChanged>;

export const OrdersChanged = Closed({
  accountId: AccountScope,
  orderIds: Type.Array(Type.String()),
  rows: Type.Array(OrderRow, { description: 'The rows that changed (orders and intents).' }),
  more: Type.Boolean({ description: 'More rows changed than `rows` holds: reload the page.' }),
  at: Millis('Local time of the change.'),
});
export type OrdersChanged = Static<typeof OrdersChanged>;

/** Calls of the betting desk: placing, the blotter, positions. (contract.ts joins every feature's calls.) */
export const deskCalls = {
  'order:place': { input: PlaceOrder, output: PlaceResult },
  'orders:list': { input: OrdersFilter, output: OrderPage },
  'orders:get': { input: OrderRef, output: MaybeOrderRow },
  'orders:fixtures': { input: NoInput, output: OrderFixtures },
  'positions:list': { input: NoInput, output: PositionsView },
} as const;
