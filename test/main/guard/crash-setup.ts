/**
 * The scene of the exactly-once tests, set in the test process: a fresh wallet holding 10
 * contracts of a new fixture (bought at about 0.50), stored by a sync, with a stop loss armed
 * through the GuardBook; then the price falls to 0.30, so the rule's condition holds on the
 * next fresh positions read. What the exchange holds afterwards is read over HTTP.
 */
import { ExchangeClient } from '../../../src/main/client/index.js';
import type { Credentials, Sandbox } from '../../exchange/harness.js';
import type { Fixture, Order } from '../../../src/shared/api/schemas.js';
import { allExchangeOrders } from '../trading/converge.js';
import { openGuardDesk, STOP_LOSS, type GuardDeskOptions } from './crash-desk.js';

export const HELD = 10;

export interface GuardedPosition {
  key: Credentials;
  fixture: Fixture;
  ruleId: number;
  desk: Pick<GuardDeskOptions, 'baseUrl' | 'apiKey' | 'secret' | 'db'>;
}

/** Buys, syncs, arms a stop loss and closes the desk: the store is left for another process. */
export async function guardedPosition(sandbox: Sandbox, db: string): Promise<GuardedPosition> {
  const key = await sandbox.newAccount('trade');
  const fixture = await sandbox.admin<Fixture>('POST', '/fixtures', {
    homeTeam: 'HOM',
    awayTeam: 'AWY',
    league: 'Guard League',
  });
  const opts = { baseUrl: sandbox.url, apiKey: key.apiKey, secret: key.secret, db };
  const desk = openGuardDesk(opts);
  try {
    const bought = await desk.trading.trade({
      contractId: fixture.contractId,
      outcome: fixture.homeTeam,
      side: 'BUY',
      qty: String(HELD),
      unit: 'BASE',
    });
    if (bought.status !== 'FILLED') throw new Error(`the buy ended ${bought.status}`);
    await desk.engine.syncNow('orders', 'positions', 'fixtures');
    const [rule] = desk.book.arm(desk.accountId, {
      contractId: fixture.contractId,
      outcome: fixture.homeTeam,
      rules: [STOP_LOSS],
    });
    if (!rule) throw new Error('arming returned no rule');
    return { key, fixture, ruleId: rule.id, desk: opts };
  } finally {
    await desk.close();
  }
}

/** The index price falls from 0.50 to 0.30: the stop loss's condition holds. */
export async function priceFalls(sandbox: Sandbox, fixture: Fixture): Promise<void> {
  await sandbox.admin('POST', `/fixtures/${fixture.contractId}/price`, {
    outcome: fixture.homeTeam,
    indexPrice: '0.30',
  });
}

/** Every order of the wallet on the exchange, and its SELL orders of the fixture. */
export async function exchangeOrders(
  sandbox: Sandbox,
  g: GuardedPosition,
): Promise<{ all: Order[]; sells: Order[] }> {
  const client = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: { apiKey: g.key.apiKey, secret: g.key.secret },
  });
  try {
    const all = await allExchangeOrders(client);
    const sells = all.filter((o) => o.side === 'SELL' && o.contractId === g.fixture.contractId);
    return { all, sells };
  } finally {
    await client.close();
  }
}

/** Contracts of the fixture's outcome the wallet still holds, by the exchange. */
export async function heldOnExchange(sandbox: Sandbox, g: GuardedPosition): Promise<number> {
  const client = new ExchangeClient({
    baseUrl: sandbox.url,
    credentials: { apiKey: g.key.apiKey, secret: g.key.secret },
  });
  try {
    const { positions } = await client.positions({ limit: 100 });
    return positions
      .filter((p) => p.contractId === g.fixture.contractId && p.outcome === g.fixture.homeTeam)
      .reduce((n, p) => n + p.contracts, 0);
  } finally {
    await client.close();
  }
}
