/** The app as a whole: mode, accounts, sync status, app-wide settings and screens. */
import Type, { type Static } from 'typebox';
import type { LimitGroup } from '../../api/limits.js';
import { ACCOUNT_LABEL_MAX } from '../account-label.js';
import { BASE_URL_PATTERN } from '../base-url.js';
import { SCREENS } from '../../screens.js';
import { Closed, Count, Literals, Millis, NoInput, Nullable } from './common.js';

export const TRADING_MODES = ['paper', 'live'] as const;
export type TradingMode = (typeof TRADING_MODES)[number];

export const ACCOUNT_PERMISSIONS = ['read', 'trade', 'unknown'] as const;
export type AccountPermission = (typeof ACCOUNT_PERMISSIONS)[number];

export const SYNC_STATES = ['idle', 'syncing', 'paused', 'offline', 'error'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

export { SCREENS, type ScreenName } from '../../screens.js';

const LIMIT_GROUPS = [
  'positions',
  'quotes',
  'orders',
  'reads',
  'fixtures',
] as const satisfies readonly LimitGroup[];

export const STORE_NOTICE_KINDS = ['recovered', 'moved', 'two-stores'] as const;

/**
 * Something Betdesk did to its local store on its own, said until the user acknowledges it:
 * a damaged file moved aside and rebuilt, the store moved to the data folder, two stores found.
 */
export const StoreNotice = Closed({
  kind: Literals(STORE_NOTICE_KINDS),
  at: Millis('When it happened, local clock; names the notice when acknowledging.'),
  message: Type.String({ description: 'What happened, in words.' }),
  movedTo: Nullable(
    Type.String({ description: 'recovered: where the damaged file is now; moved: the folder.' }),
  ),
  restoredFrom: Nullable(Type.String({ description: 'The backup local data came back from.' })),
});
export type StoreNotice = Static<typeof StoreNotice>;

export const StoreNoticeRef = Closed({ at: Millis('The notice’s `at`.') });
export type StoreNoticeRef = Static<typeof StoreNoticeRef>;

export const AppInfo = Closed({
  mode: Literals(TRADING_MODES),
  activeAccountId: Nullable(Type.String({ description: 'null in paper mode.' })),
  accountLabel: Type.String({ description: 'What the mode badge shows: "Paper" or a label.' }),
  canTrade: Type.Boolean({
    description: 'False when the active key may only read (placing is refused).',
  }),
  host: Literals(['electron', 'browser'] as const),
  versions: Type.Object({
    app: Type.String(),
    node: Type.String(),
    electron: Nullable(Type.String()),
    chrome: Nullable(Type.String()),
  }),
  storeNotice: Type.Optional(StoreNotice),
});
export type AppInfo = Static<typeof AppInfo>;

export const Account = Closed(
  {
    id: Type.String({ minLength: 1 }),
    label: Type.String(),
    baseUrl: Type.String(),
    apiKeyHint: Type.String({ description: 'The last characters of the key, to tell keys apart.' }),
    permission: Literals(ACCOUNT_PERMISSIONS),
    active: Type.Boolean(),
    createdAt: Millis('When the account was added, local clock.'),
    sameWalletAs: Type.Array(Type.String(), {
      description:
        'The labels of the other accounts that read the same wallet (they hold the same orders), first added first; [] when none.',
    }),
  },
  { description: 'An exchange account, never with its secret.' },
);
export type Account = Static<typeof Account>;

export const AccountList = Closed({ accounts: Type.Array(Account) });
export type AccountList = Static<typeof AccountList>;

export const NewAccount = Closed({
  label: Type.String({ minLength: 1, maxLength: ACCOUNT_LABEL_MAX }),
  baseUrl: Type.String({ pattern: BASE_URL_PATTERN, maxLength: 512 }),
  apiKey: Type.String({ minLength: 1, maxLength: 256, pattern: '^\\S+$' }),
  secret: Type.String({ minLength: 1, maxLength: 512, pattern: '^\\S+$' }),
  keepUnchecked: Type.Optional(
    Type.Boolean({
      description:
        'Add it even when its exchange cannot be checked: sent only after the user saw why the check failed (the refusal of kind "unchecked") and chose to keep it.',
    }),
  ),
});
export type NewAccount = Static<typeof NewAccount>;

/** The account just added, with what the user should know about it. */
export const AddedAccount = Closed({
  ...Account.properties,
  notice: Type.Optional(
    Type.String({
      description:
        'Kept without a check (why), or what the check found (e.g. a removed wallet grant).',
    }),
  ),
});
export type AddedAccount = Static<typeof AddedAccount>;

export const AccountRef = Closed({ accountId: Type.String({ minLength: 1, maxLength: 128 }) });
export type AccountRef = Static<typeof AccountRef>;

export const AccountSwitch = Closed({
  accountId: Nullable(
    Type.String({ minLength: 1, maxLength: 128, description: 'null switches to paper.' }),
  ),
});
export type AccountSwitch = Static<typeof AccountSwitch>;

export const AccountRemoval = Closed(
  {
    armedRules: Count('Guardian rules armed or closing now: their positions stay open.'),
    otherRules: Count('Guardian rules that ended.'),
    guardLogLines: Count('Lines of the guardian log.'),
    orders: Count('Exchange orders and requests never answered.'),
    settlements: Count('Settlement rows.'),
    positions: Count('Positions last read.'),
    alerts: Count('Alerts.'),
    priceSeries: Count('Outcomes whose index prices were recorded.'),
    pricePoints: Count('Recorded prices and their summaries.'),
    equityPoints: Count('Points of the equity chart.'),
    fixtures: Count('Fixtures stored for the account.'),
  },
  { description: 'What removing the account deletes on this computer (docs/accounts.md).' },
);
export type AccountRemoval = Static<typeof AccountRemoval>;

export const Removed = Closed({ removed: Type.Boolean() });
export type Removed = Static<typeof Removed>;

export const RateBucket = Closed({
  group: Literals(LIMIT_GROUPS),
  tokens: Type.Number({ minimum: 0, description: 'Requests that may go out now.' }),
  capacity: Count(),
  queued: Count(),
  blockedUntil: Nullable(Millis('Local time until which the exchange asked us to wait.')),
});
export type RateBucket = Static<typeof RateBucket>;

export const AppStatus = Closed({
  mode: Literals(TRADING_MODES),
  online: Type.Boolean({ description: 'The exchange answered the last time we asked.' }),
  sync: Closed({
    state: Literals(SYNC_STATES),
    lastSyncAt: Nullable(Millis('Last complete sync, local clock.')),
    message: Nullable(Type.String({ description: 'Why sync stopped, as a sentence.' })),
  }),
  clockOffsetMs: Nullable(Type.Integer({ description: 'Server clock minus local clock.' })),
  rateBudget: Type.Array(RateBucket),
});
export type AppStatus = Static<typeof AppStatus>;

/** App-wide preferences (not per account). */
export const DeskSettings = Closed({
  oneClickBetting: Type.Boolean({
    description: 'Place at once, without the confirmation step (off by default).',
  }),
  startAtLogin: Type.Boolean({
    description: 'Desktop app: the OS starts Betdesk when the user logs in (off by default).',
  }),
  startHidden: Type.Boolean({
    description: 'Desktop app: a start at login shows only the tray icon, not the window.',
  }),
});
export type DeskSettings = Static<typeof DeskSettings>;

export const DeskSettingsChange = Type.Partial(DeskSettings, { additionalProperties: false });
export type DeskSettingsChange = Static<typeof DeskSettingsChange>;

/** Main asks the renderer to show a screen: an app-menu shortcut, a clicked notification. */
export const ShowRequest = Closed({
  screen: Literals(SCREENS),
  contractId: Type.Optional(Type.String({ description: 'positions: the row to bring forward.' })),
  outcome: Type.Optional(Type.String()),
  detail: Type.Optional(
    Type.Boolean({ description: 'positions: also open that position’s detail (its chart).' }),
  ),
  settlementId: Type.Optional(
    Type.Integer({ minimum: 1, description: 'history: open this settlement’s detail.' }),
  ),
  search: Type.Optional(Type.Boolean({ description: 'Also focus the screen’s search box.' })),
  shortcuts: Type.Optional(Type.Boolean({ description: 'Also open the shortcuts overlay.' })),
});
export type ShowRequest = Static<typeof ShowRequest>;

/** Where the start is: what main is doing before the desk can show (docs/data.md, "Start"). */
export const START_PHASES = [
  'opening',
  'moving',
  'checking',
  'backing-up',
  'upgrading',
  'rebuilding',
  'starting',
  'ready',
  'failed',
] as const;
export type StartPhase = (typeof START_PHASES)[number];

/**
 * The start's progress: said in the window (the start screen), on the host's stderr and by the
 * CLI. `done` of `total` is how far the phase is when that is known (pages of a backup, steps
 * of an upgrade), null when it is not.
 */
export const StartProgress = Closed({
  phase: Literals(START_PHASES),
  message: Type.String({
    description: 'What is happening, in words: "Upgrading your store: step 2 of 3 (realized P&L)".',
  }),
  done: Nullable(Count('How much of the phase is done, in `unit`s.')),
  total: Nullable(Count('How much there is to do, in `unit`s.')),
  unit: Type.String({ description: '"pages", "steps", ... ; empty when no count is known.' }),
  startedAt: Millis('When the start began, local clock.'),
  phaseStartedAt: Millis('When this phase began, local clock.'),
});
export type StartProgress = Static<typeof StartProgress>;

/** Calls of the app as a whole: its mode, accounts, status and sync, settings, store notices. (contract.ts joins every feature's calls.) */
export const appCalls = {
  'app:info': { input: NoInput, output: AppInfo },
  /** Answered from the first moment, before the store is open (main/start). */
  'app:start': { input: NoInput, output: StartProgress },
  'accounts:list': { input: NoInput, output: AccountList },
  'accounts:add': { input: NewAccount, output: AddedAccount },
  /** What `accounts:remove` would delete, counted: said before the second press. */
  'accounts:removal': { input: AccountRef, output: AccountRemoval },
  'accounts:remove': { input: AccountRef, output: Removed },
  'accounts:switch': { input: AccountSwitch, output: AppInfo },
  'settings:get': { input: NoInput, output: DeskSettings },
  'settings:set': { input: DeskSettingsChange, output: DeskSettings },
  'status:get': { input: NoInput, output: AppStatus },
  'sync:pause': { input: NoInput, output: AppStatus },
  'sync:resume': { input: NoInput, output: AppStatus },
  'store:acknowledge': { input: StoreNoticeRef, output: AppInfo },
} as const;
