/**
 * The composition root: the real services behind the bridge, one small composition per feature.
 *
 * - One store per data directory (`<dataDir>/betdesk.sqlite`, store-file.ts: checked at
 *   start, rebuilt from a backup when damaged, backed up daily while the app runs, with what
 *   was done as a store notice in AppInfo) and one RateGovernor per exchange base URL
 *   (connection.ts); the CLI opens both the same way.
 * - Accounts (accounts.ts): the registry, shared with the CLI, keeps secrets in the system
 *   keychain only; the bridge's accounts screen, switching and the app's mode.
 * - The active account (active.ts): the one piece of mutable state, whose session runs now
 *   (session.ts: connection, sync engine, knockout watch, desk). Switching stops one session
 *   and starts the next; the active account is remembered in the store's settings, none
 *   meaning paper. Events reach the bridge through events.ts.
 * - Paper mode (paper.ts): the sandbox exchange in this process, started the first time paper
 *   is used and kept until stop().
 * - Markets (markets.ts) are the active account's fixtures read from the store, so they show
 *   while the exchange is away; the desk (desk.ts), history (history.ts) and exports
 *   (exports.ts) work on the active session.
 */
import type { Logger } from '../../shared/log.js';
import type { Emit } from '../desk/alert-centre.js';
import { IpcEventHub } from '../ipc/events.js';
import type { CreateServices, Services, ServicesOptions } from '../ipc/services.js';
import type { Store } from '../store/index.js';
import { accountServices, appInfoOf, openAccountRegistry } from '../accounts/feature.js';
import { ActiveAccount, reasonOf, rememberedAccount } from './active.js';
import { RateGovernors } from './connection.js';
import { deskServices } from '../desk/feature.js';
import { announceSession, forwardEvents } from './events.js';
import { exportService } from '../export/feature.js';
import { FixtureBoard } from '../markets/board.js';
import { historyService } from '../history/feature.js';
import { marketServices } from '../markets/feature.js';
import { PaperMode } from '../practice/paper.js';
import { openSession, type AccountSession } from './session.js';
import { statusService } from '../sync/feature.js';
import { supportService } from '../support/feature.js';
import { dailyBackups, openDataStore, type OpenedStore } from '../data/store-file.js';
import { storeNoticesService, withStoreNotice } from '../data/store-notices.js';

/** The bridge's services plus what the app's own parts (and tests) may reach directly. */
export interface AppServices extends Services {
  readonly store: Store;
  /** The active account's runtime; undefined only while switching or once stopped. */
  session(): AccountSession | undefined;
}

export const createServices: CreateServices = (options) => createAppServices(options);

/** Opens the store and starts the active account's session in the background. */
export async function createAppServices(options: ServicesOptions): Promise<AppServices> {
  const { nativeBinding } = options;
  const opened = await openDataStore(
    options.dataDir,
    nativeBinding === undefined ? {} : { nativeBinding },
  );
  try {
    return build(options, opened);
  } catch (err) {
    opened.store.close();
    throw err;
  }
}

function build(options: ServicesOptions, opened: OpenedStore): AppServices {
  const { store, notices } = opened;
  const logger: Logger = options.log ?? stderrLogger();
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
  const hub = new IpcEventHub();
  const emit: Emit = (event, payload) => hub.emit(event, payload);
  const registry = openAccountRegistry(store, options.keychainService);
  const governors = new RateGovernors();
  const paper = new PaperMode(options.dataDir, store);
  const first = rememberedAccount(store);
  // Until the first session is up, the markets are those its account stored last time.
  const board = new FixtureBoard(store, first ?? registry.list().find((a) => a.isPaper)?.id);
  const parts = { store, registry, paper, governors, logger, emit };

  const info = withStoreNotice(appInfoOf(registry, options), notices);
  const active = new ActiveAccount({
    store,
    open: (accountId) => openSession(parts, accountId),
    attach: (session) => {
      const detach = forwardEvents(session, { hub, store, fixtures: board });
      board.show(session.accountId);
      return detach;
    },
    announce: (session) => announceSession(session, { hub, store, info }),
  });

  // The first session starts in the background: the bridge can serve (markets from the store)
  // while the paper exchange starts; calls that need the session wait for it.
  active.switchTo(first).catch((err: unknown) => {
    logger.warn('the account could not be opened', { reason: reasonOf(err) });
  });

  const exports = exportService({
    store,
    started: () => active.started(),
    emit,
    destination: options.exports,
  });
  const stop = once(async () => {
    // Waits for a switch under way; none starts after it.
    await active.stop();
    // Before the store closes: an export's partial file is removed, its reader closed.
    await exports.stop();
    await paper.close();
    await backups.stop();
    governors.close();
    store.close();
    logger.info('services stopped');
  });

  const features = joinFeatures(
    { store, session: () => active.session, events: hub, stop },
    accountServices({ registry, active, info }),
    marketServices({ store, active, board }),
    {
      status: statusService(active),
      storeNotices: storeNoticesService(notices, async () => {
        await active.settled();
        return info(active.session);
      }),
    },
    deskServices({ store, active, paper }),
    { history: historyService({ store, started: () => active.started() }), exports },
  );
  const support = supportService({
    options,
    store,
    session: () => active.session,
    services: features,
  });
  return joinFeatures(features, { support });
}

/** `run` once: every call answers the first call's promise. */
function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= run());
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (
  i: infer I,
) => void
  ? I
  : never;

/** Joins the features' services into one object; a name two features claim is refused. */
function joinFeatures<T extends readonly object[]>(...features: T): UnionToIntersection<T[number]> {
  const all: Record<string, unknown> = {};
  for (const feature of features) {
    for (const [name, service] of Object.entries(feature)) {
      if (name in all) throw new Error(`Two features provide the service "${name}".`);
      all[name] = service;
    }
  }
  return all as UnionToIntersection<T[number]>;
}

/** Without a log file (tests, tools): warnings to stderr, one line each, as before. */
function stderrLogger(): Logger {
  return {
    debug: () => {},
    info: () => {},
    warn: (msg, fields) =>
      console.error(`Betdesk: ${msg}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  };
}
