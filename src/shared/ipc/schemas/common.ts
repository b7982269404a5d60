/** Building blocks every part of the bridge contract uses: literals, times, errors. */
import Type, { type Static, type TObjectOptions, type TProperties, type TSchema } from 'typebox';
import { EARLIEST_FILTER_MS, LATEST_FILTER_MS } from '../../rules/date-filter.js';
import { DECIMAL_PATTERN } from '../../money.js';

export const Millis = (description: string) => Type.Integer({ minimum: 0, description });
/** How many of something: a whole number, zero or more. */
export const Count = (description?: string) =>
  Type.Integer(description === undefined ? { minimum: 0 } : { minimum: 0, description });
/**
 * A date filter's bound (ms since epoch): negative before 1970, down to the first day a date
 * picker offers (src/shared/rules/date-filter.ts), so the renderer and this check agree.
 */
export const FilterMillis = (description: string) =>
  Type.Integer({ minimum: EARLIEST_FILTER_MS, maximum: LATEST_FILTER_MS, description });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** An amount as an exact decimal string: money never crosses the bridge as a float. */
export const Dec = (description: string) => Type.String({ pattern: DECIMAL_PATTERN, description });
export const NullableDec = (description: string) => Nullable(Dec(description));
/** A string enum. (Type.Union over `values.map(Type.Literal)` would type as `never`: TypeBox's
 *  Static needs a tuple, and map gives an array.) */
export const Literals = <const T extends readonly string[]>(values: T) => Type.Enum<[...T]>(values);

/** An object of exactly these properties: what crosses the bridge carries nothing else. */
export const Closed = <T extends TProperties>(properties: T, options: TObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** A list call's window: at most `maxLimit` rows, after skipping `offset`. */
export const PageWindow = (maxLimit: number) => ({
  limit: Type.Integer({ minimum: 1, maximum: maxLimit }),
  offset: Type.Integer({ minimum: 0 }),
});

/** What every page of a list answers beside its rows: how many match, and the window shown. */
export const PageCounts = {
  total: Count(),
  limit: Type.Integer({ minimum: 1 }),
  offset: Type.Integer({ minimum: 0 }),
};

/** A call that takes nothing still sends `{}`: one shape for every channel. */
export const NoInput = Closed({});

/** The account an event is about, as the bridge names accounts: null for paper. */
export const AccountScope = Nullable(Type.String({ description: 'The account; null for paper.' }));

/**
 * What went wrong, as the renderer acts on it:
 * - invalid-input: the request broke the contract (a bug in the caller, or a forged message);
 * - not-found / conflict: the thing asked for does not exist, or the app's state refuses it;
 * - exchange: the exchange refused it (`code` is its error code);
 * - rate-limited: the exchange's quota is spent for now; `retryAfterMs` says when to try again;
 * - offline: the exchange cannot be reached;
 * - keychain: the system keychain is missing or refused;
 * - not-ready: this part of the app is not available (yet);
 * - disk-full: the disk is full, so Betdesk could not save (the message says what);
 * - io-error: the disk failed a write while it had room (the message says what was kept);
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
  /** accounts:add: its exchange could not be checked; `keepUnchecked` adds it anyway. */
  'unchecked',
  'not-ready',
  'disk-full',
  'io-error',
  'internal',
] as const;
export type BridgeErrorKind = (typeof BRIDGE_ERROR_KINDS)[number];

export const BridgeError = Closed({
  kind: Literals(BRIDGE_ERROR_KINDS),
  message: Type.String({ minLength: 1, description: 'A sentence for people; never a secret.' }),
  code: Type.Optional(Type.Integer({ description: 'The exchange error code, when it had one.' })),
  retryAfterMs: Type.Optional(Count('rate-limited: how long until it may be tried.')),
});
export type BridgeError = Static<typeof BridgeError>;

/** Every call answers with this envelope, so an error keeps its shape over either transport. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };
