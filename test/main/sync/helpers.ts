/**
 * Shared set-up for the sync engine's and knockout watch's tests: the real sandbox exchange
 * (in-process, real socket), a real SQLite store in a temp dir, an account, an exchange client,
 * and a counter of every request the exchange answered, by route and status, read off the
 * server itself (independent of the client under test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { ExchangeAppOptions } from '../../../src/exchange/app.js';
import type { Order, OrderRequest } from '../../../src/shared/api/schemas.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import type { RateGovernor } from '../../../src/main/governor/index.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { startSandbox, type Sandbox } from '../client/sandbox.js';

export interface RequestLog {
  /** Answers seen since the counter started: "GET /positions" -> count. */
  count(route: string, status?: number): number;
  /** Every answer with this HTTP status. */
  withStatus(status: number): number;
  reset(): void;
  detach(): void;
}

/** Counts every answer the server sends, by "METHOD /path" (query dropped) and status. */
export function countRequests(server: Server): RequestLog {
  let seen: { route: string; status: number }[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const route = `${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}`;
    res.on('finish', () => seen.push({ route, status: res.statusCode }));
  };
  server.on('request', onRequest);
  return {
    count: (route, status) =>
      seen.filter((s) => s.route === route && (status === undefined || s.status === status)).length,
    withStatus: (status) => seen.filter((s) => s.status === status).length,
    reset: () => {
      seen = [];
    },
    detach: () => server.off('request', onRequest),
  };
}

export interface TempStore {
  dir: string;
  file: string;
  store: Store;
  accountId: number;
  reopen(): Store;
  cleanup(): void;
}

export function tempStore(apiKey: string, baseUrl: string): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'betdesk-sync-'));
  const file = join(dir, 'betdesk.sqlite');
  const t: TempStore = {
    dir,
    file,
    store: openStore(file),
    accountId: 0,
    reopen() {
      t.store.close();
      t.store = openStore(file);
      return t.store;
    },
    cleanup() {
      t.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  t.accountId = t.store.accounts.create({
    label: `acct-${apiKey.slice(0, 8)}`,
    baseUrl,
    apiKey,
  }).id;
  return t;
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
  const sandbox = await startSandbox(exchange);
  const account = await sandbox.newAccount('trade');
  const client = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: account,
    account: account.wallet,
    ...(governor ? { governor } : {}),
  });
  const db = tempStore(account.apiKey, sandbox.url);
  const requests = countRequests(sandbox.harness.app.server);
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
  const f = await sandbox.control<OpenFixture>('POST', '/fixtures', {
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

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resolves when `check` holds, polling every `everyMs`; rejects after `timeoutMs`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  everyMs = 20,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await sleep(everyMs);
  }
}
