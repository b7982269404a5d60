/**
 * A full disk during sync (issue 9, "A store that survives accidents"): the batch that could not
 * be written is rolled back with its cursor, the engine says so in words and retries with its
 * backoff, and once there is room it catches up from the cursor it had, so every order and
 * settlement the exchange holds ends up stored once, and the store passes its integrity check.
 *
 * Two ways to fill the disk: SQLite's own page limit (`PRAGMA max_page_count`, which fails a
 * write with SQLITE_FULL) in this process, and a file-size limit (test/harness/file-size-limit.ts)
 * on a child process that syncs into a real store file over HTTP; the limit is then lifted on
 * the running child, as freeing space would.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { SyncEngine, type HistorySweepProgress } from '../../../src/main/sync/index.js';
import { liftFileSizeLimit, spawnWithFileSizeLimit } from '../../harness/file-size-limit.js';
import type { Program } from '../../harness/processes.js';
import { bundle, type Runnable } from '../trading/bundle.js';
import { makeHistory } from './history-maker.js';
import {
  canonicalRows,
  exchangeSettlements,
  newHistoryAccount,
  startWorld,
  storedSettlements,
  until,
  type HistoryAccount,
  type World,
} from './helpers.js';

const ORDERS_FULL =
  'The disk is full: Betdesk could not save the latest orders. It will sync again when there ' +
  'is room; nothing on the exchange is lost.';
const STREAM_FULL =
  /^The disk is full: Betdesk could not save the latest (orders|settlements)\. It will sync again when there is room; nothing on the exchange is lost\.$/;
const HISTORY_FULL =
  'The disk is full: Betdesk could not save the history it read. It will sync again when ' +
  'there is room; nothing on the exchange is lost.';

const RESYNC_FULL =
  'The disk is full: Betdesk could not save the history it read. The resync carries on when ' +
  'there is room; nothing on the exchange is lost.';

let world: World;

beforeAll(async () => {
  world = await startWorld({ blockMs: 0, rateLimits: false });
});

afterAll(async () => {
  await world.close();
});

type Account = HistoryAccount;
const accountWithHistory = (orders: number) => newHistoryAccount(world.sandbox, orders);

/** "orderId status updatedAt" of every order, sorted: equal lists mean nothing lost or doubled. */
function exchangeOrders(wallet: string): string[] {
  const { orders } = world.sandbox.domain.orderUpdates(wallet, undefined);
  return orders.map((o) => `${o.orderId} ${o.status} ${o.updatedAt}`).sort();
}

function storedOrders(store: Store, accountId: number): string[] {
  const rows = store.db
    .prepare('SELECT order_id, status, updated_at FROM orders WHERE account_id = ?')
    .all(accountId) as { order_id: string; status: string; updated_at: number }[];
  return rows.map((r) => `${r.order_id} ${r.status} ${r.updated_at}`).sort();
}

/** The wallet's settlement rows on the exchange and in the store, comparable. */
const exchangeRows = (wallet: string) =>
  canonicalRows(exchangeSettlements(world.sandbox.domain, wallet));
const storedRows = (store: Store, accountId: number) =>
  canonicalRows(storedSettlements(store, accountId));

/** The account's orders and settlements synced into its store, retrying quickly. */
function engineFor(a: Account): SyncEngine {
  return new SyncEngine({
    client: a.client,
    store: a.db.store,
    accountId: a.db.accountId,
    streams: ['orders', 'settlements'],
    backoff: { initialMs: 20, maxMs: 100 },
  });
}

function quickCheck(store: Store): unknown {
  return store.db.pragma('quick_check', { simple: true });
}

describe('a full disk during sync', () => {
  it('says so in words, retries, and catches up once there is room: nothing lost, nothing doubled', async () => {
    const a = await accountWithHistory(300);
    const { store } = a.db;
    // Room for a few pages more than the empty store holds: not for 300 orders.
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    store.db.pragma(`max_page_count = ${pages + 8}`);
    const engine = engineFor(a);
    const errors: (string | null)[] = [];
    engine.on('sync:status', (s) => errors.push(s.lastError));
    const sweeps: HistorySweepProgress[] = [];
    engine.on('history:progress', (p) => sweeps.push(p));
    world.requests.reset();

    engine.start();
    await until(
      'the first sync has failed three times',
      () => sweeps.filter((p) => p.state === 'failed').length >= 3,
    );
    expect(engine.status()).toMatchObject({ state: 'error' });
    expect(engine.status().lastError).toMatch(STREAM_FULL);
    expect(sweeps.find((p) => p.state === 'failed')?.message).toBe(HISTORY_FULL);
    expect(errors.filter((e) => e !== null && !STREAM_FULL.test(e))).toEqual([]);
    // Nothing half-written: the cursor did not move, and no order is stored.
    expect(store.cursors.get(a.db.accountId, 'orders')).toBeUndefined();
    expect(storedOrders(store, a.db.accountId)).toEqual([]);

    // Orders placed while the disk is full are caught up too.
    await makeHistory(world.sandbox.domain, a.wallet, 40);
    store.db.pragma('max_page_count = 1073741823');
    await until(
      'the sync caught up',
      () =>
        engine.status().state === 'idle' &&
        engine.historyProgress()?.state === 'done' &&
        storedOrders(store, a.db.accountId).length === exchangeOrders(a.wallet).length,
    );
    await engine.stop();

    expect(engine.status().lastError).toBeNull();
    expect(storedOrders(store, a.db.accountId)).toEqual(exchangeOrders(a.wallet));
    expect(storedRows(store, a.db.accountId)).toEqual(exchangeRows(a.wallet));
    expect(quickCheck(a.db.reopen())).toBe('ok');
    await a.close();
  });

  it('keeps the cursor it had while the disk is full, and reads on from it once there is room', async () => {
    const a = await accountWithHistory(100);
    const { store } = a.db;
    const engine = engineFor(a);
    await engine.syncNow();
    const cursor = store.cursors.get(a.db.accountId, 'orders')?.cursor;
    expect(cursor).toBeDefined();

    await makeHistory(world.sandbox.domain, a.wallet, 300);
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    store.db.pragma(`max_page_count = ${pages + 4}`);
    await expect(engine.syncNow('orders')).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(engine.status()).toMatchObject({ state: 'error', lastError: ORDERS_FULL });
    expect(store.cursors.get(a.db.accountId, 'orders')?.cursor).toBe(cursor);
    // A resync the user asked for carries on by itself once there is room.
    await expect(engine.resyncHistory()).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(engine.historyProgress()).toMatchObject({ state: 'failed', message: RESYNC_FULL });

    store.db.pragma('max_page_count = 1073741823');
    await engine.syncNow();
    await engine.stop();
    expect(engine.status().lastError).toBeNull();
    expect(storedOrders(store, a.db.accountId)).toEqual(exchangeOrders(a.wallet));
    expect(storedRows(store, a.db.accountId)).toEqual(exchangeRows(a.wallet));
    await a.close();
  });
});

/** A child syncing under a file-size limit; its stdout as JSON lines. */
interface Child {
  program: Program;
  lines: Record<string, unknown>[];
  /** Lines that are not JSON: a stack trace would land here. */
  other: string[];
}

describe('a full disk during sync, in a child process with a file-size limit', () => {
  let command: Runnable;
  let child: Child | undefined;

  beforeAll(async () => {
    command = await bundle('test/main/sync/fixtures/sync-child.ts', 'betdesk-sync-child');
  });

  afterAll(async () => {
    await child?.program.stop(2000);
    command.remove();
  });

  function start(env: Record<string, string>, limitBytes: number): Child {
    const program = spawnWithFileSizeLimit(limitBytes, command.file, command.args, { env });
    const c: Child = { program, lines: [], other: [] };
    const lines = readline.createInterface({ input: program.child.stdout! });
    lines.on('line', (line) => {
      try {
        c.lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        c.other.push(line);
      }
    });
    return c;
  }

  const saw = (c: Child, test: (l: Record<string, unknown>) => boolean) => c.lines.some(test);

  it('reports the full disk, keeps retrying, and after the limit is lifted the store holds every order once', async () => {
    const a = await accountWithHistory(200);
    // The first sync fits; then the store is closed, so the child starts with no WAL.
    const first = engineFor(a);
    await first.syncOnce();
    await first.stop();
    a.db.store.close();
    const size = fs.statSync(a.db.file).size;
    // Room for the WAL of a few small writes; 1500 orders in one batch need far more.
    const limit = size + 256 * 1024;
    await makeHistory(world.sandbox.domain, a.wallet, 1500);

    world.requests.reset();
    child = start(
      {
        BETDESK_CHILD_DB: a.db.file,
        BETDESK_CHILD_URL: world.sandbox.url,
        BETDESK_CHILD_KEY: a.key.apiKey,
        BETDESK_CHILD_SECRET: a.key.secret,
        BETDESK_CHILD_WALLET: a.key.wallet,
        BETDESK_CHILD_ACCOUNT: String(a.db.accountId),
      },
      limit,
    );
    const c = child;
    await until(
      'the child reports the full disk',
      () => saw(c, (l) => l.event === 'status' && l.lastError === ORDERS_FULL),
      30_000,
    );
    // Orders placed while the disk is full must not be skipped either.
    await makeHistory(world.sandbox.domain, a.wallet, 30);
    const failedPolls = world.requests.count('GET /orders/updates');
    await until(
      'the child retried three times more',
      () => world.requests.count('GET /orders/updates') >= failedPolls + 3,
    );
    expect(fs.statSync(`${a.db.file}-wal`).size).toBeLessThanOrEqual(limit);
    expect(c.lines.filter((l) => l.event === 'orders')).toEqual([]);

    // Room again: the limit goes, as if the user freed some space.
    liftFileSizeLimit(c.program.child.pid!);
    const seen = c.lines.length;
    const wanted = exchangeOrders(a.wallet).length;
    const reader = new Database(a.db.file, { readonly: true });
    try {
      await until(
        'the child caught up',
        () =>
          c.lines
            .slice(seen)
            .some((l) => l.event === 'status' && l.state === 'idle' && l.lastError === null) &&
          (reader.prepare('SELECT count(*) FROM orders').pluck().get() as number) === wanted,
        30_000,
      );
    } finally {
      reader.close();
    }
    c.program.signal('SIGTERM');
    const exit = await c.program.exited;
    child = undefined;

    expect(exit.code, c.program.stderr()).toBe(0);
    expect(c.program.stderr()).toBe('');
    expect(c.other).toEqual([]);
    expect(c.lines.at(-1)).toEqual({ event: 'closed' });
    // Every error it reported was the full disk, said in words.
    const reported = c.lines.filter((l) => l.event === 'status' && l.lastError !== null);
    expect(reported.length).toBeGreaterThan(0);
    for (const l of reported) expect(l.lastError).toMatch(/^The disk is full: Betdesk could/);

    const store = openStore(a.db.file);
    try {
      expect(quickCheck(store)).toBe('ok');
      expect(storedOrders(store, a.db.accountId)).toEqual(exchangeOrders(a.wallet));
      expect(storedRows(store, a.db.accountId)).toEqual(exchangeRows(a.wallet));
    } finally {
      store.close();
    }
    await a.close();
  });
});
