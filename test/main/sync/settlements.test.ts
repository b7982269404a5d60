/**
 * Settlements have no id and no cursor: the engine reads the newest pages until it has caught
 * up and stores each row once, across repeated passes and restarts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settlement } from '../../../src/shared/api/schemas.js';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { SyncEngine } from '../../../src/main/sync/index.js';
import { startSandbox } from '../../exchange/harness.js';
import { makeHistory } from './history-maker.js';
import {
  buy,
  newFixture,
  sell,
  startWorld,
  tempStore,
  untilFinal,
  reported,
  type OpenFixture,
  type TempStore,
  type World,
} from './helpers.js';

let world: World;

beforeAll(async () => {
  world = await startWorld({ rateLimits: false, blockMs: 20 });
});

afterAll(async () => {
  await world.close();
});

async function exchangeRows(): Promise<Settlement[]> {
  const all: Settlement[] = [];
  for (;;) {
    const page = await world.client.settlements({ limit: 100, offset: all.length });
    all.push(...page.settlements);
    if (page.settlements.length === 0 || all.length >= page.total) return all;
  }
}

function storedRows(db: TempStore = world.db): Settlement[] {
  const page = db.store.settlements.query(db.accountId, { limit: 1000 });
  return page.settlements.map(reported);
}

const canonical = (rows: Settlement[]): string[] => rows.map((r) => JSON.stringify(r)).sort();

/** Opens a position on each fixture and waits for the fills. */
async function open(fixtures: OpenFixture[], contracts: number, boost = 0): Promise<void> {
  const placed = await Promise.all(
    fixtures.map((f) => world.client.placeOrder(buy(f, contracts, boost))),
  );
  await Promise.all(placed.map((p) => untilFinal(world.client, p.order.orderId)));
}

async function resolve(fixtures: OpenFixture[]): Promise<void> {
  for (const f of fixtures) {
    await world.sandbox.admin('POST', `/fixtures/${f.contractId}/resolve`, {
      winner: f.homeTeam,
    });
  }
}

describe('settlements sync', () => {
  it('stores every row once across passes and restarts, reading one page once caught up', async () => {
    const { db, client, requests } = world;
    const resolved: OpenFixture[] = [];
    for (let i = 0; i < 108; i++) resolved.push(await newFixture(world.sandbox));
    const closed = await newFixture(world.sandbox);
    const knocked = await newFixture(world.sandbox);
    await open(resolved, 3);
    await open([closed], 4);
    await open([knocked], 50, 50);
    await resolve(resolved);
    const s = await client.placeOrder(sell(closed, 4));
    await untilFinal(client, s.order.orderId);
    await world.sandbox.admin('POST', `/fixtures/${knocked.contractId}/price`, {
      outcome: knocked.homeTeam,
      indexPrice: '0.1',
    });
    // 110 rows: more than one page.
    expect((await exchangeRows()).length).toBe(110);

    let engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      streams: ['settlements'],
    });
    requests.reset();
    let report = await engine.syncOnce();
    expect(report.ok).toBe(true);
    expect(report.settlements).toMatchObject({ inserted: 110, total: 110, requests: 2 });
    expect(canonical(storedRows())).toEqual(canonical(await exchangeRows()));
    expect(new Set(storedRows().map((r) => r.type))).toEqual(
      new Set(['SETTLEMENT', 'CLOSED', 'KNOCKED_OUT']),
    );

    // Caught up: one page, nothing new, however often.
    for (let i = 0; i < 3; i++) {
      requests.reset();
      report = await engine.syncOnce();
      expect(report.settlements).toMatchObject({ inserted: 0, total: 110, requests: 1 });
      expect(requests.count('GET /settlements')).toBe(1);
    }

    // Three more rows: still one page, three inserted.
    const more = [
      await newFixture(world.sandbox),
      await newFixture(world.sandbox),
      await newFixture(world.sandbox),
    ];
    await open(more, 2);
    await resolve(more);
    report = await engine.syncOnce();
    expect(report.settlements).toMatchObject({ inserted: 3, total: 113, requests: 1 });

    // A restart over the reopened file stores nothing twice.
    const store = db.reopen();
    engine = new SyncEngine({ client, store, accountId: db.accountId, streams: ['settlements'] });
    report = await engine.syncOnce();
    expect(report.settlements).toMatchObject({ inserted: 0, total: 113, requests: 1 });
    const rows = storedRows();
    expect(rows).toHaveLength(113);
    expect(canonical(rows)).toEqual(canonical(await exchangeRows()));
  }, 60_000);

  it('finds a row missing deep in the history by the count, and stores it once', async () => {
    // An exchange of its own (blocks at once, so a history is made in milliseconds through its
    // domain) and a wallet with more than a page of settlements.
    const sandbox = await startSandbox({ blockMs: 0, rateLimits: false });
    const key = await sandbox.newAccount('read');
    await makeHistory(sandbox.domain, key.wallet, 240);
    const client = new ExchangeClient({
      baseUrl: sandbox.url,
      credentials: key,
      account: key.wallet,
    });
    const db = tempStore(key.apiKey, sandbox.url);
    try {
      const engine = new SyncEngine({
        client,
        store: db.store,
        accountId: db.accountId,
        streams: ['settlements'],
      });
      await engine.syncOnce();
      const before = storedRows(db);
      expect(before.length).toBeGreaterThan(100);
      // Forget the oldest row, as if it had arrived late from the on-chain source: test-only SQL.
      const oldest = db.store.db
        .prepare(
          'SELECT id FROM settlements WHERE account_id = ? ORDER BY timestamp_ms, id LIMIT 1',
        )
        .get(db.accountId) as { id: number };
      db.store.db.prepare('DELETE FROM settlements WHERE id = ?').run(oldest.id);
      expect(storedRows(db)).toHaveLength(before.length - 1);

      const report = await engine.syncOnce();
      expect(report.settlements).toMatchObject({ inserted: 1, requests: 2 });
      expect(canonical(storedRows(db))).toEqual(canonical(before));
      const again = await engine.syncOnce();
      expect(again.settlements).toMatchObject({ inserted: 0, requests: 1 });
    } finally {
      await client.close();
      await sandbox.close();
      db.cleanup();
    }
  }, 30_000);
});
