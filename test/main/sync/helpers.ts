/**
 * Shared set-up for the sync engine's and knockout watch's tests: the real sandbox exchange
 * (in-process, real socket), a real SQLite store in a temp dir, an account, an exchange client,
 * and a counter of every request the exchange answered, by route and status, read off the
 * server itself (independent of the client under test).
 */
import type { ExchangeAppOptions } from '../../../src/exchange/app.js';
import type { ExchangeDomain } from '../../../src/exchange/domain/contract.js';
import type { Store, StoredSettlement } from '../../../src/main/store/index.js';
import type { Order, OrderRequest, Settlement } from '../../../src/shared/api/schemas.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import type { RateGovernor } from '../../../src/main/governor/index.js';
import { countRequests, type RequestLog } from '../../harness/requests.js';
import { tempStore as harnessTempStore, type TempStore } from '../../harness/temp.js';
import { sleep } from '../../harness/wait.js';
import { startSandbox, type Credentials, type Sandbox } from '../../exchange/harness.js';
import { makeHistory } from './history-maker.js';

export { countRequests, type RequestLog } from '../../harness/requests.js';
export type { TempStore } from '../../harness/temp.js';
export { sleep, until } from '../../harness/wait.js';

/** A wallet with a history, its read key, a client for it and an empty store to sync into. */
export interface HistoryAccount {
  wallet: string;
  key: Credentials;
  client: ExchangeClient;
  db: TempStore;
  close(): Promise<void>;
}

/** A wallet of its own (so its own rate buckets), with `orders` orders made before it syncs. */
export async function newHistoryAccount(
  sandbox: Sandbox,
  orders: number,
  governor?: RateGovernor,
): Promise<HistoryAccount> {
  const key = await sandbox.newAccount('read');
  await makeHistory(sandbox.domain, key.wallet, orders);
  const client = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: key,
    account: key.wallet,
    ...(governor ? { governor } : {}),
  });
  const db = tempStore(key.apiKey, sandbox.url);
  return {
    wallet: key.wallet,
    key,
    client,
    db,
    async close() {
      await client.close();
      db.cleanup();
    },
  };
}

/** Every settlement row the exchange holds for the wallet, read off its domain, newest first. */
export function exchangeSettlements(domain: ExchangeDomain, wallet: string): Settlement[] {
  const rows: Settlement[] = [];
  for (;;) {
    const page = domain.settlements(wallet, { limit: 100, offset: rows.length });
    rows.push(...page.settlements);
    if (page.settlements.length === 0 || rows.length >= page.total) return rows;
  }
}

/** Every settlement row stored for the account, without the store's own fields. */
/** A stored settlement's exchange fields: without the local id, time and realized P&L. */
export function reported({
  id: _id,
  settledAt: _at,
  realizedMicros: _r,
  basisMicros: _b,
  pnlSource: _s,
  pnlNote: _n,
  ...s
}: StoredSettlement): Settlement {
  return s;
}

export function storedSettlements(store: Store, accountId: number): Settlement[] {
  const rows: Settlement[] = [];
  for (;;) {
    const page = store.settlements.query(accountId, { limit: 1000, offset: rows.length });
    rows.push(...page.settlements.map(reported));
    if (page.settlements.length === 0) return rows;
  }
}

/** Rows as sorted strings, each with its keys sorted (HTTP and the domain order them apart). */
export const canonicalRows = (rows: Settlement[]): string[] =>
  rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();

/** A store holding one account for `apiKey` at `baseUrl`. */
export function tempStore(apiKey: string, baseUrl: string): TempStore {
  return harnessTempStore({
    prefix: 'betdesk-sync-',
    account: { label: `acct-${apiKey.slice(0, 8)}`, baseUrl, apiKey },
  });
}

export interface World {
  sandbox: Sandbox;
  account: { apiKey: string; secret: string; wallet: string };
  client: ExchangeClient;
  db: TempStore;
  requests: RequestLog;
  close(): Promise<void>;
}

export async function startWorld(
  opts: ExchangeAppOptions & { governor?: RateGovernor } = {},
): Promise<World> {
  const { governor, ...exchange } = opts;
  const sandbox = await startSandbox({ blockMs: 50, ...exchange });
  const account = await sandbox.newAccount('trade');
  const client = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: account,
    account: account.wallet,
    ...(governor ? { governor } : {}),
  });
  const db = tempStore(account.apiKey, sandbox.url);
  const requests = countRequests(sandbox.app.server);
  return {
    sandbox,
    account,
    client,
    db,
    requests,
    async close() {
      requests.detach();
      await client.close();
      await sandbox.close();
      db.cleanup();
    },
  };
}

export interface OpenFixture {
  contractId: string;
  homeTeam: string;
  awayTeam: string;
}

let fixtureSeq = 0;

/** A new fixture open for betting at index 0.5 (its own teams, so no test shares it). */
export async function newFixture(sandbox: Sandbox): Promise<OpenFixture> {
  fixtureSeq += 1;
  const n = fixtureSeq;
  const letters = (k: number): string =>
    String.fromCharCode(65 + (((k / 676) % 26) | 0), 65 + (((k / 26) % 26) | 0), 65 + (k % 26));
  const f = await sandbox.admin<OpenFixture>('POST', '/fixtures', {
    homeTeam: `H${letters(n)}`,
    awayTeam: `A${letters(n)}`,
    league: 'TEST',
  });
  return { contractId: f.contractId, homeTeam: f.homeTeam, awayTeam: f.awayTeam };
}

export function buy(
  f: OpenFixture,
  contracts: number,
  boost = 0,
  extra: Partial<OrderRequest> = {},
): OrderRequest {
  return {
    orderType: 'MARKET',
    legs: [
      {
        contractId: f.contractId,
        outcome: f.homeTeam,
        side: 'BUY',
        market: 'DRAW_NO_BET',
        ...(boost > 0 ? { boost } : {}),
      },
    ],
    qty: String(contracts),
    marketUnit: 'BASE',
    ...extra,
  };
}

export function sell(f: OpenFixture, contracts: number): OrderRequest {
  return {
    orderType: 'MARKET',
    legs: [{ contractId: f.contractId, outcome: f.homeTeam, side: 'SELL', market: 'DRAW_NO_BET' }],
    qty: String(contracts),
    marketUnit: 'BASE',
  };
}

/** Polls GET /order until the order is final (the sandbox's block time is short in tests). */
export async function untilFinal(client: ExchangeClient, orderId: string): Promise<Order> {
  for (;;) {
    const o = await client.getOrder({ orderId });
    if (!['CLAIMED', 'SUBMITTED', 'OPEN'].includes(o.status)) return o;
    await sleep(20);
  }
}
