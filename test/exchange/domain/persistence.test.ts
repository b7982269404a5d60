import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDomain } from '../../../src/exchange/domain/index.js';
import { BLOCK_MS, buy, domain, fixture, placeAndSettle, sell, tempFile } from './helpers.js';

describe('state file', () => {
  it('keeps fixtures, wallets, keys, orders, positions and settlements across a restart', async () => {
    const file = tempFile();
    const first = await createDomain({ seed: 5, blockMs: BLOCK_MS, dataFile: file });
    const w = first.createWallet();
    const key = first.createKey({ wallet: w, permission: 'trade', expiresAt: first.now() + 1e9 });
    const f = fixture(first);
    first.advanceClock(1000);
    const bought = await placeAndSettle(
      first,
      w,
      buy(f, 'HOM', '20', { boost: 40, clientOrderId: 'keep-me' }),
    );
    await placeAndSettle(first, w, sell(f, 'HOM', '5'));
    const g = fixture(first, 'QQQ', 'RRR');
    await placeAndSettle(first, w, buy(g, 'QQQ', '3'));
    first.resolveFixture(g.contractId, 'QQQ');
    first.setPrice(f.contractId, 'HOM', '0.4500');
    const snapshot = {
      fixtures: first.listFixtures({ limit: 100 }),
      orders: first.listOrders(w, {}),
      positions: first.positions(w, {}),
      settlements: first.settlements(w, {}),
    };
    const clock = first.now();
    await first.close();

    const second = await createDomain({ seed: 999, blockMs: BLOCK_MS, dataFile: file });
    try {
      expect(second.now()).toBeGreaterThanOrEqual(clock); // the advanced clock survives
      expect(second.listFixtures({ limit: 100 })).toEqual(snapshot.fixtures);
      expect(second.listOrders(w, {})).toEqual(snapshot.orders);
      expect(second.positions(w, {})).toEqual(snapshot.positions);
      expect(second.settlements(w, {})).toEqual(snapshot.settlements);
      expect(second.getKey(key.apiKey)).toEqual(key);
      // a spent clientOrderId stays spent
      const again = await second.placeOrder(w, buy(f, 'HOM', '1', { clientOrderId: 'keep-me' }));
      expect(again.orderId).toBe(bought.orderId);
    } finally {
      await second.close();
    }
  });

  it('processes orders that were still SUBMITTED when the process stopped', async () => {
    const file = tempFile();
    const first = await createDomain({ seed: 5, blockMs: BLOCK_MS, dataFile: file });
    const w = first.createWallet();
    const f = fixture(first);
    const o = await first.placeOrder(w, buy(f, 'HOM', '10'));
    await first.close();
    const second = await createDomain({ seed: 5, blockMs: BLOCK_MS, dataFile: file });
    try {
      expect(second.getOrder(w, { orderId: o.orderId }).status).toBe('SUBMITTED');
      second.advanceClock(BLOCK_MS);
      expect(second.getOrder(w, { orderId: o.orderId }).status).toBe('FILLED');
      expect(second.positions(w, {}).positions[0]?.contracts).toBe(10);
    } finally {
      await second.close();
    }
  });

  it('writes an accepted order to the file before placeOrder returns', async () => {
    const file = tempFile();
    const first = await createDomain({ seed: 5, blockMs: BLOCK_MS, dataFile: file });
    const w = first.createWallet();
    const f = fixture(first);
    const o = await first.placeOrder(w, buy(f, 'HOM', '10'));
    // a second process opening the file now (no close, no flush by the first) sees the order
    const reader = await createDomain({ seed: 5, blockMs: BLOCK_MS, dataFile: file });
    try {
      expect(reader.getOrder(w, { orderId: o.orderId }).status).toBe('SUBMITTED');
    } finally {
      await reader.close();
      await first.close();
    }
  });

  it('keeps API secrets out of the SQLite file', async () => {
    const file = tempFile();
    const d = await domain({ dataFile: file });
    const key = d.createKey({ wallet: d.createWallet(), permission: 'read' });
    await d.close();
    const bytes = [file, `${file}-wal`]
      .filter(existsSync)
      .map((p) => readFileSync(p).toString('latin1'))
      .join('');
    expect(bytes).toContain(key.apiKey);
    expect(bytes).not.toContain(key.secret);
  });

  it('starts fresh and seeded from an empty file', async () => {
    const file = tempFile();
    const a = await domain({ seed: 11, dataFile: file });
    const b = await domain({ seed: 11 });
    expect(a.listFixtures({ limit: 100 }).fixtures.map((f) => f.contractId)).toEqual(
      b.listFixtures({ limit: 100 }).fixtures.map((f) => f.contractId),
    );
  });
});
