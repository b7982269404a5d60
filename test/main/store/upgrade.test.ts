/**
 * A version-1 database with real rows in every table, brought to version 2 (the settings table)
 * and then opened as the current store: every row is kept as it was, the new table and columns
 * are there, and the repositories read the old rows back.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, STORE_SCHEMA_VERSION } from '../../../src/main/store/index.js';
import { migrations, runMigrations } from '../../../src/main/store/migrations/index.js';
import { SettingsRepo } from '../../../src/main/store/repos/settings.js';
import type { Order, Settlement } from '../../../src/shared/api/schemas.js';
import { toMicros } from '../../../src/shared/money.js';
import { insertOldSettlements } from './old-rows.js';
import { fixture, order, position, settlement, tempDir } from './support.js';

let cleanup = () => {};
afterEach(() => cleanup());

const V1_TABLES = [
  'accounts',
  'alerts',
  'fixtures',
  'order_intents',
  'orders',
  'position_snapshots',
  'settlement_day_counts',
  'settlements',
  'sync_cursors',
] as const;

/** Orders as version 1 stored them: one bare, one with every optional field. */
const ORDERS: Order[] = [
  order(1),
  order(2, {
    status: 'FILLED',
    side: 'SELL',
    knockout: '0.3012',
    error: { code: -5004, msg: 'congested' },
    proceeds: '12.50',
    rfqId: 'rfq-2',
    orderType: 'FOK',
    boost: 0,
    tx: '0x' + 'ab'.repeat(32),
  }),
  order(3, { status: 'REJECTED', error: { code: -2024, msg: 'reverted' }, boost: 25 }),
];
const SETTLEMENTS: Settlement[] = Array.from({ length: 9 }, (_, i) => settlement(i));

/** Writes the rows with version 1's own SQL, as that app wrote them. */
function populateV1(db: Database.Database): void {
  db.prepare(
    `INSERT INTO accounts (id, label, base_url, api_key, permission, wallet, is_paper, created_at)
     VALUES (1, 'live', 'https://x.example', 'key-1', 'trade', ?, 0, 1), (2, 'paper', 'http://127.0.0.1:9', 'key-2', 'read', NULL, 1, 2)`,
  ).run('0x' + '1'.repeat(40));
  const insertOrder = db.prepare(
    `INSERT INTO orders (account_id, order_id, client_order_id, contract_id, outcome, side, status,
       contracts, entry_price, cost, max_win, knockout, deadline, tx, error_code, error_msg,
       order_type, market_unit, qty, boost, proceeds, rfq_id, created_at, updated_at)
     VALUES (1, @orderId, @clientOrderId, @contractId, @outcome, @side, @status, @contracts,
       @entryPrice, @cost, @maxWin, @knockout, @deadline, @tx, @errorCode, @errorMsg, @orderType,
       @marketUnit, @qty, @boost, @proceeds, @rfqId, @createdAt, @updatedAt)`,
  );
  for (const o of ORDERS) {
    insertOrder.run({
      ...o,
      knockout: o.knockout ?? null,
      errorCode: o.error?.code ?? null,
      errorMsg: o.error?.msg ?? null,
      proceeds: o.proceeds ?? null,
      rfqId: o.rfqId ?? null,
      error: undefined,
    });
  }
  db.prepare(
    `INSERT INTO order_intents (client_order_id, account_id, params_hash, params_json, state,
       order_id, last_error_code, last_error_msg, created_at, updated_at)
     VALUES ('bd-1', 1, 'h1', '{"request":{"qty":"100"}}', 'done', ?, NULL, NULL, 1, 2),
            ('bd-9', 1, 'h9', '{"request":{"qty":"5"}}', 'unknown', NULL, -1000, 'lost', 3, 4)`,
  ).run(ORDERS[0]!.orderId);
  insertOldSettlements(db, SETTLEMENTS);
  const p = position('EPL-1', 'ARS');
  db.prepare(
    `INSERT INTO position_snapshots (account_id, contract_id, outcome, contracts, entry_price,
       estimated_closing_price, boosted, cost_basis, value, pnl, pnl_percent, max_payout,
       knockout, updated_at, snapshot_at)
     VALUES (1, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, 5)`,
  ).run(
    p.contractId,
    p.outcome,
    p.contracts,
    p.entryPrice,
    p.estimatedClosingPrice,
    p.costBasis,
    p.value,
    p.pnl,
    p.pnlPercent,
    p.maxPayout,
    p.knockout ?? null,
    p.updatedAt,
  );
  const f = fixture('EPL-1', { league: 'Premier League', winner: 'ARS', status: 'RESOLVED' });
  db.prepare(
    `INSERT INTO fixtures (contract_id, league, home_team, away_team, starts_at, betting_open,
       status, home_price, away_price, winner, lot_size, min_contracts, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, 6)`,
  ).run(
    f.contractId,
    f.league,
    f.homeTeam,
    f.awayTeam,
    f.startsAt,
    f.status,
    f.homePrice,
    f.awayPrice,
    f.winner ?? null,
    f.lotSize,
    f.minContracts,
  );
  db.prepare(
    `INSERT INTO sync_cursors (account_id, stream, cursor, last_sync_at)
     VALUES (1, 'orders', 1700000003000, 7), (1, 'positions', 0, 8)`,
  ).run();
  db.prepare(
    `INSERT INTO alerts (account_id, kind, contract_id, outcome, level, threshold, message,
       dedup_key, created_at)
     VALUES (1, 'near', 'EPL-1', 'ARS', '0.35', '0.3012', 'ARS is near its knockout.', 'n1', 9),
            (1, 'knocked_out', 'EPL-1', 'ARS', '0.30', '0.3012', 'ARS was knocked out.', 'k1', 10)`,
  ).run();
}

/** Every row of the version-1 tables, in a fixed order. */
function rowsOf(db: Database.Database): Record<string, unknown[]> {
  return Object.fromEntries(
    V1_TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]),
  );
}

function v1File(): { file: string; before: Record<string, unknown[]> } {
  const t = tempDir();
  cleanup = t.cleanup;
  const file = path.join(t.dir, 'betdesk.sqlite');
  const db = new Database(file);
  expect(runMigrations(db, migrations.slice(0, 1))).toEqual({ from: 0, to: 1 });
  populateV1(db);
  const before = rowsOf(db);
  db.close();
  // Every table holds something, so "kept" below means something.
  for (const t of V1_TABLES) expect(before[t]!.length, t).toBeGreaterThan(0);
  return { file, before };
}

describe('upgrading a populated version-1 database', () => {
  it('adds the settings table at version 2 and changes no row', () => {
    const { file, before } = v1File();
    const db = new Database(file);
    try {
      expect(runMigrations(db, migrations.slice(0, 2))).toEqual({ from: 1, to: 2 });
      expect(db.pragma('user_version', { simple: true })).toBe(2);
      expect(rowsOf(db)).toEqual(before);
      const settings = new SettingsRepo(db, () => 11);
      expect(settings.get('activeAccount')).toBeUndefined();
      settings.set('activeAccount', '2');
      expect(settings.get('activeAccount')).toBe('2');
    } finally {
      db.close();
    }
  });

  it('opens as the current store with every old row readable and the new columns filled', () => {
    const { file, before } = v1File();
    const store = openStore(file);
    try {
      expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);

      expect(store.accounts.list().map((a) => [a.id, a.label])).toEqual([
        [1, 'live'],
        [2, 'paper'],
      ]);
      for (const o of ORDERS) expect(store.orders.getByOrderId(1, o.orderId)).toEqual(o);
      expect(store.orders.list(1).total).toBe(ORDERS.length);
      expect(store.intents.get('bd-1')).toMatchObject({
        state: 'done',
        orderId: ORDERS[0]!.orderId,
      });
      expect(store.intents.get('bd-9')).toMatchObject({
        state: 'unknown',
        lastErrorCode: -1000,
        params: { request: { qty: '5' } },
      });
      expect(store.positions.list(1)).toMatchObject([position('EPL-1', 'ARS')]);
      expect(store.fixtures.get(1, 'EPL-1')).toMatchObject({ winner: 'ARS', status: 'RESOLVED' });
      expect(store.cursors.get(1, 'orders')).toMatchObject({ cursor: 1700000003000 });

      // Version 3 rebuilt alerts: kept, unread, with no order.
      const alerts = store.alerts.list(1).alerts;
      expect(alerts.map((a) => [a.kind, a.readAt, a.orderId])).toEqual([
        ['knocked_out', null, null],
        ['near', null, null],
      ]);

      // Version 4 added the amounts in micros to every settlement, and kept the day counts.
      const page = store.settlements.query(1, { limit: 100 });
      expect(page.total).toBe(SETTLEMENTS.length);
      const micros = store.db
        .prepare('SELECT pnl, pnl_micros, payout, payout_micros FROM settlements')
        .raw(true)
        .all() as [string | null, number | null, string | null, number | null][];
      for (const [pnl, pnlMicros, payout, payoutMicros] of micros) {
        expect(pnlMicros).toBe(pnl === null ? null : toMicros(pnl));
        expect(payoutMicros).toBe(payout === null ? null : toMicros(payout));
      }
      expect(
        store.db.prepare('SELECT * FROM settlement_day_counts ORDER BY 1, 2, 3').all(),
      ).toEqual(before['settlement_day_counts']);

      expect(store.settings.get('activeAccount')).toBeUndefined();
      store.settings.set('activeAccount', '1');
      expect(store.settings.get('activeAccount')).toBe('1');
    } finally {
      store.close();
    }
  });
});
