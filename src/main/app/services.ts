/**
 * The composition root: the real services behind the bridge.
 *
 * - One store per data directory (`<dataDir>/betdesk.sqlite`) and one RateGovernor per exchange
 *   base URL.
 * - Accounts through AccountsService: secrets in the system keychain only. The active account
 *   is remembered in the store's settings; none means paper mode.
 * - Paper mode: the sandbox exchange in this process (paper.ts), started the first time paper
 *   is used and kept until stop().
 * - The active account runs as an AccountSession (session.ts): client, sync engine, knockout
 *   watch, trading service. Switching stops one session and starts the next; their events reach
 *   the bridge through events.ts.
 * - Markets are read from the store (fixtures.ts), so they show while the exchange is away.
 */
import { join } from 'node:path';
import type { AppInfo, AppStatus } from '../../shared/ipc/contract.js';
import { AccountsService, type AccountView } from '../accounts/index.js';
import type { Emit } from '../desk/alert-centre.js';
import type { Logger } from '../client/index.js';
import { RateGovernor } from '../governor/index.js';
import { ServiceError } from '../ipc/errors.js';
import { IpcEventHub } from '../ipc/events.js';
import type { CreateServices, Services, ServicesOptions } from '../ipc/services.js';
import { Keychain } from '../keychain/keychain.js';
import { openStore, type Store } from '../store/index.js';
import { bridgeAccount, refusing, storeId } from './accounts.js';
import { deskServices } from './desk.js';
import { forwardEvents, sessionPositions } from './events.js';
import { exportService } from './exports.js';
import { FixtureBoard } from './fixtures.js';
import { historyService, orderTotals } from './history.js';
import { startPaper, type PaperExchange } from './paper.js';
import { AccountSession } from './session.js';
import { appStatus } from './status.js';

export const STORE_FILE = 'betdesk.sqlite';
/** The settings key holding the active account's store id (absent: paper). */
const ACTIVE_ACCOUNT = 'activeAccountId';

/** The bridge's services plus what the app's own parts (and tests) may reach directly. */
export interface AppServices extends Services {
  readonly store: Store;
  /** The active account's runtime; undefined only while switching or once stopped. */
  session(): AccountSession | undefined;
}

export const createServices: CreateServices = (options) => createAppServices(options);

/** Opens the store and starts the active account's session in the background (see `ready`). */
export function createAppServices(options: ServicesOptions): Promise<AppServices> {
  try {
    return Promise.resolve(build(options));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

function build(options: ServicesOptions): AppServices {
  const store = openStore(
    join(options.dataDir, STORE_FILE),
    options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {},
  );
  const logger = stderrLogger();
  const hub = new IpcEventHub();
  const emit: Emit = (event, payload) => hub.emit(event, payload);
  const keychain = new Keychain(
    options.keychainService !== undefined ? { service: options.keychainService } : {},
  );
  const accounts = new AccountsService({ store, keychain });
  const board = new FixtureBoard(store);
  const governors = new Map<string, RateGovernor>();
  let paper: Promise<PaperExchange> | undefined;
  let session: AccountSession | undefined;
  let unforward: (() => void) | undefined;
  let paused = false;
  let stopping: Promise<void> | undefined;
  /** Switches run one after another. */
  let switching: Promise<unknown> = Promise.resolve();

  const governorFor = (baseUrl: string): RateGovernor => {
    let g = governors.get(baseUrl);
    if (!g) governors.set(baseUrl, (g = new RateGovernor()));
    return g;
  };

  /** The live accounts (paper is not one: it has no row in the accounts screen). */
  const liveAccounts = (): AccountView[] => accounts.list().filter((a) => !a.isPaper);

  const current = (): AccountSession => {
    if (!session) throw new ServiceError('not-ready', 'Betdesk is switching accounts; try again.');
    return session;
  };

  const status = (): AppStatus => {
    const s = current();
    return appStatus(s, governorFor(s.client.baseUrl));
  };

  const info = (): AppInfo => {
    const s = session;
    const live = s && !s.isPaper ? accounts.get(s.accountId) : undefined;
    return {
      mode: live ? 'live' : 'paper',
      activeAccountId: live ? String(live.id) : null,
      accountLabel: live?.label ?? 'Paper',
      canTrade: live?.permission !== 'read',
      host: options.host,
      versions: options.versions,
    };
  };

  async function open(accountId: number | null): Promise<AccountSession> {
    const live = accountId === null ? undefined : accounts.get(accountId);
    if (live && !live.isPaper) {
      return new AccountSession({
        store,
        accountId: live.id,
        isPaper: false,
        baseUrl: live.baseUrl,
        credentials: accounts.credentials(live.id),
        governor: governorFor(live.baseUrl),
        logger,
        emit,
      });
    }
    paper ??= startPaper(options.dataDir, store);
    const p = await paper;
    return new AccountSession({
      store,
      accountId: p.account.id,
      isPaper: true,
      baseUrl: p.url,
      credentials: p.credentials,
      governor: governorFor(p.url),
      logger,
      emit,
    });
  }

  async function closeSession(): Promise<void> {
    unforward?.();
    unforward = undefined;
    const old = session;
    session = undefined;
    await old?.stop();
  }

  /** Makes `accountId` (null: paper) the active account and starts its session. */
  function activate(accountId: number | null): Promise<AppInfo> {
    const run = switching.then(async () => {
      if (stopping) throw new ServiceError('not-ready', 'Betdesk is stopping.');
      await closeSession();
      const next = await open(accountId);
      if (next.isPaper) store.settings.delete(ACTIVE_ACCOUNT);
      else store.settings.set(ACTIVE_ACCOUNT, String(next.accountId));
      session = next;
      unforward = forwardEvents(next, { hub, store, fixtures: board, status });
      board.invalidate();
      next.start(paused);
      const now = info();
      hub.emit('app:changed', now);
      hub.emit('sync:status', status());
      // The new account's figures, so every window and the tray drop the old account's.
      hub.emit('alerts:changed', next.alerts.summary());
      hub.emit('positions:changed', {
        accountId: next.bridgeId,
        at: Date.now(),
        view: sessionPositions(next, store),
      });
      return now;
    });
    switching = run.catch(() => undefined);
    return run;
  }

  // The first session starts in the background: the bridge can serve (markets from the store)
  // while the paper exchange starts; calls that need the session wait for it.
  const remembered = storeId(store.settings.get(ACTIVE_ACCOUNT) ?? '');
  const first = remembered !== undefined && accounts.get(remembered) ? remembered : null;
  /** The store id whose fixtures cursor dates the markets until the session is up. */
  const startingId = first ?? accounts.list().find((a) => a.isPaper)?.id;
  let startError: unknown;
  const ready: Promise<void> = activate(first).then(
    () => undefined,
    (err: unknown) => {
      startError = err;
      logger.warn('the account could not be opened', { reason: describe(err) });
    },
  );
  const started = async (): Promise<AccountSession> => {
    await ready;
    if (session) return session;
    if (startError instanceof ServiceError) throw startError;
    throw new ServiceError(
      'not-ready',
      `The exchange session could not start: ${describe(startError ?? 'Betdesk is switching accounts')}.`,
    );
  };

  const desk = deskServices({
    store,
    started,
    paperControls: async () => (await paper?.catch(() => undefined))?.practice,
  });
  const exportsService = exportService({ store, started, emit, destination: options.exports });
  const services: AppServices = {
    store,
    session: () => session,
    events: hub,
    ...desk,
    orders: { ...desk.orders, totals: orderTotals({ store, started }) },
    history: historyService({ store, started }),
    exports: exportsService,
    app: {
      info: async () => {
        await ready;
        return info();
      },
    },
    accounts: {
      list: () =>
        Promise.resolve(
          liveAccounts().map((a) =>
            bridgeAccount(a, session?.isPaper ? null : (session?.accountId ?? null)),
          ),
        ),
      add: (input) =>
        refusing(async () => {
          const added = await accounts.add(input);
          return bridgeAccount(added, null);
        }),
      remove: (accountId) =>
        refusing(async () => {
          await ready;
          const id = storeId(accountId);
          const a = id === undefined ? undefined : accounts.get(id);
          if (!a || a.isPaper) return false;
          if (session && !session.isPaper && session.accountId === a.id) await activate(null);
          return accounts.remove(a.id);
        }),
      switchTo: (accountId) =>
        refusing(() => {
          if (accountId === null) return activate(null);
          const id = storeId(accountId);
          const a = id === undefined ? undefined : accounts.get(id);
          if (!a) throw new ServiceError('not-found', 'There is no such account.');
          return activate(a.isPaper ? null : a.id);
        }),
    },
    fixtures: {
      list: (filter) => {
        const s = session;
        const id = s?.accountId ?? startingId;
        const syncedAt =
          (id !== undefined ? store.cursors.get(id, 'fixtures')?.lastSyncAt : undefined) ??
          s?.engine.status().lastSyncAt ??
          null;
        return Promise.resolve(board.page(filter, syncedAt));
      },
    },
    quotes: {
      request: (input) =>
        refusing(async () => {
          const s = await started();
          const live = await s.trading.quote({
            contractId: input.contractId,
            outcome: input.outcome,
            side: input.side,
            qty: input.qty,
            unit: input.unit,
            ...(input.side === 'BUY' ? { boost: input.boost } : {}),
          });
          return {
            quote: live.quote,
            clockOffsetMs: Math.round(s.client.clockOffsetMs),
            receivedAt: Date.now(),
          };
        }),
    },
    status: {
      get: async () => {
        await started();
        return status();
      },
      async pauseSync() {
        paused = true;
        (await started()).engine.pause();
        return status();
      },
      async resumeSync() {
        paused = false;
        (await started()).engine.resume();
        return status();
      },
    },
    stop() {
      stopping ??= (async () => {
        await switching;
        // Before the store closes: an export's partial file is removed, its reader closed.
        await exportsService.stop();
        await closeSession();
        if (paper) await (await paper.catch(() => undefined))?.close();
        for (const g of governors.values()) g.close();
        store.close();
      })();
      return stopping;
    },
  };
  return services;
}

function describe(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/[.\s]+$/, '');
}

/** Warnings to stderr, one line each; the services' messages never carry a secret. */
function stderrLogger(): Logger {
  return {
    debug: () => {},
    info: () => {},
    warn: (msg, fields) =>
      console.error(`Betdesk: ${msg}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  };
}
