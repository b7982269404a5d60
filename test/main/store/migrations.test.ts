import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  NewerSchemaError,
  openStore,
  STORE_SCHEMA_VERSION,
} from '../../../src/main/store/index.js';
import {
  migrations,
  runMigrations,
  type Migration,
} from '../../../src/main/store/migrations/index.js';
import { toMicros } from '../../../src/shared/money.js';
import { insertOldSettlements } from './old-rows.js';
import { fixture, settlement, tempDir } from './support.js';

let cleanup = () => {};
afterEach(() => cleanup());

/** A path in a new temp dir; `nested` puts it in a folder that does not exist yet. */
function freshFile(nested = false): string {
  const t = tempDir();
  cleanup = t.cleanup;
  return path.join(t.dir, ...(nested ? ['nested'] : []), 'betdesk.sqlite');
}

describe('migrations', () => {
  it('create every table on a new file and record the schema version', () => {
    const file = freshFile(true);
    const store = openStore(file);
    expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);
    expect(STORE_SCHEMA_VERSION).toBe(migrations.length);
    const tables = store.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual([
      'accounts',
      'alerts',
      'equity_points',
      'fixtures',
      'guard_log',
      'guard_rules',
      'order_intents',
      'orders',
      'position_cost_basis',
      'position_snapshots',
      'price_buckets',
      'price_points',
      'price_series',
      'realized_backfill',
      'settings',
      'settlement_day_counts',
      'settlement_league_slots',
      'settlement_slots',
      'settlements',
      'sync_cursors',
    ]);
    store.close();
  });

  it('open the database in WAL mode with foreign keys enforced', () => {
    const store = openStore(freshFile());
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    store.close();
  });

  it('reopen an existing database without re-running migrations and keep its data', () => {
    const file = freshFile();
    const first = openStore(file);
    first.accounts.create({ label: 'kept', baseUrl: 'http://x', apiKey: 'k' });
    first.close();
    const again = openStore(file);
    expect(again.schemaVersion).toBe(STORE_SCHEMA_VERSION);
    expect(again.accounts.list().map((a) => a.label)).toEqual(['kept']);
    again.close();
  });

  it('refuse a database written by a newer Betdesk, with a message saying what to do', () => {
    const file = freshFile();
    openStore(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${STORE_SCHEMA_VERSION + 5}`);
    raw.close();

    let caught: unknown;
    try {
      openStore(file);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(NewerSchemaError);
    expect((caught as Error).message).toBe(
      `This database was written by a newer Betdesk (schema ${STORE_SCHEMA_VERSION + 5}, ` +
        `this app knows ${STORE_SCHEMA_VERSION}); update Betdesk or choose another data folder.`,
    );
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(STORE_SCHEMA_VERSION + 5);
    check.close();
  });

  it('roll a failing migration back entirely, leaving the previous version', () => {
    const db = new Database(freshFile());
    const list: Migration[] = [
      { version: 1, up: (d) => d.exec('CREATE TABLE a (x INTEGER)') },
      {
        version: 2,
        up: (d) => {
          d.exec('CREATE TABLE b (x INTEGER)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => runMigrations(db, list)).toThrow('boom');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(['a']);
    db.close();
  });

  it('run only the migrations newer than the file', () => {
    const db = new Database(freshFile());
    const ran: number[] = [];
    const list: Migration[] = [1, 2, 3].map((v) => ({ version: v, up: () => void ran.push(v) }));
    runMigrations(db, list.slice(0, 2));
    expect(runMigrations(db, list)).toEqual({ from: 2, to: 3 });
    expect(ran).toEqual([1, 2, 3]);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    db.close();
  });

  it('reject a migration list with a gap in its numbers', () => {
    const db = new Database(':memory:');
    expect(() => runMigrations(db, [{ version: 2, up: () => {} }])).toThrow(/out of order/);
    db.close();
  });

  it('bring a version-3 file to the history schema, every settlement kept and summed', () => {
    const file = freshFile();
    const db = new Database(file);
    runMigrations(db, migrations.slice(0, 3));
    db.prepare(
      "INSERT INTO accounts (id, label, base_url, api_key, created_at) VALUES (1, 'a', 'x', 'k', 0), (2, 'b', 'x', 'k', 0)",
    ).run();
    const f = fixture('EPL-1', { league: 'Premier League' });
    db.prepare(
      `INSERT INTO fixtures (contract_id, league, home_team, away_team, starts_at, betting_open,
         status, home_price, away_price, lot_size, min_contracts, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, 'OPEN', '0.5', '0.5', 1, 1, 0)`,
    ).run(f.contractId, f.league, f.homeTeam, f.awayTeam, f.startsAt);
    // As version 3 wrote them: the strings only.
    const rows = Array.from({ length: 40 }, (_, i) => settlement(i, {}, 2));
    insertOldSettlements(db, rows, (i) => 1 + (i % 2));
    const before = db.prepare('SELECT * FROM settlements ORDER BY id').all();
    const dayCounts = db.prepare('SELECT * FROM settlement_day_counts ORDER BY 1, 2, 3').all();
    db.close();

    const store = openStore(file);
    expect(store.schemaVersion).toBe(STORE_SCHEMA_VERSION);
    const after = store.db.prepare('SELECT * FROM settlements ORDER BY id').all() as Record<
      string,
      unknown
    >[];
    // 004's micros and 006's realized P&L (docs/pnl.md) are new; the rest is as it was.
    const reported = ({
      pnl_micros: _p,
      payout_micros: _q,
      realized_micros: _r,
      basis_micros: _b,
      pnl_source: _s,
      pnl_note: _n,
      ...r
    }: Record<string, unknown>) => r;
    expect(after.map(reported)).toEqual(before);
    for (const r of after) {
      expect(r['pnl_micros']).toBe(r['pnl'] === null ? null : toMicros(r['pnl'] as string));
      expect(r['payout_micros']).toBe(
        r['payout'] === null ? null : toMicros(r['payout'] as string),
      );
    }
    expect(store.db.prepare('SELECT * FROM settlement_day_counts ORDER BY 1, 2, 3').all()).toEqual(
      dayCounts,
    );
    // The rollups hold every old row, and the league's holds those of the known fixture.
    const summed = (table: string) =>
      store.db
        .prepare(
          `SELECT account_id, sum(n), sum(pnl_sum), sum(payout_sum) FROM ${table} GROUP BY 1`,
        )
        .raw(true)
        .all();
    const want = store.db
      .prepare(
        `SELECT account_id, count(*), sum(pnl_micros), coalesce(sum(payout_micros), 0) FROM settlements GROUP BY 1`,
      )
      .raw(true)
      .all();
    expect(summed('settlement_slots')).toEqual(want);
    expect(store.settlements.count(1, { league: 'premier league' })).toBe(
      rows.filter((s, i) => i % 2 === 0 && s.contractId === 'EPL-1').length,
    );
    // Still append-only, and new rows go on being summed.
    expect(() => store.db.prepare("UPDATE settlements SET pnl = '1'").run()).toThrow(/append-only/);
    store.applySettlements(1, [
      settlement(100, { type: 'CLOSED', pnl: '2.50', payout: undefined }),
    ]);
    expect(store.settlements.count(1)).toBe(21);
    expect(summed('settlement_slots')[0]).toEqual(
      store.db
        .prepare(
          `SELECT account_id, count(*), sum(pnl_micros), coalesce(sum(payout_micros), 0) FROM settlements WHERE account_id = 1`,
        )
        .raw(true)
        .get(),
    );
    store.close();
  });
});
