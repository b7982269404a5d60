/**
 * The composition root: every feature's handlers for the bridge, joined into one table with the
 * wrappers every call gets, and what the shell, the browser host and the tests reach besides.
 *
 * - One store per data directory (`<dataDir>/betdesk.sqlite`, data/store-file.ts: checked at
 *   start, rebuilt from a backup when damaged, backed up daily while the app runs, with what
 *   was done as a store notice in AppInfo) and one RateGovernor per exchange base URL
 *   (connection.ts); the CLI opens both the same way.
 * - The active account (active.ts): the one piece of mutable state, whose session runs now
 *   (session.ts: connection, sync engine, knockout watch, desk). Switching stops one session
 *   and starts the next; the active account is remembered in the store's settings, none
 *   meaning paper. Events reach the bridge through events.ts.
 * - Paper mode (practice/paper.ts): the sandbox exchange in this process, started the first
 *   time paper is used and kept until stop().
 * - The features (accounts, markets, desk, history, export, practice, sync status, support,
 *   store notices) each serve their channels from their own folder's feature.ts.
 */
import type {
  AccountAlertCounts,
  AlertsSummary,
  IpcChannel,
  IpcInput,
  IpcOutput,
} from '../../shared/ipc/contract.js';
import { accountsFeature, appInfoOf, openAccountRegistry } from '../accounts/feature.js';
import { openDataStore, dailyBackups, type OpenedStore } from '../data/store-file.js';
import { storeNoticesFeature } from '../data/feature.js';
import { withStoreNotice } from '../data/store-notices.js';
import type { Emit } from '../desk/alert-centre.js';
import { markNoticeShown } from '../desk/alert-settings.js';
import { deskFeature } from '../desk/feature.js';
import { exportFeature } from '../export/feature.js';
import { portfolioFeature } from '../portfolio/feature.js';
import { PriceAger } from '../prices/ageing.js';
import { BackfillWorker } from '../pnl/backfill-worker.js';
import { pricesFeature } from '../prices/feature.js';
import { historyFeature } from '../history/feature.js';
import { GuardBook, guardsFeature } from '../guard/index.js';
import { IpcEventHub, type EventSource } from '../ipc/events.js';
import { combineHandlers, withRefusals, type IpcHandlers } from '../ipc/handler.js';
import { orStderr } from '../log/index.js';
import { FixtureBoard } from '../markets/board.js';
import { marketsFeature } from '../markets/feature.js';
import { practiceFeature } from '../practice/feature.js';
import { PaperMode } from '../practice/paper.js';
import type { Store } from '../store/index.js';
import { StoreReads } from '../store/read-worker.js';
import { supportFeature } from '../support/feature.js';
import { StartTracker } from '../start/index.js';
import { statusFeature } from '../sync/feature.js';
import { ActiveAccount, keyOf, reasonOf, rememberedAccount, type AccountKey } from './active.js';
import { startingAccount } from './remembered.js';
import { RateGovernors } from './connection.js';
import { announceSession, forwardEvents, routeEmit } from './events.js';
import type { ServicesOptions } from './options.js';
import { openSession, type AccountSession } from './session.js';

export type { ServicesOptions } from './options.js';

/** What the shell and the browser host run: the bridge's handlers and events, and main's own. */
export interface Services {
  /** Every channel of the contract, refusals thrown as the bridge's. */
  readonly handlers: IpcHandlers;
  /** Where features announce changes; the bridge forwards each to every renderer. */
  readonly events: EventSource;
  /** Unread counts and positions near their knockout, for the tray and the badge. */
  alertsSummary(): Promise<AlertsSummary>;
  /**
   * Remembers that a one-time notice was shown; true the first time for `notice`, false ever
   * after (the shell's "still running in the tray").
   */
  markNoticeShown(notice: string): Promise<boolean>;
  /** Stops timers, sync and the paper exchange, and closes the store; called once on quit. */
  stop(): Promise<void>;
}

export type CreateServices = (options: ServicesOptions) => Promise<Services>;

/** The services plus what main's own parts (and tests) may reach directly. */
export interface AppServices extends Services {
  readonly store: Store;
  /** The runtime of the account on screen; undefined only before the first switch or stopped. */
  session(): AccountSession | undefined;
  /** Every account's session, running on screen or not, and how many were ever started. */
  readonly sessions: Pick<ActiveAccount, 'running' | 'starts'>;
  /** One channel's handler, as the bridge calls it (without the contract's checks). */
  call<C extends IpcChannel>(channel: C, input: IpcInput<C>): Promise<IpcOutput<C>>;
}

export const createServices: CreateServices = (options) => createAppServices(options);

/** Opens the store and starts the active account's session in the background. */
export async function createAppServices(options: ServicesOptions): Promise<AppServices> {
  const { nativeBinding, start } = options;
  try {
    const opened = await openDataStore(options.dataDir, {
      ...(nativeBinding === undefined ? {} : { nativeBinding }),
      ...(start === undefined ? {} : { report: start.report }),
    });
    start?.report({ phase: 'starting', message: 'Starting Betdesk…' });
    try {
      return build(options, opened);
    } catch (err) {
      opened.store.close();
      throw err;
    }
  } catch (err) {
    // The start screen says why, in words (a StoreError's sentence, a NewerSchemaError's).
    start?.report({ phase: 'failed', message: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

function build(options: ServicesOptions, opened: OpenedStore): AppServices {
  const { store, notices } = opened;
  const logger = orStderr(options.log);
  logger.info('services starting', {
    host: options.host,
    versions: options.versions,
    dataDir: options.dataDir,
    storeSchema: store.schemaVersion,
  });
  for (const notice of opened.news) logger.warn(notice.message);
  const backups = dailyBackups(opened, {
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    onError: (err) => logger.warn('the daily backup failed', { reason: reasonOf(err) }),
  });
  backups.start();
  // The heavy reads (History, Orders' totals and menu, Portfolio, prices) on a worker thread with its own connection.
  const reads = new StoreReads({
    file: store.file,
    fallback: store,
    logger,
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
  });
  const ager = new PriceAger({
    store,
    onError: (err) => logger.warn('ageing the price history failed', { reason: reasonOf(err) }),
  });
  ager.start();
  const hub = new IpcEventHub();
  const emit: Emit = (event, payload) => hub.emit(event, payload);
  const registry = openAccountRegistry(store, options.keychainService);
  const governors = new RateGovernors();
  const paper = new PaperMode(options.dataDir, store);
  const first = rememberedAccount(store);
  // Until the first session is up, the markets are those its account stored last time.
  const board = new FixtureBoard(store, startingAccount(store));
  const { clockMarginMs } = options;
  const guardBook = new GuardBook({ store });
  // Every account's session runs (active.ts); its alerts reach the bridge on screen or not.
  const emitFor = (key: AccountKey): Emit =>
    routeEmit(
      hub,
      () => active.session !== undefined && keyOf(active.session) === key,
      () => active.session?.alerts.summary(),
    );
  const everyAccount = (): AccountAlertCounts[] => active.running.map((s) => s.alerts.counts());
  const parts = {
    ...{ store, registry, paper, governors, logger, emitFor, everyAccount },
    ...{ clockMarginMs, guardBook },
  };

  const info = withStoreNotice(appInfoOf(registry, options), notices);
  const active: ActiveAccount = new ActiveAccount({
    store,
    open: (accountId): Promise<AccountSession> => openSession(parts, accountId),
    attach: (session) => {
      const detach = forwardEvents(session, { hub, store, fixtures: board });
      board.show(session.accountId);
      return detach;
    },
    announce: (session) => announceSession(session, { hub, store, info }),
  });

  // The first session starts in the background: the bridge can serve (markets from the store)
  // while the paper exchange starts; calls that need the session wait for it.
  // Then every other account's, one after another (paper's once it has been used).
  void active
    .switchTo(first)
    .catch((err: unknown) => {
      logger.warn('the account could not be opened', { reason: reasonOf(err) });
    })
    // watchAll reports each account's failure itself and never rejects.
    .then(() => active.watchAll(watchedAccounts(store), failedToWatch));
  function failedToWatch(key: AccountKey, err: unknown): void {
    const account = key === null ? 'paper' : `account ${key}`;
    logger.warn(`the session of ${account} could not start`, { reason: reasonOf(err) });
  }

  // An upgraded store's SETTLEMENT rows get their realized P&L in the background (docs/pnl.md).
  store.realized.useLogger(logger);
  const backfill = new BackfillWorker({
    store,
    logger,
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
    onDone: () => {
      const session = active.session;
      if (session) {
        hub.emit('history:changed', { accountId: session.bridgeId, added: 0, at: Date.now() });
      }
    },
  });
  backfill.start().catch((err: unknown) => {
    logger.warn('working out realized P&L after the upgrade failed', { reason: reasonOf(err) });
  });

  const { stop: stopExports, ...exports } = exportFeature({
    store,
    started: () => active.started(),
    emit,
    destination: options.exports,
  });
  const stop = once(async () => {
    // Waits for a switch under way; none starts after it.
    await active.stop();
    await backfill.stop();
    // Before the store closes: an export's partial file is removed, its reader closed.
    await stopExports();
    await paper.close();
    await backups.stop();
    ager.stop();
    governors.close();
    // Before the store: the writer, closing last, folds the WAL back into the file.
    await reads.close();
    store.close();
    logger.info('services stopped');
  });

  const accounts = accountsFeature({ registry, active, info });
  const features = combineHandlers(
    accounts,
    marketsFeature({ active, board }),
    deskFeature({ store, active, reads }),
    historyFeature({ store, active, reads, backfill }),
    pricesFeature({ reads, active }),
    portfolioFeature({ reads }),
    guardsFeature({ book: guardBook, active }),
    exports,
    practiceFeature({ store, active, controls: () => paper.controls() }),
    statusFeature(active),
    storeNoticesFeature(notices, () => accounts['app:info']({})),
  );
  const start = options.start ?? new StartTracker();
  const starting = { 'app:start': () => Promise.resolve(start.current()) };
  const support = supportFeature({
    options,
    store,
    session: () => active.session,
    handlers: features,
  });
  const handlers: IpcHandlers = withRefusals(combineHandlers(features, support, starting));
  start.report({ phase: 'ready', message: 'Ready.' });
  return {
    store,
    session: () => active.session,
    sessions: active,
    events: hub,
    handlers,
    call: (channel, input) => handlers[channel](input),
    alertsSummary: async () => (await active.started()).alerts.summary(),
    markNoticeShown: (notice) => Promise.resolve(markNoticeShown(store, notice)),
    stop,
  };
}

/** Every account whose session runs: each exchange account, and paper once it has been used. */
function watchedAccounts(store: Store): AccountKey[] {
  return store.accounts.list().map((a) => (a.isPaper ? null : a.id));
}

/** `run` once: every call answers the first call's promise. */
function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= run());
}
