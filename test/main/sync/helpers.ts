/**
 * Shared set-up for the sync engine's and knockout watch's tests: the real sandbox exchange
 * (in-process, real socket), a real SQLite store in a temp dir, an account, an exchange client,
 * and a counter of every request the exchange answered, by route and status, read off the
 * server itself (independent of the client under test).
 */
import type { ExchangeAppOptions } from '../../../src/exchange/app.js';
import type { Order, OrderRequest } from '../../../src/shared/api/schemas.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import type { RateGovernor } from '../../../src/main/governor/index.js';
import { countRequests, type RequestLog } from '../../harness/requests.js';
import { tempStore as harnessTempStore, type TempStore } from '../../harness/temp.js';
import { sleep } from '../../harness/wait.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';

export { countRequests, type RequestLog } from '../../harness/requests.js';
export type { TempStore } from '../../harness/temp.js';
export { sleep, until } from '../../harness/wait.js';

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
