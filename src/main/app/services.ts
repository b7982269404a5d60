/**
 * TEMPORARY composition root, written by the desktop helper so the shell, the browser host and
 * the end-to-end tests have something real to talk to until the lead's services (trading, sync,
 * knockout watch, the SQLite store) replace this whole directory. It implements `Services` with:
 * - paper mode: the sandbox exchange started in-process on 127.0.0.1, with a wallet and trade key
 *   of its own;
 * - accounts in `accounts.json` in the data directory, their secrets in the system keychain only;
 * - fixtures fetched every few seconds and cached in memory (NOT the store), so markets still
 *   show while the exchange is unreachable;
 * - quotes through the exchange client, status from the client's clock and the rate governor.
 * Knockout alerts, positions and orders are not watched here.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fixture } from '../../shared/api/schemas.js';
import type {
  Account,
  AppInfo,
  AppStatus,
  FixturePage,
  FixturesFilter,
  RateBucket,
} from '../../shared/ipc/contract.js';
import { startExchange, type RunningExchange } from '../../exchange/app.js';
import { ExchangeClient, ExchangeError } from '../client/index.js';
import { RateGovernor } from '../governor/index.js';
import { ServiceError } from '../ipc/errors.js';
import { IpcEventHub } from '../ipc/events.js';
import type { CreateServices, Services } from '../ipc/services.js';
import { Keychain } from '../keychain/keychain.js';

const SYNC_EVERY_MS = 3000;
const PAPER = 'paper';

interface StoredAccount {
  id: string;
  label: string;
  baseUrl: string;
  apiKey: string;
  permission: Account['permission'];
  createdAt: number;
}

interface AccountsFile {
  activeId: string | null;
  accounts: StoredAccount[];
}

export const createServices: CreateServices = async (options) => {
  const events = new IpcEventHub();
  const keychain = new Keychain(
    options.keychainService ? { service: options.keychainService } : {},
  );
  const governor = new RateGovernor();
  const file = join(options.dataDir, 'accounts.json');
  const saved: AccountsFile = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as AccountsFile)
    : { activeId: null, accounts: [] };

  const paper: RunningExchange = await startExchange({ port: 0, seed: 1, blockMs: 1000 });
  const wallet = paper.domain.createWallet();
  const paperKey = paper.domain.createKey({
    wallet,
    permission: 'trade',
    expiresAt: paper.domain.now() + 10 * 365 * 24 * 3600_000,
  });

  let activeId: string | null =
    saved.activeId && saved.accounts.some((a) => a.id === saved.activeId) ? saved.activeId : null;
  let client = clientFor(activeId);
  let fixtures: Fixture[] = [];
  let syncedAt: number | null = null;
  let lastSyncAt: number | null = null;
  let online = true;
  let paused = false;
  let syncing = false;
  let syncMessage: string | null = null;
  let stopped = false;

  function persist(): void {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(saved, null, 2), { mode: 0o600 });
    renameSync(tmp, file);
  }

  function clientFor(id: string | null): ExchangeClient {
    if (id === null) {
      return new ExchangeClient({
        baseUrl: paper.url,
        credentials: { apiKey: paperKey.apiKey, secret: paperKey.secret },
        account: PAPER,
        governor,
      });
    }
    const account = saved.accounts.find((a) => a.id === id);
    if (!account) throw new ServiceError('not-found', 'There is no such account.');
    governor.registerAccount(id);
    return new ExchangeClient({
      baseUrl: account.baseUrl,
      account: id,
      governor,
      credentials: async () => {
        const secret = await keychain.getSecret(id);
        if (secret === null) {
          throw new ServiceError(
            'keychain',
            `The secret of ${account.label} is not in the keychain.`,
          );
        }
        return { apiKey: account.apiKey, secret };
      },
    });
  }
  governor.registerAccount(PAPER);

  function toAccount(a: StoredAccount): Account {
    return {
      id: a.id,
      label: a.label,
      baseUrl: a.baseUrl,
      apiKeyHint: a.apiKey.slice(-4),
      permission: a.permission,
      active: a.id === activeId,
      createdAt: a.createdAt,
    };
  }

  function info(): AppInfo {
    const account = saved.accounts.find((a) => a.id === activeId);
    return {
      mode: account ? 'live' : 'paper',
      activeAccountId: account?.id ?? null,
      accountLabel: account?.label ?? 'Paper',
      host: options.host,
      versions: options.versions,
    };
  }

  function rateBudget(): RateBucket[] {
    const snap = governor.snapshot();
    const own = snap.accounts[activeId ?? PAPER];
    const buckets: RateBucket[] = [];
    const add = (group: RateBucket['group'], b: (typeof snap.ip)['fixtures']) =>
      buckets.push({
        group,
        tokens: Math.max(0, b.tokens),
        capacity: b.capacity,
        queued: b.queued,
        blockedUntil: b.blockedUntil,
      });
    if (own) {
      add('quotes', own.quotes);
      add('orders', own.orders);
      add('reads', own.reads);
      add('positions', own.positions);
    }
    add('fixtures', snap.ip.fixtures);
    return buckets;
  }

  function status(): AppStatus {
    return {
      mode: info().mode,
      online,
      sync: {
        state: paused
          ? 'paused'
          : !online
            ? 'offline'
            : syncMessage
              ? 'error'
              : syncing
                ? 'syncing'
                : 'idle',
        lastSyncAt,
        message: syncMessage,
      },
      clockOffsetMs: lastSyncAt === null ? null : client.clockOffsetMs,
      rateBudget: rateBudget(),
    };
  }

  async function sync(): Promise<void> {
    if (syncing || stopped) return;
    syncing = true;
    const from = client;
    try {
      await from.syncClock();
      const all: Fixture[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await from.fixtures({ limit: 100, offset });
        all.push(...page.fixtures);
        if (page.fixtures.length === 0 || all.length >= page.total) break;
      }
      if (from !== client) return;
      fixtures = all;
      syncedAt = lastSyncAt = Date.now();
      online = true;
      syncMessage = null;
      events.emit('fixtures:changed', { total: all.length, syncedAt });
    } catch (err) {
      if (from !== client) return;
      if (err instanceof ExchangeError) {
        online = true;
        syncMessage = err.message;
      } else {
        online = false;
        syncMessage = null;
      }
    } finally {
      syncing = false;
      if (!stopped) events.emit('sync:status', status());
    }
  }

  const timer = setInterval(() => {
    if (!paused) void sync();
  }, SYNC_EVERY_MS);
  timer.unref();
  await sync();

  async function activate(id: string | null): Promise<AppInfo> {
    const next = clientFor(id);
    const previous = client;
    activeId = id;
    client = next;
    saved.activeId = id;
    persist();
    fixtures = [];
    syncedAt = lastSyncAt = null;
    void previous.close();
    await sync();
    events.emit('app:changed', info());
    return info();
  }

  const services: Services = {
    events,
    app: { info: () => Promise.resolve(info()) },
    accounts: {
      list: () => Promise.resolve(saved.accounts.map(toAccount)),
      async add(input) {
        const id = randomUUID();
        // The keychain first: without one, nothing of the account is kept.
        await keychain.setSecret(id, input.secret);
        const stored: StoredAccount = {
          id,
          label: input.label,
          baseUrl: input.baseUrl.replace(/\/+$/, ''),
          apiKey: input.apiKey,
          permission: 'unknown',
          createdAt: Date.now(),
        };
        const probe = new ExchangeClient({
          baseUrl: stored.baseUrl,
          credentials: { apiKey: input.apiKey, secret: input.secret },
        });
        try {
          await probe.orders({ limit: 1 });
          stored.permission = 'read';
        } catch (err) {
          if (err instanceof ExchangeError && err.code === -1022) {
            await keychain.deleteSecret(id);
            throw new ServiceError(
              'exchange',
              'The exchange refused this API key and secret; check both and try again.',
              -1022,
            );
          }
        } finally {
          await probe.close();
        }
        saved.accounts.push(stored);
        persist();
        return toAccount(stored);
      },
      async remove(accountId) {
        const index = saved.accounts.findIndex((a) => a.id === accountId);
        if (index < 0) return false;
        if (activeId === accountId) await activate(null);
        saved.accounts.splice(index, 1);
        persist();
        governor.unregisterAccount(accountId);
        await keychain.deleteSecret(accountId);
        return true;
      },
      switchTo: (accountId) => activate(accountId),
    },
    fixtures: {
      list: (filter) => Promise.resolve(page(fixtures, filter, syncedAt)),
    },
    quotes: {
      async request(input) {
        const quote = await client.rfq({
          legs: [
            {
              contractId: input.contractId,
              outcome: input.outcome,
              side: input.side,
              market: 'DRAW_NO_BET',
              ...(input.side === 'BUY' ? { boost: input.boost } : {}),
            },
          ],
          qty: input.qty,
          marketUnit: input.unit,
        });
        return { quote, clockOffsetMs: client.clockOffsetMs, receivedAt: Date.now() };
      },
    },
    status: {
      get: () => Promise.resolve(status()),
      pauseSync() {
        paused = true;
        events.emit('sync:status', status());
        return Promise.resolve(status());
      },
      async resumeSync() {
        paused = false;
        await sync();
        return status();
      },
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      governor.close();
      await client.close();
      await paper.close();
    },
  };
  return services;
};

function page(all: Fixture[], filter: FixturesFilter, syncedAt: number | null): FixturePage {
  const team = filter.team?.trim().toUpperCase() ?? '';
  const matches = all
    .filter((f) => !filter.openOnly || f.bettingOpen)
    .filter((f) => !filter.league || f.league === filter.league)
    .filter((f) => !team || f.homeTeam.includes(team) || f.awayTeam.includes(team))
    .sort(
      (a, b) =>
        a.league.localeCompare(b.league) ||
        a.startsAt - b.startsAt ||
        a.contractId.localeCompare(b.contractId),
    );
  return {
    fixtures: matches.slice(filter.offset, filter.offset + filter.limit),
    total: matches.length,
    limit: filter.limit,
    offset: filter.offset,
    leagues: [...new Set(all.map((f) => f.league))].sort(),
    syncedAt,
  };
}
