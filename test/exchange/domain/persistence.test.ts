import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDomain } from '../../../src/exchange/domain/index.js';
import type { PositionRec } from '../../../src/exchange/domain/model.js';
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

  it('prices a KNOCKED_OUT row from a file written before knockouts kept their notional', async () => {
    const file = tempFile();
    const first = await createDomain({ seed: 5, blockMs: BLOCK_MS, dataFile: file });
    const w = first.createWallet();
    const [f, g] = [fixture(first), fixture(first, 'GGG', 'HHH')];
    for (const [m, home] of [
      [f, 'HOM'],
      [g, 'GGG'],
    ] as const) {
      await placeAndSettle(first, w, buy(m, home, '10', { boost: 90 })); // knockout 0.4132
      await placeAndSettle(first, w, buy(m, home, '30', { boost: 50 })); // knockout 0.2296
      await placeAndSettle(first, w, buy(m, home, '20'));
      first.setPrice(m.contractId, home, '0.4000');
    }
    await first.close();
    // What the old writer left: no notional, the index of the last knockout as the price.
    const db = new Database(file);
    const rows = db.prepare("SELECT id, json FROM records WHERE kind = 'position'").all() as {
      id: string;
      json: string;
    }[];
    for (const { id, json } of rows) {
      const p = JSON.parse(json) as PositionRec;
      p.knocked = { ...p.knocked, notional: '0', price: '0.4000' };
      db.prepare("UPDATE records SET json = ? WHERE kind = 'position' AND id = ?").run(
        JSON.stringify(p),
        id,
      );
    }
    db.close();

    const second = await createDomain({ seed: 5, blockMs: BLOCK_MS, dataFile: file });
    try {
      // Sold flat without another knockout: the stored price stands.
      await placeAndSettle(second, w, sell(f, 'HOM', '50'));
      expect(
        second.settlements(w, { type: 'KNOCKED_OUT', contractId: f.contractId }).settlements,
      ).toMatchObject([{ contracts: 10, price: '0.4000' }]);
      // A later knockout is weighted with it: (10 × 0.4000 + 30 × 0.2296) / 40.
      second.setPrice(g.contractId, 'GGG', '0.2000');
      await placeAndSettle(second, w, sell(g, 'GGG', '20'));
      expect(
        second.settlements(w, { type: 'KNOCKED_OUT', contractId: g.contractId }).settlements[0],
      ).toMatchObject({ contracts: 40, price: '0.2722' });
    } finally {
      await second.close();
    }
  });
});
