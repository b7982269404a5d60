/**
 * The exchange goes away: reads still answer from the store with the time of the last sync,
 * the status says offline, and when the exchange is back (same port, same state file) syncing
 * resumes by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startExchange, type RunningExchange } from '../../../src/exchange/app.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { SyncEngine, type SyncStatus } from '../../../src/main/sync/index.js';
import { buy, tempStore, until, untilFinal, type TempStore } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'betdesk-offline-'));
const dataFile = join(dir, 'exchange.sqlite');
let exchange: RunningExchange | undefined;
let db: TempStore | undefined;

afterAll(async () => {
  await exchange?.close();
  db?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function start(port: number): Promise<RunningExchange> {
  return startExchange({ port, dataFile, blockMs: 20, rateLimits: false, seed: 3 });
}

describe('offline', () => {
  it('serves reads from the store while the exchange is down and resumes when it is back', async () => {
    exchange = await start(0);
    const port = Number(new URL(exchange.url).port);
    const wallet = exchange.domain.createWallet();
    const key = exchange.domain.createKey({
      wallet,
      permission: 'trade',
      expiresAt: exchange.domain.now() + 86_400_000,
    });
    const fixture = exchange.domain.listFixtures({ bettingOpen: 'true', limit: 1 }).fixtures[0]!;
    const credentials = { apiKey: key.apiKey, secret: key.secret };
    const client = new ExchangeClient({ baseUrl: exchange.url, credentials, account: wallet });
    db = tempStore(key.apiKey, exchange.url);

    const statuses: SyncStatus[] = [];
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      intervals: {
        ordersIdleMs: 100,
        ordersPendingMs: 50,
        positionsIdleMs: 200,
        settlementsMs: 300,
      },
      backoff: { initialMs: 100, maxMs: 800 },
    });
    engine.on('sync:status', (s) => statuses.push(s));
    const first = await client.placeOrder(buy({ ...fixture, contractId: fixture.contractId }, 5));
    await untilFinal(client, first.order.orderId);
    engine.start();
    await until('the order is synced', () =>
      engine.cache
        .orders()
        .orders.some((o) => o.orderId === first.order.orderId && o.status === 'FILLED'),
    );
    await until('the position is synced', () => engine.cache.positions().positions.length === 1);
    await until('the first sync is done', () => engine.historyProgress()?.state === 'done');

    // The exchange stops.
    await exchange.close();
    exchange = undefined;
    await until('the status says offline', () => engine.status().state === 'offline', 10_000);
    const offline = engine.status();
    expect(offline.offlineSince).not.toBeNull();
    expect(offline.lastError).toBe(
      'The exchange could not be reached. Nothing was sent to the exchange.',
    );
    expect(offline.lastSyncAt).not.toBeNull();

    const orders = engine.cache.orders();
    expect(orders.state).toBe('offline');
    expect(orders.syncedAt).not.toBeNull();
    expect(orders.syncedAt!).toBeLessThanOrEqual(offline.offlineSince!);
    expect(orders.orders.map((o) => o.orderId)).toContain(first.order.orderId);
    const positions = engine.cache.positions();
    expect(positions).toMatchObject({ state: 'offline' });
    expect(positions.positions).toHaveLength(1);
    expect(engine.cache.fixtures().fixtures.length).toBeGreaterThan(0);
    expect(engine.cache.settlements()).toMatchObject({ state: 'offline', total: 0 });

    // It stays offline while the probe fails again and again, each time scheduling the next.
    const probes = new Set<number>();
    await until('two more probes have failed', () => {
      const s = engine.status();
      expect(s.state).toBe('offline');
      if (s.nextPollAt !== null) probes.add(s.nextPollAt);
      return probes.size >= 3;
    });

    // The exchange comes back on the same port with the same state; nobody calls the engine.
    exchange = await start(port);
    const backAt = Date.now();
    await until('syncing resumed', () => engine.status().offlineSince === null, 10_000);
    expect(statuses.some((s) => s.state === 'offline')).toBe(true);
    const second = await client.placeOrder(buy(fixture, 3));
    await until('an order placed after the restart is synced', () =>
      engine.cache
        .orders()
        .orders.some((o) => o.orderId === second.order.orderId && o.status === 'FILLED'),
    );
    const back = engine.status();
    expect(back.lastError).toBeNull();
    expect(back.lastSyncAt!).toBeGreaterThanOrEqual(backAt);
    expect(engine.cache.orders().syncedAt!).toBeGreaterThanOrEqual(backAt);
    const held = (await client.positions()).positions[0]!.contracts;
    expect(held).toBeGreaterThan(first.order.contracts);
    await until(
      'the grown position is synced',
      () => engine.cache.positions().positions[0]?.contracts === held,
    );

    await engine.stop();
    await client.close();
  }, 40_000);
});
