/**
 * An in-memory `Services` for testing the bridge layers (handlers, transports, host): small real
 * behaviour, and a record of every call that reached it.
 */
import type { Fixture } from '../../../src/shared/api/schemas.js';
import type { Account, AppInfo, AppStatus, QuoteResult } from '../../../src/shared/ipc/contract.js';
import { IpcEventHub } from '../../../src/main/ipc/events.js';
import type { Services } from '../../../src/main/ipc/services.js';

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

export interface MemoryServices extends Services {
  events: IpcEventHub;
  calls: { method: string; input: unknown }[];
  stopped: number;
  /** Makes the next call to `method` throw `error`. */
  failNext(method: string, error: unknown): void;
  /** Makes the next call to `method` answer `value`, whatever its shape. */
  answerNext(method: string, value: unknown): void;
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
    events: new IpcEventHub(),
    failNext: (method, error) => failures.set(method, error),
    answerNext: (method, value) => answers.set(method, value),
    app: { info: () => call('app.info', undefined, info) },
    accounts: {
      list: () => call('accounts.list', undefined, () => accounts.map((a) => ({ ...a }))),
      add: (input) =>
        call('accounts.add', input, () => {
          const account: Account = {
            id: `acc-${accounts.length + 1}`,
            label: input.label,
            baseUrl: input.baseUrl,
            apiKeyHint: input.apiKey.slice(-4),
            permission: 'read',
            active: false,
            createdAt: 1_800_000_000_000,
          };
          accounts.push(account);
          return account;
        }),
      remove: (accountId) =>
        call('accounts.remove', accountId, () => {
          const i = accounts.findIndex((a) => a.id === accountId);
          if (i >= 0) accounts.splice(i, 1);
          return i >= 0;
        }),
      switchTo: (accountId) =>
        call('accounts.switchTo', accountId, () => {
          active = accountId;
          return info();
        }),
    },
    fixtures: {
      list: (filter) =>
        call('fixtures.list', filter, () => ({
          fixtures: [FIXTURE],
          total: 1,
          limit: filter.limit,
          offset: filter.offset,
          leagues: ['EPL'],
          syncedAt: 1_800_000_000_000,
        })),
    },
    quotes: {
      request: (input) =>
        call('quotes.request', input, (): QuoteResult => ({
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
        })),
    },
    status: {
      get: () => call('status.get', undefined, () => status()),
      pauseSync: () => call('status.pauseSync', undefined, () => status('paused')),
      resumeSync: () => call('status.resumeSync', undefined, () => status()),
    },
    stop: () => {
      services.stopped += 1;
      return Promise.resolve();
    },
  };
  return services;
}
