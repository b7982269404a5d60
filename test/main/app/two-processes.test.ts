/**
 * The CLI beside the app on one store file: the app's services (this process, its live account
 * syncing and placing) and real CLI processes (`order`, `sync --once`) write the same file at
 * once against one sandbox, while a backup is taken. Afterwards the file is sound, every order
 * the exchange holds is in it exactly once, no intent is lost, and nobody saw SQLITE_BUSY.
 * Needs the keychain: `bash build/test.sh test/main/app/two-processes.test.ts`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { STORE_FILE } from '../../../src/main/data/store-file.js';
import { backupStore } from '../../../src/main/store/backup.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { bundle, root, type Runnable } from '../trading/bundle.js';
import { AppHarness, marketBet } from './support.js';

const app = new AppHarness('two-processes');
let sandbox: Sandbox;
let cli: Runnable;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  cli = await bundle('src/main/cli/index.ts', 'betdesk-cli-two');
});
afterAll(async () => {
  await app.cleanup();
  await sandbox.close();
  cli.remove();
});

interface Run {
  code: number | null;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const base: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BETDESK_')) base[k] = v;
    const child = spawn(cli.file, [...cli.args, ...args], {
      cwd: root,
      env: { ...base, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

it('the app and the CLI write one store at once and it stays whole', async () => {
  const key = await sandbox.newAccount('trade');
  const f = await sandbox.openFixture();
  const { services } = await app.start();
  const live = await services.call('accounts:add', {
    label: 'Live desk',
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: key.secret,
  });
  await services.call('accounts:switch', { accountId: live.id });
  const file = path.join(app.dir, STORE_FILE);
  const env = {
    BETDESK_API_KEY: key.apiKey,
    BETDESK_API_SECRET: key.secret,
    BETDESK_BASE_URL: sandbox.url,
  };
  const bet = ['--contract', f.contractId, '--outcome', f.homeTeam, '--side', 'BUY'];
  const cliOrder = (id: string) =>
    runCli(
      ['order', ...bet, '--qty', '2', '--unit', 'BASE', '--client-order-id', id, '--db', file],
      env,
    );

  const cliIds = Array.from({ length: 3 }, (_, p) => [`cli-${p}-a`, `cli-${p}-b`]);
  const appIds = Array.from({ length: 8 }, (_, i) => `app-${i}`);
  const [cliRuns, syncRuns, appRows, backup] = await Promise.all([
    // Three CLI processes, each placing two orders one after the other.
    Promise.all(cliIds.map(async ([a, b]) => [await cliOrder(a!), await cliOrder(b!)])),
    // Syncs by the CLI too, while everyone writes.
    Promise.all([0, 1].map(() => runCli(['sync', '--once', '--db', file], env))),
    // The app places its own, one after the other, as a user does.
    (async () => {
      const rows = [];
      for (const id of appIds) {
        rows.push((await services.call('order:place', marketBet(f, { clientOrderId: id }))).row);
      }
      return rows;
    })(),
    // And the day's backup is taken meanwhile.
    backupStore(file, path.join(app.dir, 'backups'), { pagesPerStep: 1 }),
  ]);

  for (const run of [...cliRuns.flat(), ...syncRuns]) {
    expect(run.stderr).not.toMatch(/SQLITE_BUSY|database is locked/i);
    expect(run.code, run.stderr).toBe(0);
  }
  expect(appRows.every((r) => r.orderId !== undefined)).toBe(true);

  // The exchange's orders of the wallet, all reached the store by one path or another.
  const held = sandbox.domain.listOrders(key.wallet, { limit: 1000 }).orders;
  expect(held).toHaveLength(appIds.length + cliIds.flat().length);
  const accountId = Number(live.id);
  await expect
    .poll(
      () =>
        held.every((o) => services.store.orders.getByOrderId(accountId, o.orderId) !== undefined),
      { timeout: 30_000, interval: 200 },
    )
    .toBe(true);
  await app.stop(services);

  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db
      .prepare('SELECT order_id, client_order_id FROM orders WHERE account_id = ?')
      .all(accountId) as { order_id: string; client_order_id: string }[];
    // Exactly once each: no order twice, none missing, none the exchange does not hold.
    expect(rows.map((r) => r.order_id).sort()).toEqual(held.map((o) => o.orderId).sort());
    expect(new Set(rows.map((r) => r.client_order_id)).size).toBe(rows.length);
    const intents = db
      .prepare('SELECT client_order_id, state FROM order_intents WHERE account_id = ?')
      .all(accountId) as { client_order_id: string; state: string }[];
    // No intent lost: every order placed by either process has its intent, matched.
    expect(intents.map((i) => i.client_order_id).sort()).toEqual(
      [...appIds, ...cliIds.flat()].sort(),
    );
    expect(intents.every((i) => i.state === 'done')).toBe(true);
    // The CLI used the app's account row (the same key), not one of its own.
    expect(db.prepare('SELECT count(*) FROM accounts').pluck().get()).toBe(2);
  } finally {
    db.close();
  }
  const copy = new Database(backup.file, { readonly: true });
  expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
  copy.close();
}, 120_000);
