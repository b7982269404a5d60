/**
 * The upgrade to realized P&L (migration 006, docs/pnl.md) on a year of history: a version-5
 * store with 1,000,000 settlements (settlement-seed.ts) and a FILLED buy on every outcome of
 * every fixture, then migration 006 as the app runs it, then the backfill that works out the
 * SETTLEMENT rows on its worker thread while main's event loop is watched. Prints the times;
 * one run. `--profile` also times each statement the migrations run.
 *
 *   npx tsx bench/realized-upgrade.ts [rows] [--profile]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BackfillWorker } from '../src/main/pnl/backfill-worker.js';
import { openWriter, type Db } from '../src/main/store/connection.js';
import { Store } from '../src/main/store/index.js';
import { migrations, runMigrations } from '../src/main/store/migrations/index.js';
import { SEED_ROWS, seedSettlements } from './settlement-seed.js';

const args = process.argv.slice(2);
const profile = args.includes('--profile');
const rows = Number(args.find((a) => a !== '--profile') ?? SEED_ROWS);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'betdesk-realized-'));
const file = path.join(dir, 'betdesk.sqlite');

try {
  let db = openWriter(file);
  runMigrations(db, migrations.slice(0, 5));
  db.exec(`INSERT INTO accounts (id, label, base_url, api_key, created_at)
    VALUES (1, 'bench', 'https://x.example', 'k', 0)`);
  const v5 = new Store(file, db);
  const seeded = seedSettlements(v5, 1, rows);
  // One filled buy per outcome of every fixture, an hour before kick-off.
  db.exec(`
    INSERT INTO orders (account_id, order_id, client_order_id, contract_id, outcome, side,
      status, contracts, entry_price, cost, max_win, deadline, tx, order_type, market_unit, qty,
      boost, created_at, updated_at)
    SELECT 1, printf('0x%s%d', lower(hex(contract_id)), side), printf('bd-%s-%d', contract_id, side), contract_id,
      CASE side WHEN 0 THEN home_team ELSE away_team END, 'BUY', 'FILLED', 50, '0.5000',
      '25.00', '25.00', 0, '0x1', 'MARKET', 'BASE', '50', 0, starts_at - 3600000,
      starts_at - 3600000
    FROM fixtures, (SELECT 0 AS side UNION ALL SELECT 1) WHERE account_id = 1`);
  const orders = db.prepare('SELECT count(*) FROM orders').pluck().get() as number;
  db.close();
  console.log(`seeded ${seeded.rows} settlements, ${orders} orders (${Math.round(seeded.ms)} ms)`);

  const t0 = performance.now();
  db = openWriter(file);
  runMigrations(profile ? timedStatements(db) : db);
  const migrated = performance.now() - t0;
  console.log(`migration 006: ${(migrated / 1000).toFixed(1)} s`);

  const store = new Store(file, db);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const t1 = performance.now();
  // As the app runs it: on a worker thread with its own connection (backfill-worker.ts).
  const backfill = new BackfillWorker({ store });
  const total = store.settlementRealized.pendingCount();
  await backfill.start();
  const backfilled = performance.now() - t1;
  delay.disable();
  const bySource = db
    .prepare("SELECT pnl_source, count(*) FROM settlements WHERE type = 'SETTLEMENT' GROUP BY 1")
    .raw(true)
    .all();
  console.log(
    `backfill: ${total} SETTLEMENT rows in ${(backfilled / 1000).toFixed(1)} s; ` +
      `event-loop delay max ${(delay.max / 1e6).toFixed(1)} ms, p99 ` +
      `${(delay.percentile(99) / 1e6).toFixed(1)} ms; by source ${JSON.stringify(bySource)}`,
  );
  console.log(`whole upgrade: ${((migrated + backfilled) / 1000).toFixed(1)} s`);
  store.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * The connection with each statement of an exec() run and timed on its own, printed: which part
 * of a migration costs what. Splits on `;` outside a trigger's BEGIN ... END.
 */
function timedStatements(db: Db): Db {
  const statements = (sql: string): string[] => {
    const out: string[] = [];
    let current = '';
    for (const part of sql.replace(/--[^\n]*/g, '').split(';')) {
      current += `${part};`;
      if (/\bBEGIN\b/.test(current) && !/\bEND\s*;\s*$/.test(current)) continue;
      if (current.trim() !== ';') out.push(current.trim());
      current = '';
    }
    return out;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'exec') {
        return (sql: string) => {
          for (const statement of statements(sql)) {
            const t = performance.now();
            target.exec(statement);
            const ms = performance.now() - t;
            if (ms >= 1) {
              const text = statement.replace(/\s+/g, ' ').slice(0, 80);
              console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${text}`);
            }
          }
          return target;
        };
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function'
        ? (...a: unknown[]): unknown => (value as (...b: unknown[]) => unknown).apply(target, a)
        : value;
    },
  });
}
