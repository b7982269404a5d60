/**
 * The alert centre: knockout alerts from the knockout watch, and fills and rejections of orders,
 * kept in the store so the history survives a restart; per-account alert settings.
 */
import Type, { type Static } from 'typebox';
import {
  AccountScope,
  Closed,
  Count,
  Dec,
  Literals,
  Millis,
  NoInput,
  PageCounts,
  PageWindow,
} from './common.js';

/** guard: a guardian fired, its close filled, or it failed (docs/guardians.md). */
export const ALERT_KINDS = ['near', 'knocked_out', 'filled', 'rejected', 'guard'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/** The kinds that mean money is in danger: the tray's warning icon shows while one is unread. */
export const DANGER_ALERT_KINDS = ['near', 'knocked_out'] as const satisfies readonly AlertKind[];

export const AlertView = Closed({
  id: Type.Integer({ minimum: 1 }),
  kind: Literals(ALERT_KINDS),
  accountId: AccountScope,
  account: Type.String({ minLength: 1, description: 'The account’s name: "Paper" for paper.' }),
  contractId: Type.String(),
  outcome: Type.String(),
  fixture: Type.String({ description: 'How people name the fixture, e.g. "ARS v CHE".' }),
  message: Type.String({ minLength: 1, description: 'One sentence for people.' }),
  createdAt: Millis('Local time the alert was raised.'),
  read: Type.Boolean(),
  orderId: Type.Optional(Type.String({ description: 'filled / rejected: the order.' })),
  knockout: Type.Optional(Dec('near / knocked_out: the knockout price, when known.')),
  price: Type.Optional(Dec('near: the index price that raised it; knocked_out: the index.')),
});
export type AlertView = Static<typeof AlertView>;

export const AlertsQuery = Closed({
  unreadOnly: Type.Optional(Type.Boolean()),
  ...PageWindow(500),
});
export type AlertsQuery = Static<typeof AlertsQuery>;

const AlertCounts = {
  accountId: AccountScope,
  unread: Count(),
  unreadDanger: Count('Unread near or knocked-out alerts.'),
  nearKnockout: Count('Open positions inside an alert level of their knockout now.'),
};

/** One watched account's counts, named as the accounts screen names it. */
export const AccountAlertCounts = Closed({
  ...AlertCounts,
  account: Type.String({ minLength: 1, description: 'The account’s name: "Paper" for paper.' }),
});
export type AccountAlertCounts = Static<typeof AccountAlertCounts>;

/**
 * The account on screen's counts (the Alerts screen's), and every watched account's, that one
 * among them (the tray's and the badge's: every account is watched, docs/alerts.md).
 */
export const AlertsSummary = Closed({
  ...AlertCounts,
  everyAccount: Type.Array(AccountAlertCounts, { maxItems: 1000 }),
});
export type AlertsSummary = Static<typeof AlertsSummary>;

export const AlertPage = Closed({
  alerts: Type.Array(AlertView),
  ...PageCounts,
  summary: AlertsSummary,
});
export type AlertPage = Static<typeof AlertPage>;

/** Mark some alerts read (`ids`), or every alert of the account (`all`). */
export const MarkRead = Closed({
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 })),
  all: Type.Optional(Type.Boolean()),
});
export type MarkRead = Static<typeof MarkRead>;

export const AlertSettings = Closed({
  levels: Type.Array(
    Type.String({ pattern: '^0\\.[0-9]{1,4}$', description: 'A fraction: "0.05" is 5 %.' }),
    { minItems: 1, maxItems: 5, description: 'Near-knockout distances that raise an alert.' },
  ),
  margin: Type.String({
    pattern: '^0\\.[0-9]{1,4}$',
    description: 'How far past a level the distance must recover before it alerts again.',
  }),
  notify: Closed(
    {
      near: Type.Boolean(),
      knocked_out: Type.Boolean(),
      filled: Type.Boolean(),
      rejected: Type.Boolean(),
      guard: Type.Boolean(),
    },
    { description: 'Desktop notifications, per kind.' },
  ),
});
export type AlertSettings = Static<typeof AlertSettings>;

export const AlertRaised = Closed({
  alert: AlertView,
  notify: Type.Boolean({ description: 'The account’s settings want a desktop notification.' }),
  summary: AlertsSummary,
});
export type AlertRaised = Static<typeof AlertRaised>;

/** Calls of the alert centre. (contract.ts joins every feature's calls.) */
export const alertCalls = {
  'alerts:list': { input: AlertsQuery, output: AlertPage },
  'alerts:read': { input: MarkRead, output: AlertsSummary },
  'alerts:settings': { input: NoInput, output: AlertSettings },
  'alerts:configure': { input: AlertSettings, output: AlertSettings },
} as const;
