/**
 * An in-memory `Services` (every channel's handler) for testing the bridge layers (handlers, transports, host): small real
 * behaviour, and a record of every call that reached it.
 */
import type { Fixture } from '../../../src/shared/api/schemas.js';
import type {
  PortfolioScope,
  PortfolioView,
  Account,
  AlertSettings,
  AlertsSummary,
  AppInfo,
  AppStatus,
  DeskSettings,
  OrderRow,
  PositionsView,
  QuoteResult,
} from '../../../src/shared/ipc/contract.js';
import { IpcEventHub } from '../../../src/main/ipc/events.js';
import type { IpcHandlers } from '../../../src/main/ipc/handler.js';
import type { Services } from '../../../src/main/root/services.js';
import { MemoryGuards } from './memory-guards.js';

export const FIXTURE: Fixture = {
  contractId: 'EPL-ARSCHE-0001',
  league: 'EPL',
  homeTeam: 'ARS',
  awayTeam: 'CHE',
  startsAt: 1_800_000_000_000,
  bettingOpen: true,
  status: 'OPEN',
  homePrice: '0.5500',
  awayPrice: '0.4500',
  lotSize: 1,
  minContracts: 1,
};

/** A positions view with no positions: what an event about positions carries at least. */
const NO_TOTALS = {
  count: 0,
  pnl: '0',
  payouts: '0',
  unknown: 0,
  wins: 0,
  winRate: null,
  largestWin: null,
  largestLoss: null,
  knockouts: 0,
};
const EMPTY_PORTFOLIO = (scope: PortfolioScope): PortfolioView => ({
  scope,
  accounts: [],
  sharedWallets: [],
  realized: '0',
  unknownSettlements: 0,
  unrealized: '0',
  equity: '0',
  openPositions: 0,
  exposure: {
    atRisk: '0',
    maxPayout: '0',
    worstCase: '0',
    nearKnockout: { positions: 0, atRisk: '0' },
    largestFixture: null,
    byLeague: [],
    byFixture: [],
    byOutcome: [],
  },
  best: [],
  worst: [],
  latest: [],
});
const EMPTY_SUMMARY = {
  accountId: null,
  totals: NO_TOTALS,
  byType: (['CLOSED', 'KNOCKED_OUT', 'SETTLEMENT'] as const).map((type) => ({
    type,
    totals: NO_TOTALS,
  })),
  bucket: 'day' as const,
  series: [],
  working: null,
};
export const EMPTY_POSITIONS: PositionsView = {
  accountId: null,
  positions: [],
  snapshotAt: null,
  pollMs: 30_000,
  staleAfterMs: 60_000,
};

export function sampleRow(clientOrderId: string): OrderRow {
  return {
    clientOrderId,
    orderId: '0x01',
    createdAt: 1_800_000_000_000,
    updatedAt: 1_800_000_000_000,
    contractId: FIXTURE.contractId,
    fixture: {
      league: FIXTURE.league,
      homeTeam: FIXTURE.homeTeam,
      awayTeam: FIXTURE.awayTeam,
      startsAt: FIXTURE.startsAt,
      bettingOpen: true,
      status: 'OPEN',
    },
    outcome: 'ARS',
    side: 'BUY',
    orderType: 'FOK',
    unit: 'BASE',
    qty: '10',
    contracts: 10,
    entryPrice: '0.5600',
    cost: '5.66',
    maxWin: '10.00',
    proceeds: null,
    boost: 0,
    knockout: null,
    status: 'SUBMITTED',
    tx: '',
    error: null,
  };
}

export interface MemoryServices extends Services {
  events: IpcEventHub;
  handlers: IpcHandlers;
  calls: { method: string; input: unknown }[];
  stopped: number;
  /** Makes the next call to `method` throw `error`. */
  failNext(method: string, error: unknown): void;
  /** Makes the next call to `method` answer `value`, whatever its shape. */
  answerNext(method: string, value: unknown): void;
  /** The guardians' book and log, for a test to seed and move (`guards.update`). */
  guards: MemoryGuards;
  /** What positions:list answers from now on (no positions unless set). */
  positions: PositionsView;
}

export function memoryServices(): MemoryServices {
  const calls: MemoryServices['calls'] = [];
  const failures = new Map<string, unknown>();
  const answers = new Map<string, unknown>();
  const accounts: Account[] = [];
  let active: string | null = null;

  const info = (): AppInfo => {
    const account = accounts.find((a) => a.id === active);
    return {
      mode: account ? 'live' : 'paper',
      activeAccountId: account?.id ?? null,
      accountLabel: account?.label ?? 'Paper',
      canTrade: account?.permission !== 'read',
      host: 'browser',
      versions: { app: '0.1.0', node: process.versions.node, electron: null, chrome: null },
    };
  };
  const status = (state: AppStatus['sync']['state'] = 'idle'): AppStatus => ({
    mode: info().mode,
    online: true,
    sync: { state, lastSyncAt: 1_800_000_000_000, message: null },
    clockOffsetMs: 12,
    rateBudget: [{ group: 'quotes', tokens: 9, capacity: 9, queued: 0, blockedUntil: null }],
  });

  const summary = (): AlertsSummary => {
    const own = { accountId: active, unread: 0, unreadDanger: 0, nearKnockout: 0 };
    return { ...own, everyAccount: [{ ...own, account: active === null ? 'Paper' : 'Live' }] };
  };
  let alertSettings: AlertSettings = {
    levels: ['0.1', '0.05', '0.02'],
    margin: '0.01',
    notify: { near: true, knocked_out: true, filled: true, rejected: true, guard: true },
  };
  let desk: DeskSettings = { oneClickBetting: false, startAtLogin: false, startHidden: false };
  const notices = new Set<string>();
  const placed = new Map<string, OrderRow>();
  /** The boost of the last quote asked for: the bet placed on it carries it. */
  let quotedBoost = 0;
  const practised = (what: string) => ({ message: `${what} (memory).` });
  const events = new IpcEventHub();
  const guards = new MemoryGuards({
    account: () => active,
    readOnly: () => !info().canTrade,
    fixture: (contractId) =>
      services.positions.positions.find((p) => p.contractId === contractId)?.fixture ??
      (contractId === FIXTURE.contractId
        ? {
            league: FIXTURE.league,
            homeTeam: FIXTURE.homeTeam,
            awayTeam: FIXTURE.awayTeam,
            startsAt: FIXTURE.startsAt,
            bettingOpen: FIXTURE.bettingOpen,
            status: FIXTURE.status,
          }
        : null),
    changed: (view) => events.emit('guards:changed', view),
    now: () => Date.now(),
  });

  async function call<T>(method: string, input: unknown, run: () => T): Promise<T> {
    calls.push({ method, input });
    await Promise.resolve();
    if (failures.has(method)) {
      const error = failures.get(method);
      failures.delete(method);
      throw error;
    }
    if (answers.has(method)) {
      const value = answers.get(method);
      answers.delete(method);
      return value as T;
    }
    return run();
  }

  const services: MemoryServices = {
    calls,
    stopped: 0,
    events,
    guards,
    positions: EMPTY_POSITIONS,
    failNext: (method, error) => failures.set(method, error),
    answerNext: (method, value) => answers.set(method, value),
    alertsSummary: () => call('alerts.summary', undefined, summary),
    markNoticeShown: (notice) =>
      call('settings.markNoticeShown', notice, () => {
        const first = !notices.has(notice);
        notices.add(notice);
        return first;
      }),
    handlers: {
      'app:info': () => call('app.info', undefined, info),
      'app:start': () =>
        call('app.start', undefined, () => ({
          phase: 'ready' as const,
          message: 'Ready.',
          done: null,
          total: null,
          unit: '',
          startedAt: 0,
          phaseStartedAt: 0,
        })),
      'store:acknowledge': ({ at }) => call('storeNotices.acknowledge', at, info),
      'accounts:list': () =>
        call('accounts.list', undefined, () => ({ accounts: accounts.map((a) => ({ ...a })) })),
      'accounts:add': (input) =>
        call('accounts.add', input, () => {
          const account: Account = {
            id: `acc-${accounts.length + 1}`,
            label: input.label,
            baseUrl: input.baseUrl,
            apiKeyHint: input.apiKey.slice(-4),
            permission: 'read',
            active: false,
            createdAt: 1_800_000_000_000,
            sameWalletAs: [],
          };
          accounts.push(account);
          return account;
        }),
      'accounts:removal': ({ accountId }) =>
        call('accounts.removal', accountId, () => ({
          armedRules: 0,
          otherRules: 0,
          guardLogLines: 0,
          orders: 0,
          settlements: 0,
          positions: 0,
          alerts: 0,
          priceSeries: 0,
          pricePoints: 0,
          equityPoints: 0,
          fixtures: 0,
        })),
      'accounts:remove': ({ accountId }) =>
        call('accounts.remove', accountId, () => {
          const i = accounts.findIndex((a) => a.id === accountId);
          if (i >= 0) accounts.splice(i, 1);
          return { removed: i >= 0 };
        }),
      'accounts:switch': ({ accountId }) =>
        call('accounts.switchTo', accountId, () => {
          active = accountId;
          return info();
        }),
      'fixtures:list': (filter) =>
        call('fixtures.list', filter, () => ({
          fixtures: [FIXTURE],
          total: 1,
          limit: filter.limit,
          offset: filter.offset,
          leagues: ['EPL'],
          syncedAt: 1_800_000_000_000,
        })),
      'quote:request': (input) =>
        call('quotes.request', input, (): QuoteResult => {
          quotedBoost = input.side === 'BUY' ? input.boost : 0;
          return {
            quote: {
              rfqId: 'rfq-1',
              reqId: '',
              contracts: Number(input.qty),
              isOpen: true,
              entryPrice: '0.5600',
              indexPrice: '0.5500',
              cost: '5.66',
              maxWin: '10.00',
              exitValue: '5.40',
              minContracts: 1,
              exchangeCapacity: 1000,
              expiresAt: 1_800_000_030_000,
            },
            clockOffsetMs: 12,
            receivedAt: 1_800_000_000_000,
          };
        }),
      'order:place': (input) =>
        call('trading.place', input, () => {
          const repeated = placed.has(input.clientOrderId);
          // A boosted bet's row is boosted (the slip offers a knockout guard only then).
          const boost = input.bet?.boost ?? quotedBoost;
          const row =
            placed.get(input.clientOrderId) ??
            (boost > 0
              ? { ...sampleRow(input.clientOrderId), boost, knockout: '0.2800' }
              : sampleRow(input.clientOrderId));
          placed.set(input.clientOrderId, row);
          return { row, repeated };
        }),
      'orders:list': (filter) =>
        call('orders.list', filter, () => ({
          rows: [...placed.values()].slice(filter.offset, filter.offset + filter.limit),
          total: placed.size,
          limit: filter.limit,
          offset: filter.offset,
        })),
      'orders:get': ({ clientOrderId }) =>
        call('orders.get', clientOrderId, () => ({ row: placed.get(clientOrderId) ?? null })),
      'orders:fixtures': () =>
        call('orders.fixtures', undefined, () => ({
          fixtures: [{ contractId: FIXTURE.contractId, name: 'ARS v CHE' }],
        })),
      'orders:totals': (scope) =>
        call('orders.totals', scope, () => ({
          count: placed.size,
          filled: 0,
          staked: '0',
          proceeds: '0',
        })),
      'history:list': (query) =>
        call('history.list', query, () => ({
          accountId: null,
          rows: [],
          total: 0,
          limit: query.limit,
          offset: query.offset,
        })),
      'history:summary': (query) => call('history.summary', query, () => EMPTY_SUMMARY),
      'history:detail': ({ id }) =>
        call('history.detail', id, () => ({ row: null, working: null, orders: [] })),
      'history:choices': () =>
        call('history.choices', undefined, () => ({
          leagues: [],
          teams: [],
          fixtures: [],
          first: null,
          last: null,
        })),
      'history:resync': () => call('history.resync', undefined, () => ({ progress: null })),
      'portfolio:view': ({ scope }) => call('portfolio.view', scope, () => EMPTY_PORTFOLIO(scope)),
      'portfolio:equity': ({ scope, period }) =>
        call('portfolio.equity', period, () => ({
          scope,
          period,
          from: 0,
          to: 0,
          stepMs: 1,
          points: [],
        })),
      'prices:lines': (query) => call('prices.lines', query, () => ({ from: 0, to: 0, lines: [] })),
      'prices:series': (query) =>
        call('prices.series', query, () => ({
          contractId: query.contractId,
          outcome: query.outcome,
          points: [],
        })),
      'guards:list': () => call('guards.list', undefined, () => guards.view()),
      'guards:arm': (input) => call('guards.arm', input, () => guards.arm(input)),
      'guards:check': (input) =>
        call('guards.check', input, () => ({
          rules: input.rules.map(() => ({
            firesNow: false,
            distance: null,
            contracts: null,
            observedAt: null,
          })),
          problem: null,
        })),
      'guards:disarm': (input) => call('guards.disarm', input, () => guards.disarm(input)),
      'guards:pause': (input) => call('guards.pause', input, () => guards.pause(input.paused)),
      'guards:settings': () => call('guards.settings', undefined, () => guards.settings),
      'guards:configure': (input) => call('guards.configure', input, () => guards.configure(input)),
      'guards:log': (query) => call('guards.log', query, () => guards.page(query)),
      'history:status': () => call('history.status', undefined, () => ({ progress: null })),
      'export:start': (request) => call('exports.start', request, () => ({ export: null })),
      'export:cancel': ({ exportId }) =>
        call('exports.cancel', exportId, () => ({ canceled: false })),
      'positions:list': () => call('positions.view', undefined, () => services.positions),
      'alerts:list': (query) =>
        call('alerts.list', query, () => ({
          alerts: [],
          total: 0,
          limit: query.limit,
          offset: query.offset,
          summary: summary(),
        })),
      'alerts:read': (input) => call('alerts.markRead', input, summary),
      'alerts:settings': () => call('alerts.settings', undefined, () => alertSettings),
      'alerts:configure': (settings) =>
        call('alerts.configure', settings, () => (alertSettings = settings)),
      'settings:get': () => call('settings.get', undefined, () => desk),
      'settings:set': (change) =>
        call('settings.set', change, () => (desk = { ...desk, ...change })),
      'practice:price': (input) => call('practice.setPrice', input, () => practised('Price set')),
      'practice:close': (input) => call('practice.closeBetting', input, () => practised('Closed')),
      'practice:kickoff': (input) =>
        call('practice.kickoff', input, () => practised('Kick-off moved')),
      'practice:resolve': (input) => call('practice.resolve', input, () => practised('Resolved')),
      'practice:reject': () =>
        call('practice.rejectNextOrder', undefined, () => practised('Armed')),
      'status:get': () => call('status.get', undefined, () => status()),
      'sync:pause': () => call('status.pauseSync', undefined, () => status('paused')),
      'sync:resume': () => call('status.resumeSync', undefined, () => status()),
      'support:folders': () =>
        call('support.folders', undefined, () => ({ logs: '/tmp/logs', data: '/tmp/data' })),
      'support:diagnostics': () =>
        call('support.diagnostics', undefined, () => ({
          text: 'Betdesk diagnostics\n',
          bytes: 20,
          errors: 0,
        })),
      'logs:open': () =>
        call('support.openLogs', undefined, () => ({
          path: '/tmp/logs',
          opened: true,
          error: null,
        })),
    },
    stop: () => {
      services.stopped += 1;
      return Promise.resolve();
    },
  };
  return services;
}
