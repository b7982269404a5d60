/**
 * What the IPC handlers need from the app: the composition root (src/main/app) implements this
 * with the real trading, sync and account services and hands it to `registerHandlers`. Every
 * method receives input already validated against the contract's schema; what it returns is
 * validated in development and tests. A method refuses by throwing `ServiceError` (or any error
 * `toBridgeError` knows); its message reaches the user, so it is a sentence and never a secret.
 */
import type {
  Account,
  AddedAccount,
  AlertPage,
  AlertSettings,
  AlertsQuery,
  AlertsSummary,
  AppInfo,
  AppStatus,
  DeskSettings,
  DeskSettingsChange,
  ExportCanceled,
  ExportRequest,
  ExportStarted,
  FixturePage,
  FixturesFilter,
  HistoryChoices,
  HistoryPage,
  HistoryQuery,
  HistorySummary,
  HistorySummaryQuery,
  HistorySyncStatus,
  IpcEvent,
  IpcEventPayload,
  MarkRead,
  NewAccount,
  OrderFixtures,
  OrderPage,
  OrderRow,
  OrdersFilter,
  OrdersScope,
  OrderTotals,
  PlaceOrder,
  PlaceResult,
  PositionsView,
  PracticeFixture,
  PracticePrice,
  PracticeResolve,
  PracticeResult,
  QuoteRequest,
  QuoteResult,
  SettlementDetail,
  Diagnostics,
  LogsFolderOpened,
  SupportFolders,
} from '../../shared/ipc/contract.js';
import type { ExportDestination } from '../export/index.js';
import type { AppLog } from '../log/index.js';

export interface AppService {
  /** Mode, active account and versions, for the badge and the about box. */
  info(): Promise<AppInfo>;
}

export interface AccountsService {
  list(): Promise<Account[]>;
  /** Stores the secret in the system keychain (never in the database) and returns the account
   *  without it. Throws `KeychainUnavailableError` when there is no keychain. */
  add(input: NewAccount): Promise<AddedAccount>;
  /** Removes the account and its secret; switches to paper when it was the active one. Returns
   *  false when there was no such account. */
  remove(accountId: string): Promise<boolean>;
  /** `null` switches to paper mode. */
  switchTo(accountId: string | null): Promise<AppInfo>;
}

export interface FixturesService {
  /** Reads from the local store, so markets show while the exchange is unreachable. Ordered by
   *  league, then kick-off, then contractId (the screen groups a page by league). */
  list(filter: FixturesFilter): Promise<FixturePage>;
}

export interface QuotesService {
  request(input: QuoteRequest): Promise<QuoteResult>;
}

/** Placing bets for the active account: one bet is at most one order, whatever repeats it. */
export interface TradingDeskService {
  /**
   * Places the bet, after refusing what the store already knows the exchange would refuse
   * (betting closed, the opposite outcome held, nothing to sell, a read-only key, offline, the
   * order budget spent). Resolves once the exchange accepted it (SUBMITTED), refused it
   * (NOT_PLACED) or could not be asked (CHECKING: reconciled later, never shown as failed).
   * The same clientOrderId again answers its first order with `repeated: true`.
   */
  place(input: PlaceOrder): Promise<PlaceResult>;
}

/** The active account's order blotter: orders and the intents not (yet) matched to one. */
export interface OrdersService {
  /** Newest first. */
  list(filter: OrdersFilter): Promise<OrderPage>;
  get(clientOrderId: string): Promise<OrderRow | null>;
  fixtures(): Promise<OrderFixtures>;
  /** Count, fills, staked and proceeds of the exchange orders the scope matches (SQLite). */
  totals(scope: OrdersScope): Promise<OrderTotals>;
}

/** The active account's settlements, from the store: the history works offline. */
export interface HistoryService {
  list(query: HistoryQuery): Promise<HistoryPage>;
  /** Totals, totals per type and the P&L series, aggregated in SQLite. */
  summary(query: HistorySummaryQuery): Promise<HistorySummary>;
  /** The settlement with its fixture and orders; `row: null` when there is no such row. */
  detail(id: number): Promise<SettlementDetail>;
  choices(): Promise<HistoryChoices>;
  /**
   * Starts rebuilding the active account's history from the exchange (the cursor from zero and
   * every settlements page) and answers at once; progress comes as `history:progress`. Refused
   * (ServiceError 'conflict') while one runs.
   */
  resync(): Promise<HistorySyncStatus>;
  /** The sweep running now (first sync or resync), or null. */
  status(): Promise<HistorySyncStatus>;
}

/** CSV export of what a filter shows, through the same module as the CLI. */
export interface ExportService {
  /**
   * Desktop: asks where to save (null when the user closes the dialog) and starts writing.
   * Browser host: registers the export and answers the path the renderer downloads it from.
   * Progress comes as `export:progress`.
   */
  start(request: ExportRequest): Promise<ExportStarted>;
  /** Stops it and removes what it wrote; false when it had already ended. */
  cancel(exportId: string): Promise<ExportCanceled>;
}

export interface PositionsService {
  /** The active account's open positions from the store, with fixtures and knockout distance. */
  view(): Promise<PositionsView>;
}

/** The alert centre of the active account, and its alert settings. */
export interface AlertsService {
  list(query: AlertsQuery): Promise<AlertPage>;
  markRead(input: MarkRead): Promise<AlertsSummary>;
  /** Unread counts and positions near their knockout: the nav badge and the tray. */
  summary(): Promise<AlertsSummary>;
  settings(): Promise<AlertSettings>;
  /** Stores the settings and applies them to the running knockout watch at once. */
  configure(settings: AlertSettings): Promise<AlertSettings>;
}

/** App-wide preferences. */
export interface SettingsService {
  get(): Promise<DeskSettings>;
  set(change: DeskSettingsChange): Promise<DeskSettings>;
  /**
   * Main only (no channel): remembers that a one-time notice was shown; true the first time
   * for `notice`, false ever after (the shell's "still running in the tray").
   */
  markNoticeShown(notice: string): Promise<boolean>;
}

/**
 * Drives the paper exchange. Every method throws ServiceError('conflict') unless the active
 * account is the paper account: a live account can never reach the sandbox's controls.
 */
export interface PracticeService {
  setPrice(input: PracticePrice): Promise<PracticeResult>;
  closeBetting(input: PracticeFixture): Promise<PracticeResult>;
  resolve(input: PracticeResolve): Promise<PracticeResult>;
  /** The next order placed is accepted and then reverts on chain (REJECTED, -2024). */
  rejectNextOrder(): Promise<PracticeResult>;
}

export interface StatusService {
  get(): Promise<AppStatus>;
  pauseSync(): Promise<AppStatus>;
  resumeSync(): Promise<AppStatus>;
}

/** What Betdesk did to its local store on its own (AppInfo.storeNotice), until acknowledged. */
export interface StoreNoticesService {
  /** Drops the notice of that time; answers the app info with the next notice, if any. */
  acknowledge(at: number): Promise<AppInfo>;
}

/** Help for the user and for support: the logs folder and the diagnostics text. */
export interface SupportService {
  folders(): Promise<SupportFolders>;
  /** Versions, OS, folders, settings, accounts and sync without secrets, and the last errors. */
  diagnostics(): Promise<Diagnostics>;
  /** Opens the logs folder in the OS's file manager; the answer always carries the path. */
  openLogs(): Promise<LogsFolderOpened>;
}

export type IpcEventListener = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) => void;

/** Where services announce changes; registerHandlers forwards each to every renderer. */
export interface EventSource {
  subscribe(listener: IpcEventListener): () => void;
}

export interface Services {
  app: AppService;
  accounts: AccountsService;
  fixtures: FixturesService;
  quotes: QuotesService;
  trading: TradingDeskService;
  orders: OrdersService;
  history: HistoryService;
  exports: ExportService;
  positions: PositionsService;
  alerts: AlertsService;
  settings: SettingsService;
  practice: PracticeService;
  status: StatusService;
  storeNotices: StoreNoticesService;
  support: SupportService;
  events: EventSource;
  /** Stops timers, sync and the paper exchange, and closes the store; called once on quit. */
  stop(): Promise<void>;
}

/** What the shell and the browser host pass to the composition root. */
export interface ServicesOptions {
  /** Directory for the database and other state. */
  dataDir: string;
  /** Which front end runs: shown in `app:info`. */
  host: 'electron' | 'browser';
  /** better-sqlite3 built for Electron's ABI (build/electron-native), when running in Electron. */
  nativeBinding?: string;
  /** Keychain service name; tests use their own so no real entry is touched. */
  keychainService?: string;
  /** Versions of the runtime, for `app:info`. */
  versions: { app: string; node: string; electron: string | null; chrome: string | null };
  /**
   * Where CSV exports go: the shell's save dialog (desktop) or the browser host's downloads.
   * Absent, `export:start` is refused with a sentence.
   */
  exports?: ExportDestination;
  /**
   * The main process's log (src/main/log), which the services write to. Absent, warnings go to
   * stderr as one line each and diagnostics have no log folder or recent errors.
   */
  log?: AppLog;
  /**
   * Opens a folder in the OS's file manager: Electron's shell.openPath ('' when it opened, else
   * why not). Absent, the browser host's opener (xdg-open, open or explorer) is used.
   */
  openFolder?: (path: string) => Promise<string>;
}

export type CreateServices = (options: ServicesOptions) => Promise<Services>;
