/**
 * Every request and response shape of the public exchange API (docs/api.md), defined once.
 * The sandbox exchange validates requests and serializes responses with these, the client
 * validates what it receives with them, and /openapi.yaml is generated from them.
 */
import Type, {
  type Static,
  type TLiteral,
  type TArray,
  type TProperties,
  type TSchema,
  type TUnion,
} from 'typebox';
import { DECIMAL_PATTERN } from '../money.js';

/** A JSON-Schema pattern that matches any of `words` in any letter case ("buy", "Buy", "BUY"). */
function anyCase(words: readonly string[]): string {
  const alt = words.map((w) =>
    [...w]
      .map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toUpperCase()}${ch.toLowerCase()}]` : ch))
      .join(''),
  );
  return `^(${alt.join('|')})$`;
}

/** A field docs/api.md 2.1 calls case insensitive: accepted in any case, returned in upper case. */
function CaseInsensitive(words: readonly string[], description: string) {
  return Type.String({ pattern: anyCase(words), description, examples: [words[0]] });
}

/**
 * A union of string literals whose Static type is the union of the words. (`Type.Union(words.map(
 * Type.Literal))` loses the tuple type and makes the Static type `never`.)
 */
type LiteralTuple<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };
function OneOf<const T extends readonly string[]>(words: T): TUnion<LiteralTuple<T>> {
  return Type.Union(words.map((w) => Type.Literal(w))) as unknown as TUnion<LiteralTuple<T>>;
}

export const SIDES = ['BUY', 'SELL'] as const;
export const MARKETS = ['DRAW_NO_BET'] as const;
export const MARKET_UNITS = ['BASE', 'QUOTE'] as const;
export const ORDER_TYPES = ['MARKET', 'FOK'] as const;
export const ORDER_STATUSES = [
  'CLAIMED',
  'SUBMITTED',
  'OPEN',
  'FILLED',
  'CANCELED',
  'EXPIRED',
  'REJECTED',
  'FAILED',
] as const;
/** An order in one of these states will not change again. */
export const FINAL_ORDER_STATUSES = [
  'FILLED',
  'CANCELED',
  'EXPIRED',
  'REJECTED',
  'FAILED',
] as const;
export const SETTLEMENT_TYPES = ['CLOSED', 'KNOCKED_OUT', 'SETTLEMENT'] as const;

export type Side = (typeof SIDES)[number];
export type MarketUnit = (typeof MARKET_UNITS)[number];
export type OrderType = (typeof ORDER_TYPES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type SettlementType = (typeof SETTLEMENT_TYPES)[number];

export function isFinalStatus(s: OrderStatus): boolean {
  return (FINAL_ORDER_STATUSES as readonly string[]).includes(s);
}

// ---------------------------------------------------------------- primitives

export const Decimal = (description: string) =>
  Type.String({ pattern: DECIMAL_PATTERN, description, examples: ['12.50'] });
export const Millis = (description: string) => Type.Integer({ minimum: 0, description });
export const ContractCount = (description: string) => Type.Integer({ minimum: 0, description });

export const CLIENT_ORDER_ID_PATTERN = '^[A-Za-z0-9_:.-]{1,64}$';
export const ClientOrderId = Type.String({
  pattern: CLIENT_ORDER_ID_PATTERN,
  maxLength: 64,
  description: 'Caller-supplied id of the bet: letters, digits and _ : . -, at most 64 characters.',
});

export const ErrorBody = Type.Object(
  {
    code: Type.Integer({ description: 'Stable error code; GET /docs lists them all.' }),
    msg: Type.String({
      description: 'Human-readable message; names the field when one is at fault.',
    }),
  },
  { $id: 'ErrorBody', description: 'Every error answer of the API.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

// ---------------------------------------------------------------- requests

export const Leg = Type.Object(
  {
    contractId: Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'Fixture identifier from GET /fixtures (case insensitive).',
    }),
    outcome: Type.String({
      minLength: 1,
      maxLength: 8,
      description: 'Abbreviation of the team the bet is on (case insensitive).',
    }),
    side: CaseInsensitive(SIDES, 'BUY opens or adds to a bet; SELL closes or reduces one.'),
    market: CaseInsensitive(MARKETS, 'Only DRAW_NO_BET is accepted.'),
    boost: Type.Optional(
      Type.Union(
        [
          Type.Integer({ minimum: 0, maximum: 100 }),
          Type.String({ pattern: '^(100|[1-9]?[0-9])(\\.0+)?$' }),
        ],
        {
          description:
            'Whole number 0 to 100, default 0; a number or a decimal string. Not accepted on SELL.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type Leg = Static<typeof Leg>;

export const Legs = Type.Array(Leg, {
  minItems: 1,
  description: 'Exactly one leg. Two or more are answered 501 with -2026.',
});

export const Qty = Type.String({
  pattern: DECIMAL_PATTERN,
  maxLength: 40,
  description: 'Size as a positive decimal string; contracts (BASE) or USD (QUOTE).',
  examples: ['10'],
});

export const RfqRequest = Type.Object(
  {
    legs: Legs,
    qty: Qty,
    marketUnit: CaseInsensitive(
      MARKET_UNITS,
      'BASE: qty counts contracts. QUOTE: qty is a wager in USD (BUY only).',
    ),
    orderType: Type.Optional(
      CaseInsensitive(ORDER_TYPES, 'MARKET or FOK; does not change the quote.'),
    ),
    clientOrderId: Type.Optional(ClientOrderId),
  },
  { additionalProperties: false },
);
export type RfqRequest = Static<typeof RfqRequest>;

export const OrderRequest = Type.Object(
  {
    orderType: CaseInsensitive(
      ORDER_TYPES,
      'MARKET (current price) or FOK (exact quoted contracts or nothing).',
    ),
    rfqId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'Executes a prior quote. Required for FOK.',
      }),
    ),
    legs: Type.Optional(Legs),
    qty: Type.Optional(Qty),
    marketUnit: Type.Optional(
      CaseInsensitive(MARKET_UNITS, 'BASE or QUOTE; unless rfqId is sent.'),
    ),
    clientOrderId: Type.Optional(ClientOrderId),
  },
  { additionalProperties: false },
);
export type OrderRequest = Static<typeof OrderRequest>;

const Paging = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 50,
      description: 'Page size, default 50, at most 100.',
    }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, default: 0, description: 'Entries to skip, default 0.' }),
  ),
};

/** The query of a paged list: its filters, then limit and offset; no other field. */
function pageQuery<T extends TProperties>(filters: T) {
  return Type.Object({ ...filters, ...Paging }, { additionalProperties: false });
}

/** Filters several list queries share. */
const ContractFilter = Type.Optional(Type.String({ maxLength: 128 }));
const TeamFilter = Type.Optional(Type.String({ maxLength: 8 }));

export const FixturesQuery = pageQuery({
  bettingOpen: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: '"true" restricts to fixtures open for betting.',
    }),
  ),
  league: Type.Optional(
    Type.String({ maxLength: 64, description: 'League name, exact, case insensitive.' }),
  ),
  team: Type.Optional(
    Type.String({ maxLength: 8, description: 'Team abbreviation, home or away.' }),
  ),
});
export type FixturesQuery = Static<typeof FixturesQuery>;

export const OrderQuery = Type.Object(
  {
    orderId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    clientOrderId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false, description: 'Exactly one of orderId or clientOrderId.' },
);
export type OrderQuery = Static<typeof OrderQuery>;

export const OrdersQuery = pageQuery({
  contractId: ContractFilter,
  team: TeamFilter,
  status: Type.Optional(OneOf(ORDER_STATUSES)),
});
export type OrdersQuery = Static<typeof OrdersQuery>;

export const UpdatesQuery = Type.Object(
  {
    since: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Previous cursor (ms since epoch, server clock).' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdatesQuery = Static<typeof UpdatesQuery>;

export const PositionsQuery = pageQuery({
  contractId: ContractFilter,
  league: Type.Optional(Type.String({ maxLength: 64 })),
  team: TeamFilter,
});
export type PositionsQuery = Static<typeof PositionsQuery>;

export const SettlementsQuery = pageQuery({
  contractId: ContractFilter,
  team: TeamFilter,
  type: Type.Optional(OneOf(SETTLEMENT_TYPES)),
});
export type SettlementsQuery = Static<typeof SettlementsQuery>;

// ---------------------------------------------------------------- responses

/** What every page of a list answers beside its rows. */
const PageFields = { total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() };

/** A page of a list: its rows under `key`, then total, limit and offset. */
function pageOf<K extends string, T extends TSchema>(key: K, row: T) {
  const rows = { [key]: Type.Array(row) } as { [P in K]: TArray<T> };
  return Type.Object({ ...rows, ...PageFields });
}

export const Health = Type.Object(
  { status: Type.Literal('ok'), version: Type.Integer() },
  { $id: 'Health' },
);
export type Health = Static<typeof Health>;

export const ServerTime = Type.Object(
  {
    serverTime: Millis(
      'Server time in milliseconds since epoch; the clock of X-Timestamp and cursors.',
    ),
  },
  { $id: 'ServerTime' },
);
export type ServerTime = Static<typeof ServerTime>;

export const Fixture = Type.Object(
  {
    contractId: Type.String(),
    league: Type.String(),
    homeTeam: Type.String({ description: 'Home team abbreviation.' }),
    awayTeam: Type.String({ description: 'Away team abbreviation.' }),
    startsAt: Millis('Kick-off, ms since epoch.'),
    bettingOpen: Type.Boolean(),
    status: Type.Union([Type.Literal('OPEN'), Type.Literal('CLOSED'), Type.Literal('RESOLVED')]),
    homePrice: Decimal('Index price of the home team.'),
    awayPrice: Decimal('Index price of the away team (1 − homePrice).'),
    winner: Type.Optional(
      Type.String({ description: 'Winning abbreviation or DRAW, once resolved.' }),
    ),
    lotSize: Type.Integer({ minimum: 1, description: 'Contracts per lot.' }),
    minContracts: Type.Integer({ minimum: 1, description: 'Smallest bet accepted, in contracts.' }),
  },
  { $id: 'Fixture' },
);
export type Fixture = Static<typeof Fixture>;

export const FixtureList = pageOf('fixtures', Fixture);
export type FixtureList = Static<typeof FixtureList>;

export const Quote = Type.Object(
  {
    rfqId: Type.String({
      description: 'Pass to POST /order; live for 30 s, executes at most once.',
    }),
    reqId: Type.String({ description: 'Echo of clientOrderId, or empty.' }),
    contracts: ContractCount('Size quoted, rounded to the lot size.'),
    isOpen: Type.Boolean(),
    entryPrice: Decimal('Fill price: locked for FOK, an estimate for MARKET.'),
    indexPrice: Decimal('Market price before the trade.'),
    cost: Type.Optional(Decimal('Total debited (margin plus fees). Opens only.')),
    maxWin: Type.Optional(Decimal('Returned if the bet settles in favour. Opens only.')),
    exitValue: Type.Optional(
      Decimal('Returned by closing at once, net of the round trip. Opens only.'),
    ),
    knockout: Type.Optional(Decimal('Index price at which the resulting position is knocked out.')),
    minContracts: Type.Integer(),
    exchangeCapacity: Type.Optional(
      Type.Integer({ description: 'Further contracts the exchange takes now. Opens only.' }),
    ),
    expiresAt: Millis('Sandbox extension: server time at which the quote lapses.'),
  },
  { $id: 'Quote' },
);
export type Quote = Static<typeof Quote>;

export const OrderError = Type.Object({ code: Type.Integer(), msg: Type.String() });

export const Order = Type.Object(
  {
    clientOrderId: Type.String(),
    orderId: Type.String({ pattern: '^0x[0-9a-f]+$' }),
    contractId: Type.String(),
    outcome: Type.String(),
    side: OneOf(SIDES),
    status: OneOf(ORDER_STATUSES),
    contracts: ContractCount('Size: quoted or requested until filled, then the filled size.'),
    entryPrice: Decimal('Price: estimate until filled, then the fill price.'),
    cost: Decimal('Total debited (BUY); fees charged (SELL).'),
    maxWin: Decimal('Returned if the bet settles in favour (BUY); "0" on SELL.'),
    knockout: Type.Optional(Decimal('Knockout price, when boosted.')),
    deadline: Millis('Time by which the transaction must be mined.'),
    tx: Type.String({ description: 'Transaction hash; may be empty shortly after submission.' }),
    error: Type.Optional(OrderError),
    // Sandbox extensions, allowed by docs/api.md 2.5 (further fields of an order are open).
    orderType: OneOf(ORDER_TYPES),
    marketUnit: OneOf(MARKET_UNITS),
    qty: Decimal('The requested size, as sent.'),
    boost: Type.Integer({ minimum: 0, maximum: 100 }),
    proceeds: Type.Optional(Decimal('Paid out by a filled SELL, net of fees.')),
    rfqId: Type.Optional(Type.String()),
    createdAt: Millis('Acceptance time.'),
    updatedAt: Millis('Time of the last status change; what /orders/updates orders by.'),
  },
  { $id: 'Order' },
);
export type Order = Static<typeof Order>;

export const OrderList = pageOf('orders', Order);
export type OrderList = Static<typeof OrderList>;

export const OrderUpdates = Type.Object({
  orders: Type.Array(Order),
  cursor: Millis('Pass as the next since.'),
});
export type OrderUpdates = Static<typeof OrderUpdates>;

export const Position = Type.Object(
  {
    contractId: Type.String(),
    outcome: Type.String(),
    contracts: ContractCount('Contracts held.'),
    entryPrice: Decimal('Volume-weighted average entry price.'),
    estimatedClosingPrice: Decimal('Price at which the position would close now.'),
    boosted: Type.Boolean(),
    costBasis: Decimal('Money actually spent to enter.'),
    value: Decimal('Posted collateral plus pnl, capped at maxPayout.'),
    pnl: Decimal('Profit or loss.'),
    pnlPercent: Decimal('pnl as a percentage of posted collateral.'),
    maxPayout: Decimal('Most the bet can return.'),
    knockout: Type.Optional(Decimal('Present whenever the position is boosted.')),
    updatedAt: Millis('Last change.'),
  },
  { $id: 'Position' },
);
export type Position = Static<typeof Position>;

export const PositionList = pageOf('positions', Position);
export type PositionList = Static<typeof PositionList>;

export const Settlement = Type.Object(
  {
    type: OneOf(SETTLEMENT_TYPES),
    contractId: Type.String(),
    outcome: Type.String(),
    contracts: ContractCount('Contracts.'),
    payout: Type.Optional(Decimal('SETTLEMENT only.')),
    price: Type.Optional(Decimal('CLOSED and KNOCKED_OUT only.')),
    pnl: Type.Optional(Decimal('CLOSED and KNOCKED_OUT only.')),
    tx: Type.String(),
    timestamp: Type.String({ format: 'date-time', description: 'ISO 8601 UTC.' }),
  },
  { $id: 'Settlement' },
);
export type Settlement = Static<typeof Settlement>;

export const SettlementList = pageOf('settlements', Settlement);
export type SettlementList = Static<typeof SettlementList>;

/** Every response body schema by name: for OpenAPI components and client-side validation. */
export const responseSchemas: Record<string, TSchema> = {
  ErrorBody,
  Health,
  ServerTime,
  FixtureList,
  Quote,
  Order,
  OrderList,
  OrderUpdates,
  PositionList,
  SettlementList,
};
