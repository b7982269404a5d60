/**
 * The bridge contract: every call the renderer may make to main (`channel -> input -> output`)
 * and every event main pushes back, each with the TypeBox schema that both types it and
 * validates it at the main boundary. Channel names live in channels.ts; the `satisfies` clauses
 * below make a channel missing here, or one not listed there, a compile error.
 *
 * Secrets never cross the bridge: an account goes in with its secret (`accounts:add`) and comes
 * back without it.
 */
import Type, { type Static, type TSchema } from 'typebox';
import { DECIMAL_PATTERN } from '../money.js';
import { Fixture, MARKET_UNITS, Quote, SIDES } from '../api/schemas.js';
import type { LimitGroup } from '../api/limits.js';
import type { IpcChannel, IpcEvent } from './channels.js';

export * from './channels.js';
export type { Fixture, Quote } from '../api/schemas.js';

// ---------------------------------------------------------------- building blocks

const Millis = (description: string) => Type.Integer({ minimum: 0, description });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A string enum. (Type.Union over `values.map(Type.Literal)` would type as `never`: TypeBox's
 *  Static needs a tuple, and map gives an array.) */
const Literals = <const T extends readonly string[]>(values: T) => Type.Enum<[...T]>(values);

/** A call that takes nothing still sends `{}`: one shape for every channel. */
export const NoInput = Type.Object({}, { additionalProperties: false });

export const TRADING_MODES = ['paper', 'live'] as const;
export type TradingMode = (typeof TRADING_MODES)[number];

export const ACCOUNT_PERMISSIONS = ['read', 'trade', 'unknown'] as const;
export type AccountPermission = (typeof ACCOUNT_PERMISSIONS)[number];

export const SYNC_STATES = ['idle', 'syncing', 'paused', 'offline', 'error'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

const LIMIT_GROUPS = [
  'positions',
  'quotes',
  'orders',
  'reads',
  'fixtures',
] as const satisfies readonly LimitGroup[];

// ---------------------------------------------------------------- errors

/**
 * What went wrong, as the renderer acts on it:
 * - invalid-input: the request broke the contract (a bug in the caller, or a forged message);
 * - not-found / conflict: the thing asked for does not exist, or the app's state refuses it;
 * - exchange: the exchange refused it (`code` is its error code);
 * - rate-limited: the exchange's quota is spent for now; retry later;
 * - offline: the exchange cannot be reached;
 * - keychain: the system keychain is missing or refused;
 * - not-ready: this part of the app is not available (yet);
 * - internal: a fault in Betdesk itself.
 */
export const BRIDGE_ERROR_KINDS = [
  'invalid-input',
  'not-found',
  'conflict',
  'exchange',
  'rate-limited',
  'offline',
  'keychain',
  'not-ready',
  'internal',
] as const;
export type BridgeErrorKind = (typeof BRIDGE_ERROR_KINDS)[number];

export const BridgeError = Type.Object(
  {
    kind: Literals(BRIDGE_ERROR_KINDS),
    message: Type.String({ minLength: 1, description: 'A sentence for people; never a secret.' }),
    code: Type.Optional(Type.Integer({ description: 'The exchange error code, when it had one.' })),
  },
  { additionalProperties: false },
);
export type BridgeError = Static<typeof BridgeError>;

/** Every call answers with this envelope, so an error keeps its shape over either transport. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

// ---------------------------------------------------------------- app and accounts

export const AppInfo = Type.Object(
  {
    mode: Literals(TRADING_MODES),
    activeAccountId: Nullable(Type.String({ description: 'null in paper mode.' })),
    accountLabel: Type.String({ description: 'What the mode badge shows: "Paper" or a label.' }),
    host: Literals(['electron', 'browser'] as const),
    versions: Type.Object({
      app: Type.String(),
      node: Type.String(),
      electron: Nullable(Type.String()),
      chrome: Nullable(Type.String()),
    }),
  },
  { additionalProperties: false },
);
export type AppInfo = Static<typeof AppInfo>;

export const Account = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    label: Type.String(),
    baseUrl: Type.String(),
    apiKeyHint: Type.String({ description: 'The last characters of the key, to tell keys apart.' }),
    permission: Literals(ACCOUNT_PERMISSIONS),
    active: Type.Boolean(),
    createdAt: Millis('When the account was added, local clock.'),
  },
  { additionalProperties: false, description: 'An exchange account, never with its secret.' },
);
export type Account = Static<typeof Account>;

export const AccountList = Type.Object(
  { accounts: Type.Array(Account) },
  { additionalProperties: false },
);
export type AccountList = Static<typeof AccountList>;

export const NewAccount = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 64 }),
    baseUrl: Type.String({ pattern: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$', maxLength: 512 }),
    apiKey: Type.String({ minLength: 1, maxLength: 256, pattern: '^\\S+$' }),
    secret: Type.String({ minLength: 1, maxLength: 512, pattern: '^\\S+$' }),
  },
  { additionalProperties: false },
);
export type NewAccount = Static<typeof NewAccount>;

export const AccountRef = Type.Object(
  { accountId: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
export type AccountRef = Static<typeof AccountRef>;

export const AccountSwitch = Type.Object(
  {
    accountId: Nullable(
      Type.String({ minLength: 1, maxLength: 128, description: 'null switches to paper.' }),
    ),
  },
  { additionalProperties: false },
);
export type AccountSwitch = Static<typeof AccountSwitch>;

export const Removed = Type.Object({ removed: Type.Boolean() }, { additionalProperties: false });
export type Removed = Static<typeof Removed>;

// ---------------------------------------------------------------- fixtures

export const FixturesFilter = Type.Object(
  {
    openOnly: Type.Boolean({ description: 'Only fixtures open for betting.' }),
    team: Type.Optional(
      Type.String({ maxLength: 32, description: 'Part of a team abbreviation, any case.' }),
    ),
    league: Type.Optional(Type.String({ maxLength: 64, description: 'League name, exact.' })),
    limit: Type.Integer({ minimum: 1, maximum: 100 }),
    offset: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type FixturesFilter = Static<typeof FixturesFilter>;

export const FixturePage = Type.Object(
  {
    fixtures: Type.Array(Fixture),
    total: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    offset: Type.Integer({ minimum: 0 }),
    leagues: Type.Array(Type.String(), { description: 'Every league in the store, sorted.' }),
    syncedAt: Nullable(Millis('When fixtures were last fetched from the exchange.')),
  },
  { additionalProperties: false },
);
export type FixturePage = Static<typeof FixturePage>;

// ---------------------------------------------------------------- quotes

export const QuoteRequest = Type.Object(
  {
    contractId: Type.String({ minLength: 1, maxLength: 128 }),
    outcome: Type.String({ minLength: 1, maxLength: 8 }),
    side: Literals(SIDES),
    qty: Type.String({ pattern: DECIMAL_PATTERN, maxLength: 40 }),
    unit: Literals(MARKET_UNITS),
    boost: Type.Integer({ minimum: 0, maximum: 100 }),
  },
  { additionalProperties: false },
);
export type QuoteRequest = Static<typeof QuoteRequest>;

export const QuoteResult = Type.Object(
  {
    quote: Quote,
    clockOffsetMs: Type.Integer({
      description: 'Server clock minus local clock; server now = Date.now() + clockOffsetMs.',
    }),
    receivedAt: Millis('Local time the quote arrived.'),
  },
  { additionalProperties: false },
);
export type QuoteResult = Static<typeof QuoteResult>;

// ---------------------------------------------------------------- status

export const RateBucket = Type.Object(
  {
    group: Literals(LIMIT_GROUPS),
    tokens: Type.Number({ minimum: 0, description: 'Requests that may go out now.' }),
    capacity: Type.Integer({ minimum: 0 }),
    queued: Type.Integer({ minimum: 0 }),
    blockedUntil: Nullable(Millis('Local time until which the exchange asked us to wait.')),
  },
  { additionalProperties: false },
);
export type RateBucket = Static<typeof RateBucket>;

export const AppStatus = Type.Object(
  {
    mode: Literals(TRADING_MODES),
    online: Type.Boolean({ description: 'The exchange answered the last time we asked.' }),
    sync: Type.Object(
      {
        state: Literals(SYNC_STATES),
        lastSyncAt: Nullable(Millis('Last complete sync, local clock.')),
        message: Nullable(Type.String({ description: 'Why sync stopped, as a sentence.' })),
      },
      { additionalProperties: false },
    ),
    clockOffsetMs: Nullable(Type.Integer({ description: 'Server clock minus local clock.' })),
    rateBudget: Type.Array(RateBucket),
  },
  { additionalProperties: false },
);
export type AppStatus = Static<typeof AppStatus>;

// ---------------------------------------------------------------- the contract

interface ChannelSchemas {
  readonly input: TSchema;
  readonly output: TSchema;
}

export const ipcContract = {
  'app:info': { input: NoInput, output: AppInfo },
  'accounts:list': { input: NoInput, output: AccountList },
  'accounts:add': { input: NewAccount, output: Account },
  'accounts:remove': { input: AccountRef, output: Removed },
  'accounts:switch': { input: AccountSwitch, output: AppInfo },
  'fixtures:list': { input: FixturesFilter, output: FixturePage },
  'quote:request': { input: QuoteRequest, output: QuoteResult },
  'status:get': { input: NoInput, output: AppStatus },
  'sync:pause': { input: NoInput, output: AppStatus },
  'sync:resume': { input: NoInput, output: AppStatus },
} as const satisfies { readonly [C in IpcChannel]: ChannelSchemas };

/** channel -> {input, output}: the one type every side of the bridge is checked against. */
export type IpcContract = {
  [C in IpcChannel]: {
    input: Static<(typeof ipcContract)[C]['input']>;
    output: Static<(typeof ipcContract)[C]['output']>;
  };
};
export type IpcInput<C extends IpcChannel> = IpcContract[C]['input'];
export type IpcOutput<C extends IpcChannel> = IpcContract[C]['output'];

// ---------------------------------------------------------------- events

export const FixturesChanged = Type.Object(
  { total: Type.Integer({ minimum: 0 }), syncedAt: Millis('When the fixtures were fetched.') },
  { additionalProperties: false },
);

const AccountScope = Nullable(Type.String({ description: 'The account; null for paper.' }));

export const PositionsChanged = Type.Object(
  { accountId: AccountScope, at: Millis('Local time of the change.') },
  { additionalProperties: false },
);

export const OrdersChanged = Type.Object(
  {
    accountId: AccountScope,
    orderIds: Type.Array(Type.String()),
    at: Millis('Local time of the change.'),
  },
  { additionalProperties: false },
);

export const KNOCKOUT_ALERT_KINDS = ['near', 'knocked_out'] as const;
export type KnockoutAlertKind = (typeof KNOCKOUT_ALERT_KINDS)[number];

export const KnockoutAlert = Type.Object(
  {
    kind: Literals(KNOCKOUT_ALERT_KINDS),
    accountId: AccountScope,
    contractId: Type.String(),
    outcome: Type.String(),
    fixture: Type.String({ description: 'How people name the fixture, e.g. "ARS v CHE".' }),
    message: Type.String({ minLength: 1, description: 'One sentence for people.' }),
    contracts: Type.Optional(
      Type.Integer({ minimum: 0, description: 'knocked_out: contracts lost, when known.' }),
    ),
    knockout: Type.Optional(
      Type.String({ pattern: DECIMAL_PATTERN, description: 'The knockout price, when known.' }),
    ),
    level: Type.Optional(
      Type.String({
        pattern: DECIMAL_PATTERN,
        description: 'near: the level that fired ("0.05").',
      }),
    ),
    distance: Type.Optional(
      Type.String({
        pattern: DECIMAL_PATTERN,
        description: 'near: distance to the knockout, a fraction of the price ("0.0431").',
      }),
    ),
    at: Millis('Local time the alert was raised.'),
  },
  { additionalProperties: false },
);
export type KnockoutAlert = Static<typeof KnockoutAlert>;

export const ipcEvents = {
  'app:changed': AppInfo,
  'sync:status': AppStatus,
  'fixtures:changed': FixturesChanged,
  'positions:changed': PositionsChanged,
  'orders:changed': OrdersChanged,
  'alert:knockout': KnockoutAlert,
} as const satisfies { readonly [E in IpcEvent]: TSchema };

export type IpcEventPayloads = { [E in IpcEvent]: Static<(typeof ipcEvents)[E]> };
export type IpcEventPayload<E extends IpcEvent> = IpcEventPayloads[E];
