/**
 * Guardians (docs/guardians.md): exit rules the user arms on a position, which close it by
 * themselves with a MARKET SELL through the trading path, exactly once, and say what they did.
 * Main evaluates them on every fresh positions and prices update of the account whose session
 * runs (the app, the browser host, `cli sync`); the renderer arms, changes, disarms, pauses and
 * reads the guardian log.
 */
import Type, { type Static } from 'typebox';
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
import { FixtureRef } from './markets.js';

const ContractId = Type.String({ minLength: 1, maxLength: 128 });
const Outcome = Type.String({ minLength: 1, maxLength: 8 });

/**
 * knockout: close when the index price comes within `percent` % of the knockout (the distance
 * Positions shows). stop_loss: when the P&L falls to −`percent` % (or the closing price to
 * `price`). take_profit: when the P&L reaches +`percent` % (or the closing price reaches
 * `price`). trailing_stop: when the closing price falls `percent` % below the best closing price
 * seen since the rule was armed. time_exit: `minutes` before kick-off.
 */
export const GUARD_KINDS = [
  'knockout',
  'stop_loss',
  'take_profit',
  'trailing_stop',
  'time_exit',
] as const;
export type GuardKind = (typeof GUARD_KINDS)[number];

/** A percentage as people type it: "5", "2.5" (at most 2 places, above 0, below 1000). */
export const GuardPercent = Type.String({
  pattern: '^(?:0|[1-9][0-9]{0,2})(?:\\.[0-9]{1,2})?$',
  description: 'A percentage: "5" is 5 %.',
});

/** What a rule watches and what it closes: the user's words for one exit. */
export const GuardSpec = Closed({
  kind: Literals(GUARD_KINDS),
  percent: Type.Optional(GuardPercent),
  price: Type.Optional(
    Type.String({
      pattern: '^0\\.[0-9]{1,4}$',
      description: 'stop_loss / take_profit: a closing price instead of a P&L percentage.',
    }),
  ),
  minutes: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1440, description: 'time_exit: minutes before kick-off.' }),
  ),
  sharePercent: Type.Integer({
    minimum: 1,
    maximum: 100,
    description: 'The share of the position to close, % of its contracts when it fires.',
  }),
  confirmations: Type.Integer({
    minimum: 1,
    maximum: 10,
    description: 'Consecutive fresh observations the condition must hold on before it fires.',
  }),
});
export type GuardSpec = Static<typeof GuardSpec>;

/**
 * armed: watching. firing: its close was claimed and is being sent or followed. closed: its
 * close order filled. failed: refused or not filled (said in `reason`); it does not retry.
 * disarmed: by the user, or by closing the position by hand. ended: the position closed
 * otherwise (settled, knocked out, sold elsewhere). Only an armed rule can fire; re-arming is the
 * user's act.
 */
export const GUARD_STATES = ['armed', 'firing', 'closed', 'failed', 'disarmed', 'ended'] as const;
export type GuardState = (typeof GUARD_STATES)[number];

/** Why an armed rule that wants to fire does not send now. */
export const GUARD_HOLDS = ['stale', 'paused', 'limit', 'budget', 'position'] as const;
export type GuardHold = (typeof GUARD_HOLDS)[number];

export const GuardRuleView = Closed({
  id: Type.Integer({ minimum: 1 }),
  accountId: AccountScope,
  contractId: Type.String(),
  outcome: Type.String(),
  fixture: Nullable(FixtureRef),
  spec: GuardSpec,
  state: Literals(GUARD_STATES),
  armedAt: Millis('Local time it was armed.'),
  stateAt: Millis('Local time of its last change of state.'),
  reason: Nullable(
    Type.String({ description: 'failed, disarmed, ended: why, in words; otherwise null.' }),
  ),
  best: NullableDec('trailing_stop: the best closing price seen since armed; otherwise null.'),
  streak: Count('Consecutive fresh observations the condition held on so far.'),
  now: NullableDec('The figure it watches, now (closing price, P&L %, distance %, minutes).'),
  firesAt: NullableDec('The value of that figure at which it fires.'),
  distance: Nullable(
    Type.String({
      description:
        'How far it is from firing, in words ("2.4 points above the stop"); null when unknown.',
    }),
  ),
  hold: Nullable(Literals(GUARD_HOLDS)),
  holdMessage: Nullable(
    Type.String({
      description: 'Why it would not fire now, in words ("waiting for fresh prices").',
    }),
  ),
  clientOrderId: Nullable(Type.String({ description: 'Its close order, once claimed.' })),
  orderId: Nullable(Type.String()),
  contracts: Nullable(Count('Contracts its close sells, once claimed.')),
});
export type GuardRuleView = Static<typeof GuardRuleView>;

/** Per-account limits on automatic closes, per local day. null: no limit of that kind. */
export const GuardLimits = Closed({
  closes: Type.Integer({ minimum: 0, maximum: 1000, description: 'Automatic closes a day.' }),
  contracts: Nullable(Type.Integer({ minimum: 1, description: 'Contracts sold a day.' })),
  stake: NullableDec('Cost basis of the contracts sold a day, dollars.'),
});
export type GuardLimits = Static<typeof GuardLimits>;

export const GuardUsage = Closed({
  closes: Count('Automatic closes sent today (local day).'),
  contracts: Count('Contracts they sold.'),
  stake: Dec('Cost basis of those contracts, dollars.'),
});
export type GuardUsage = Static<typeof GuardUsage>;

export const GuardsView = Closed({
  accountId: AccountScope,
  paused: Type.Boolean({ description: 'Every rule of every account is held while on.' }),
  pausedAt: Nullable(Millis('When the pause was turned on.')),
  readOnly: Type.Boolean({ description: 'The key may only read: no rule can be armed.' }),
  limits: GuardLimits,
  usedToday: GuardUsage,
  rules: Type.Array(GuardRuleView, {
    description: 'Armed and firing rules, then the last ended ones (newest first, at most 50).',
  }),
  at: Millis('Local time of this view.'),
});
export type GuardsView = Static<typeof GuardsView>;

export const ArmGuards = Closed({
  contractId: ContractId,
  outcome: Outcome,
  rules: Type.Array(GuardSpec, { minItems: 1, maxItems: 5 }),
  replaces: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Change: this rule is disarmed as the new is armed.' }),
  ),
  fireNow: Type.Optional(
    Type.Boolean({
      description:
        'The user was told a rule would fire at once on the figures now, and means it: without it such an arm is refused.',
    }),
  ),
});
export type ArmGuards = Static<typeof ArmGuards>;

/** What one rule of an ArmGuards would do on the figures now, before it is armed. */
export const GuardPreview = Closed({
  /** Its condition holds on the figures now: armed, it closes at the next fresh read. */
  firesNow: Type.Boolean(),
  /** In words, with the figure: "knockout 36.83 % away, within 99.99 %"; null: no figures. */
  distance: Nullable(Type.String()),
  /** The contracts it would sell now; null when not firing or unknown. */
  contracts: Nullable(Type.Integer({ minimum: 0 })),
  /** When the figures judged were read (local ms); null: none. */
  observedAt: Nullable(Millis('When the figures were read.')),
});
export type GuardPreview = Static<typeof GuardPreview>;

export const GuardCheck = Closed({
  /** One per rule of the input, in its order. */
  rules: Type.Array(GuardPreview),
  /** Why the arm would be refused now (a duplicate, a kick-off too soon, ...); null: it would not. */
  problem: Nullable(Type.String()),
});
export type GuardCheck = Static<typeof GuardCheck>;

export const DisarmGuards = Closed({
  ruleId: Type.Optional(Type.Integer({ minimum: 1 })),
  contractId: Type.Optional(ContractId),
  outcome: Type.Optional(Outcome),
});
export type DisarmGuards = Static<typeof DisarmGuards>;

export const PauseGuards = Closed({ paused: Type.Boolean() });
export type PauseGuards = Static<typeof PauseGuards>;

/** The account's limits, and the rules the slip offers after a bet (none armed by itself). */
export const GuardSettings = Closed({
  limits: GuardLimits,
  defaults: Type.Array(GuardSpec, { maxItems: 5 }),
});
export type GuardSettings = Static<typeof GuardSettings>;

// ---------------------------------------------------------------- the guardian log

/**
 * armed, disarmed, ended: a rule's life. fired: it fired and its close was claimed. held: it
 * wanted to fire and did not (`hold` says why). sent: the exchange accepted its close. filled:
 * the close filled. failed: refused, not placed or not filled.
 */
export const GUARD_LOG_EVENTS = [
  'armed',
  'disarmed',
  'ended',
  'fired',
  'held',
  'sent',
  'filled',
  'failed',
] as const;
export type GuardLogEvent = (typeof GUARD_LOG_EVENTS)[number];

export const GuardObservation = Closed({
  at: Millis('Local time the figures were read.'),
  closingPrice: NullableDec('Estimated closing price per contract.'),
  indexPrice: NullableDec('The outcome’s index price.'),
  pnl: NullableDec('P&L of the position, dollars.'),
  pnlPercent: NullableDec('P&L as a percentage of posted collateral.'),
  contracts: Nullable(Count('Contracts held.')),
});
export type GuardObservation = Static<typeof GuardObservation>;

export const GuardLogRow = Closed({
  id: Type.Integer({ minimum: 1 }),
  at: Millis('Local time of the event.'),
  accountId: AccountScope,
  ruleId: Type.Integer({ minimum: 1 }),
  kind: Literals(GUARD_KINDS),
  contractId: Type.String(),
  outcome: Type.String(),
  fixture: Type.String({ description: 'How people name the fixture, e.g. "ARS v CHE".' }),
  event: Literals(GUARD_LOG_EVENTS),
  hold: Nullable(Literals(GUARD_HOLDS)),
  message: Type.String({ minLength: 1, description: 'What happened, in one sentence.' }),
  observation: Nullable(GuardObservation),
  contracts: Nullable(Count('Contracts its close sells.')),
  clientOrderId: Nullable(Type.String()),
  orderId: Nullable(Type.String()),
  errorCode: Nullable(Type.Integer()),
});
export type GuardLogRow = Static<typeof GuardLogRow>;

/** Which log rows the screen, its CSV export and `cli guard log` show. */
export const GuardLogScope = Closed({
  event: Type.Optional(Literals(GUARD_LOG_EVENTS)),
  kind: Type.Optional(Literals(GUARD_KINDS)),
  ruleId: Type.Optional(Type.Integer({ minimum: 1 })),
  contractId: Type.Optional(ContractId),
  from: Type.Optional(FilterMillis('At or after (inclusive).')),
  to: Type.Optional(FilterMillis('Before (exclusive).')),
});
export type GuardLogScope = Static<typeof GuardLogScope>;

export const GuardLogQuery = Closed({ ...GuardLogScope.properties, ...PageWindow(500) });
export type GuardLogQuery = Static<typeof GuardLogQuery>;

export const GuardLogPage = Closed({ rows: Type.Array(GuardLogRow), ...PageCounts });
export type GuardLogPage = Static<typeof GuardLogPage>;

/** Calls of the guardians. (contract.ts joins every feature's calls.) */
export const guardCalls = {
  'guards:list': { input: NoInput, output: GuardsView },
  'guards:arm': { input: ArmGuards, output: GuardsView },
  'guards:check': { input: ArmGuards, output: GuardCheck },
  'guards:disarm': { input: DisarmGuards, output: GuardsView },
  'guards:pause': { input: PauseGuards, output: GuardsView },
  'guards:settings': { input: NoInput, output: GuardSettings },
  'guards:configure': { input: GuardSettings, output: GuardSettings },
  'guards:log': { input: GuardLogQuery, output: GuardLogPage },
} as const;
