/**
 * A populated version-5 store opened by this version (migration 006, docs/pnl.md): every CLOSED
 * and KNOCKED_OUT row's realized P&L is its reported pnl at once, the slots add the rows up, and
 * the SETTLEMENT rows are worked out afterwards by the backfill, with progress, into the figure
 * their orders give (or unknown with the reason).
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BackfillWorker } from '../../../src/main/pnl/backfill-worker.js';
import { RealizedBackfill, type BackfillProgress } from '../../../src/main/pnl/backfill.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { migrations, runMigrations } from '../../../src/main/store/migrations/index.js';
import { SLOT_MS } from '../../../src/main/store/repos/settlements.js';
import type { Order, Settlement } from '../../../src/shared/api/schemas.js';
import { toMicros } from '../../../src/shared/money.js';
import { REALIZED_SLOT_SUMS } from './history-model.js';
import { fixture, order, settlement, tempDir } from './support.js';

let cleanup = () => {};
afterEach(() => cleanup());

const T = Date.UTC(2024, 3, 1, 18);
/** A winner held to the end after two buys and a partial sell: CLOSED 4 and SETTLEMENT 6. */
const HELD: { orders: Order[]; rows: Settlement[] } = {
  orders: [
    order(101, {
      contractId: 'EPL-W',
      outcome: 'ARS',
      status: 'FILLED',
      contracts: 6,
      cost: '3.00',
      createdAt: T - 3000,
    }),
    order(102, {
      contractId: 'EPL-W',
      outcome: 'ARS',
      status: 'FILLED',
      contracts: 4,
      cost: '2.60',
      createdAt: T - 2000,
    }),
    order(103, {
      contractId: 'EPL-W',
      outcome: 'ARS',
      status: 'FILLED',
      side: 'SELL',
      contracts: 4,
      cost: '0.03',
      proceeds: '2.50',
      createdAt: T - 1000,
    }),
  ],
  rows: [
    {
      type: 'CLOSED',
      contractId: 'EPL-W',
      outcome: 'ARS',
      contracts: 4,
      price: '0.6300',
      pnl: '0.50',
      tx: '0xc',
      timestamp: new Date(T).toISOString(),
    },
    {
      type: 'SETTLEMENT',
      contractId: 'EPL-W',
      outcome: 'ARS',
      contracts: 6,
      payout: '6.00',
      tx: '0xs',
      timestamp: new Date(T + 1).toISOString(),
    },
  ],
};

/** A version-5 file with an account, fixtures, orders and 300 settlements, as 005 left it. */
function v5File(): string {
  const t = tempDir();
  cleanup = t.cleanup;
  const file = path.join(t.dir, 'betdesk.sqlite');
  const db = new Database(file);
  try {
    runMigrations(db, migrations.slice(0, 5));
    db.exec(`INSERT INTO accounts (id, label, base_url, api_key, created_at)
      VALUES (1, 'live', 'https://x.example', 'k', 0)`);
    const insertFixture = db.prepare(
      `INSERT INTO fixtures (account_id, contract_id, league, home_team, away_team, starts_at,
         betting_open, status, home_price, away_price, winner, lot_size, min_contracts, updated_at)
       VALUES (1, @contractId, @league, @homeTeam, @awayTeam, @startsAt, 1, @status,
         @homePrice, @awayPrice, NULL, @lotSize, @minContracts, 1)`,
    );
    for (const c of ['EPL-0', 'EPL-1', 'EPL-2', 'EPL-W']) insertFixture.run(fixture(c));
    insertFixture.run(fixture('EPL-3', { league: 'La Liga' }));
    const insertOrder = db.prepare(
      `INSERT INTO orders (account_id, order_id, client_order_id, contract_id, outcome, side,
         status, contracts, entry_price, cost, max_win, deadline, tx, order_type, market_unit,
         qty, boost, proceeds, created_at, updated_at)
       VALUES (1, @orderId, @clientOrderId, @contractId, @outcome, @side, @status, @contracts,
         @entryPrice, @cost, @maxWin, @deadline, @tx, @orderType, @marketUnit, @qty, @boost,
         @proceeds, @createdAt, @createdAt)`,
    );
    for (const o of HELD.orders) insertOrder.run({ ...o, proceeds: o.proceeds ?? null });
    // As version 5 wrote them: the strings and their micros.
    const insertSettlement = db.prepare(
      `INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
         price, pnl, payout, tx, timestamp, timestamp_ms, pnl_micros, payout_micros)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const rows = [...Array.from({ length: 300 }, (_, i) => settlement(i)), ...HELD.rows];
    rows.forEach((s, i) =>
      insertSettlement.run(
        Buffer.from(String(i)),
        s.type,
        s.contractId,
        s.outcome,
        s.contracts,
        s.price ?? null,
        s.pnl ?? null,
        s.payout ?? null,
        s.tx,
        s.timestamp,
        Date.parse(s.timestamp),
        s.pnl === undefined ? null : toMicros(s.pnl),
        s.payout === undefined ? null : toMicros(s.payout),
      ),
    );
  } finally {
    db.close();
  }
  return file;
}

/** The slot tables as stored, and as summed again from the rows' realized P&L. */
function slotsAndRows(store: Store): { stored: unknown[]; summed: unknown[] } {
  const q = (sql: string) => store.db.prepare(sql).raw(true).all();
  const sums = REALIZED_SLOT_SUMS;
  const cols = 'n, wins, pnl_sum, payout_sum, pnl_max, pnl_min, unknown';
  return {
    stored: [
      q(`SELECT account_id, slot, type, ${cols} FROM settlement_slots ORDER BY 1, 2, 3`),
      q(`SELECT account_id, lower(league), slot, type, ${cols} FROM settlement_league_slots
         ORDER BY 1, 2, 3, 4`),
    ],
    summed: [
      q(`SELECT account_id, timestamp_ms / ${SLOT_MS}, type, ${sums}
         FROM settlements GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
      q(`SELECT s.account_id, lower(f.league), timestamp_ms / ${SLOT_MS}, type, ${sums}
         FROM settlements s JOIN fixtures f USING (account_id, contract_id)
         GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
    ],
  };
}

interface Row {
  type: string;
  contract_id: string;
  pnl_micros: number | null;
  realized_micros: number | null;
  basis_micros: number | null;
  pnl_source: string;
  pnl_note: string | null;
}
const rowsOf = (store: Store) =>
  store.db
    .prepare(
      `SELECT type, contract_id, pnl_micros, realized_micros, basis_micros, pnl_source, pnl_note
       FROM settlements ORDER BY id`,
    )
    .all() as Row[];

describe('upgrading a populated version-5 store', () => {
  it('keeps the slots and the P&L indexes right for rows the exchange reports oddly', () => {
    const file = v5File();
    const db = new Database(file);
    try {
      // A SETTLEMENT row with a pnl (the P&L indexes are rebuilt then), and a CLOSED row
      // without one but with a payout (a win in version 5's slots, unknown now).
      const insert = db.prepare(
        `INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
           price, pnl, payout, tx, timestamp, timestamp_ms, pnl_micros, payout_micros)
         VALUES (1, ?, ?, 'EPL-W', 'ARS', 3, NULL, ?, '3.00', '0x1', ?, ?, ?, 3000000)`,
      );
      insert.run(
        Buffer.from('odd-1'),
        'SETTLEMENT',
        '1.50',
        new Date(T).toISOString(),
        T,
        1_500_000,
      );
      insert.run(Buffer.from('odd-2'), 'CLOSED', null, new Date(T).toISOString(), T, null);
    } finally {
      db.close();
    }
    const store = openStore(file);
    try {
      const after = slotsAndRows(store);
      expect(after.stored).toEqual(after.summed);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const closed = rowsOf(store).filter((r) => r.type === 'CLOSED' && r.pnl_micros === null);
      expect(closed).toHaveLength(1);
      expect(closed[0]).toMatchObject({ realized_micros: null, pnl_source: 'unknown' });
      expect(closed[0]?.pnl_note).toMatch(/reported no P&L/);
    } finally {
      store.close();
    }
  });

  it('copies reported P&L at once, then works the SETTLEMENT rows out in the background', async () => {
    const store = openStore(v5File());
    try {
      const upgraded = rowsOf(store);
      expect(upgraded).toHaveLength(302);
      for (const r of upgraded.filter((row) => row.type !== 'SETTLEMENT')) {
        expect(r).toMatchObject({ realized_micros: r.pnl_micros, pnl_source: 'exchange' });
      }
      const settled = upgraded.filter((r) => r.type === 'SETTLEMENT');
      for (const r of settled) {
        expect(r).toMatchObject({ realized_micros: null, pnl_source: 'unknown', pnl_note: null });
      }
      const before = slotsAndRows(store);
      expect(before.stored).toEqual(before.summed);
      // The P&L indexes were retargeted, not rebuilt: their entries match the rows.
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');

      // sliceMs 0: one read of the queue (16 rows) per turn, so 101 rows take seven turns.
      const backfill = new RealizedBackfill(store, { sliceMs: 0, onDone: () => seen.push(null) });
      const seen: (BackfillProgress | null)[] = [];
      const done = backfill.start();
      seen.push(backfill.progress());
      for (let i = 0; i < 20 && backfill.progress() !== null; i++) {
        await nextTurn();
        seen.push(backfill.progress());
      }
      await done;
      expect(seen[0]).toEqual({ done: 16, total: settled.length });
      expect(seen.at(-1)).toBeNull();
      expect(backfill.progress()).toBeNull();
      expect(store.settlementRealized.pendingCount()).toBe(0);

      const after = rowsOf(store);
      const held = after.find((r) => r.contract_id === 'EPL-W' && r.type === 'SETTLEMENT');
      // 6 of the 10 bought are left: 2 of the first lot (3.00 / 6 each) and the second (2.60).
      expect(held).toMatchObject({
        pnl_source: 'orders',
        basis_micros: 3_600_000,
        realized_micros: 6_000_000 - 3_600_000,
        pnl_note: null,
      });
      for (const r of after.filter((row) => row.type === 'SETTLEMENT' && row !== held)) {
        expect(r.pnl_source).toBe('unknown');
        expect(r.pnl_note).toMatch(/^None of the orders that bought these \d+ contracts/);
      }
      const worked = slotsAndRows(store);
      expect(worked.stored).toEqual(worked.summed);
    } finally {
      store.close();
    }
  });

  it('goes on where a stopped backfill left off, after a restart', async () => {
    const file = v5File();
    let store = openStore(file);
    const first = new RealizedBackfill(store, { sliceMs: 0 });
    const started = first.start();
    await first.stop();
    await started;
    const from = store.settlementRealized.backfillFrom();
    expect(from).toBeGreaterThan(0);
    const left = rowsOf(store).filter((r) => r.type === 'SETTLEMENT' && r.pnl_note === null);
    expect(left.length).toBeGreaterThan(0);
    store.close();

    store = openStore(file);
    try {
      expect(store.settlementRealized.backfillFrom()).toBe(from);
      await new RealizedBackfill(store, { sliceMs: 0 }).start();
      expect(store.settlementRealized.backfillFrom()).toBeNull();
      const settled = rowsOf(store).filter((r) => r.type === 'SETTLEMENT');
      expect(settled.filter((r) => r.pnl_source === 'unknown' && r.pnl_note === null)).toEqual([]);
      const worked = slotsAndRows(store);
      expect(worked.stored).toEqual(worked.summed);
    } finally {
      store.close();
    }
  });

  it('works the rows out on a worker thread with its own connection, as the app runs it', async () => {
    const store = openStore(v5File());
    try {
      const seen: (BackfillProgress | null)[] = [];
      let done = 0;
      const backfill = new BackfillWorker({ store, sliceMs: 0, onDone: () => done++ });
      const finished = backfill.start();
      seen.push(backfill.progress());
      await finished;
      expect(seen[0]).toEqual({ done: 0, total: 101 });
      expect(done).toBe(1);
      expect(backfill.progress()).toBeNull();
      expect(store.settlementRealized.backfillFrom()).toBeNull();
      const held = rowsOf(store).find((r) => r.contract_id === 'EPL-W' && r.type === 'SETTLEMENT');
      expect(held).toMatchObject({ pnl_source: 'orders', realized_micros: 2_400_000 });
      const worked = slotsAndRows(store);
      expect(worked.stored).toEqual(worked.summed);

      // Nothing left: the next start opens no thread and tells no one.
      const again = new BackfillWorker({ store, onDone: () => done++ });
      await again.start();
      expect(done).toBe(1);
    } finally {
      store.close();
    }
  });

  it('keeps the reported columns append-only while the derived figure may be written', () => {
    const store = openStore(v5File());
    try {
      expect(() => store.db.exec("UPDATE settlements SET pnl = '1.00' WHERE id = 1")).toThrow(
        /append-only/,
      );
      expect(() =>
        store.db.exec("UPDATE settlements SET pnl_note = 'x' WHERE id = 1"),
      ).not.toThrow();
    } finally {
      store.close();
    }
  });
});
