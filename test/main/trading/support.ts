/**
 * A trading desk for tests: the real sandbox exchange (in-process, real socket), a real SQLite
 * store in a temp dir with one account, an exchange client for a fresh trade key of its own
 * wallet, and the trading service over them.
 */
import path from 'node:path';
import { ExchangeClient, type ExchangeClientOptions } from '../../../src/main/client/index.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { TradingService, type TradingServiceOptions } from '../../../src/main/trading/index.js';
import type { ExchangeAppOptions } from '../../../src/exchange/app.js';
import type { Fixture, Order } from '../../../src/shared/api/schemas.js';
import { tempDir } from '../../harness/temp.js';
import { allExchangeOrders } from './converge.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';

export { tempDir } from '../../harness/temp.js';

export interface Desk {
  sandbox: Sandbox;
  key: { apiKey: string; secret: string; wallet: string };
  store: Store;
  file: string;
  accountId: number;
  client: ExchangeClient;
  trading: TradingService;
  /** Fixtures open for betting. */
  fixtures: Fixture[];
  /** A new fixture open for betting at 0.50, lot size 1, minimum 1 contract: no one bet on it. */
  newFixture(): Promise<Fixture>;
  /** Every order of the wallet as the exchange has it (all pages). */
  exchangeOrders(): Promise<Order[]>;
  /** Another trading service (and client) over the same store and key, e.g. "after a restart". */
  restart(
    overrides?: Partial<TradingServiceOptions>,
    clientOptions?: Partial<ExchangeClientOptions>,
  ): TradingService;
  close(): Promise<void>;
}

export async function openDesk(
  opts: {
    exchange?: ExchangeAppOptions;
    client?: Partial<ExchangeClientOptions>;
    trading?: Partial<TradingServiceOptions>;
    sandbox?: Sandbox;
  } = {},
): Promise<Desk> {
  const ownSandbox = opts.sandbox === undefined;
  const sandbox =
    opts.sandbox ?? (await startSandbox({ blockMs: 20, rateLimits: false, ...opts.exchange }));
  const key = await sandbox.newAccount('trade');
  const { dir, cleanup } = tempDir('betdesk-trading-');
  const file = path.join(dir, 'betdesk.sqlite');
  const store = openStore(file);
  const account = store.accounts.create({
    label: 'test',
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    permission: 'trade',
  });
  const clients: ExchangeClient[] = [];
  const newClient = (extra: Partial<ExchangeClientOptions> = {}): ExchangeClient => {
    const c = new ExchangeClient({
      baseUrl: sandbox.url,
      credentials: { apiKey: key.apiKey, secret: key.secret },
      ...opts.client,
      ...extra,
    });
    clients.push(c);
    return c;
  };
  const newTrading = (client: ExchangeClient, extra: Partial<TradingServiceOptions> = {}) =>
    new TradingService({
      client,
      store,
      accountId: account.id,
      placement: { backoff: { initialMs: 20, maxMs: 200 } },
      polling: { initialMs: 20, maxMs: 100, timeoutMs: 20_000 },
      ...opts.trading,
      ...extra,
    });
  const client = newClient();
  const trading = newTrading(client);
  const fixtures = (await client.fixtures({ bettingOpen: 'true', limit: 100 })).fixtures;

  return {
    sandbox,
    key,
    store,
    file,
    accountId: account.id,
    client,
    trading,
    fixtures,
    newFixture() {
      return sandbox.admin<Fixture>('POST', '/fixtures', {
        homeTeam: 'HOM',
        awayTeam: 'AWY',
        league: 'Test League',
      });
    },
    exchangeOrders: () => allExchangeOrders(client),
    restart(overrides = {}, clientOptions = {}) {
      return newTrading(newClient(clientOptions), overrides);
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      store.close();
      if (ownSandbox) await sandbox.close();
      cleanup();
    },
  };
}

/** A bet of `qty` contracts on the home team of `f`. */
export function buy(f: Fixture, qty = '5', extra: Record<string, unknown> = {}) {
  return {
    contractId: f.contractId,
    outcome: f.homeTeam,
    side: 'BUY',
    qty,
    unit: 'BASE',
    ...extra,
  };
}
