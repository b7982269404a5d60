/**
 * A resync that resumes (issue 20, "Data that is never silently incomplete"): where an
 * unfinished history sweep stands is kept in the store (src/main/sync/sweep-state.ts), and a
 * resync stopped part-way is carried on by the next engine over the same file, from the page it
 * reached, its progress going on from the numbers it last reported. Against the sandbox over
 * HTTP (rate limits off: the pacing is not what is tested here) with a real SQLite file; the
 * kill of a whole process is test/main/cli/resync-kill.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncEngine, type HistorySweepProgress } from '../../../src/main/sync/index.js';
import {
  clearSweep,
  freshSweep,
  readSweep,
  saveSweep,
  SWEEP_RESUME,
} from '../../../src/main/sync/sweep-state.js';
import {
  canonicalRows,
  exchangeSettlements,
  newHistoryAccount,
  startWorld,
  storedSettlements,
  tempStore,
  until,
  type HistoryAccount,
  type World,
} from './helpers.js';

let world: World;

beforeAll(async () => {
  world = await startWorld({ blockMs: 0, rateLimits: false });
});

afterAll(async () => {
  await world.close();
});

describe('the resume state of a history sweep', () => {
  it('is nothing until a sweep stores where it stands, and nothing again once it is cleared', () => {
    const db = tempStore('resume-state', 'http://127.0.0.1:9');
    try {
      const { store, accountId } = db;
      expect(readSweep(store, accountId)).toBeNull();
      const at = {
        ...freshSweep('resync', 1_700_000_000_000),
        offset: 500,
        ordersRead: true,
        pages: 6,
        added: 321,
        estimatedPages: 14,
      };
      saveSweep(store, accountId, at, 1_700_000_000_500);
      expect(readSweep(store, accountId)).toEqual(at);
      // The same file opened again ("after a restart") remembers it.
      expect(readSweep(db.reopen(), accountId)).toEqual(at);

      // A first sync's state, written over it, is no longer a resync.
      saveSweep(db.store, accountId, { ...at, reason: 'first-sync', ordersRead: false }, 2);
      expect(readSweep(db.store, accountId)).toMatchObject({
        reason: 'first-sync',
        ordersRead: false,
        pages: 6,
      });
      clearSweep(db.store, accountId);
      expect(readSweep(db.store, accountId)).toBeNull();
    } finally {
      db.cleanup();
    }
  });

  it('reads the offset an earlier version left as a first sync counted from that offset', () => {
    const db = tempStore('resume-legacy', 'http://127.0.0.1:9');
    try {
      db.store.cursors.set(db.accountId, SWEEP_RESUME, 450, 1234);
      expect(readSweep(db.store, db.accountId)).toEqual({
        reason: 'first-sync',
        startedAt: 1234,
        offset: 450,
        ordersRead: false,
        pages: 5,
        added: 0,
        estimatedPages: 0,
      });
    } finally {
      db.cleanup();
    }
  });
});

type Account = HistoryAccount;

const storedOrders = (a: Account) => a.db.store.orders.list(a.db.accountId, { limit: 1 }).total;
const storedRows = (a: Account) => canonicalRows(storedSettlements(a.db.store, a.db.accountId));
const exchangeRows = (a: Account) =>
  canonicalRows(exchangeSettlements(world.sandbox.domain, a.wallet));

function engineFor(a: Account): SyncEngine {
  return new SyncEngine({ client: a.client, store: a.db.store, accountId: a.db.accountId });
}

function recordProgress(engine: SyncEngine): HistorySweepProgress[] {
  const seen: HistorySweepProgress[] = [];
  engine.on('history:progress', (p) => seen.push(p));
  return seen;
}

/** Each number of `key` at least the one before it. */
function neverBack(progress: HistorySweepProgress[], key: 'pages' | 'added'): boolean {
  return progress.every((p, i) => i === 0 || p[key] >= progress[i - 1]![key]);
}

/**
 * An account synced once, whose store then lost rows and an order, with a resync stopped
 * after its `stopAt`-th page (the orders read is the first); the progress it reported.
 */
async function resyncStoppedAt(stopAt: number) {
  const a = await newHistoryAccount(world.sandbox, 2000);
  let engine = engineFor(a);
  await engine.syncOnce(); // the first sync
  const lost = a.db.store.db
    .prepare('DELETE FROM settlements WHERE account_id = ? AND id % 5 = 0')
    .run(a.db.accountId).changes;
  a.db.store.db
    .prepare(
      `DELETE FROM orders WHERE account_id = ?
       AND order_id = (SELECT max(order_id) FROM orders WHERE account_id = ?)`,
    )
    .run(a.db.accountId, a.db.accountId);
  const before = recordProgress(engine);
  engine.on('history:progress', (p) => {
    if (p.state === 'running' && p.pages === stopAt) void engine.stop();
  });
  world.requests.reset();
  const resync = engine.resyncHistory().catch((err: unknown) => err);
  await until('the resync is interrupted', () => before.at(-1)?.state === 'interrupted');
  await resync;
  const settlementsRead = world.requests.count('GET /settlements');
  a.db.reopen(); // "a new process over the same file"
  engine = engineFor(a);
  return { a, engine, before, lost, settlementsRead };
}

describe('a resync stopped part-way', () => {
  it('shows where it stood, and a resync asked for carries it on from there, not from page 1', async () => {
    const { a, engine, before, lost, settlementsRead } = await resyncStoppedAt(5);
    const rows = exchangeRows(a);
    const pages = 1 + Math.ceil(rows.length / 100);
    expect(pages).toBeGreaterThan(8);
    const last = before.at(-2)!; // the last page reported before the stop
    expect(last).toMatchObject({ reason: 'resync', state: 'running', pages: 5 });

    // Before anything runs, the new engine shows the resync as it stood.
    expect(engine.historyProgress()).toMatchObject({
      reason: 'resync',
      state: 'interrupted',
      pages: 5,
      added: last.added,
      startedAt: last.startedAt,
    });
    const after = recordProgress(engine);
    world.requests.reset();
    // Asked for again: the same resync, carried on (one, not two).
    const resync = engine.resyncHistory();
    expect(engine.historyProgress()).toMatchObject({ state: 'running', pages: 5 });
    await resync;
    await engine.stop();

    expect(after[0]).toMatchObject({ state: 'running', pages: 5, added: last.added });
    expect(after.at(-1)).toMatchObject({
      reason: 'resync',
      state: 'done',
      pages,
      estimatedPages: pages,
      added: lost + 1,
      startedAt: last.startedAt,
    });
    const running = [...before, ...after].filter((p) => p.state === 'running');
    expect(neverBack(running, 'pages')).toBe(true);
    expect(neverBack(running, 'added')).toBe(true);
    // Four pages read before, the rest now: none read twice, the orders not read again.
    expect(settlementsRead).toBe(4);
    expect(world.requests.count('GET /settlements')).toBe(pages - 1 - 4);
    expect(world.requests.count('GET /orders/updates')).toBe(0);
    expect(storedRows(a)).toEqual(rows);
    expect(storedOrders(a)).toBe(2000);
    expect(readSweep(a.db.store, a.db.accountId)).toBeNull();
    await a.close();
  });

  it('is carried on by the next start by itself, with no resync asked for', async () => {
    const { a, engine, before, lost } = await resyncStoppedAt(3);
    const rows = exchangeRows(a);
    const after = recordProgress(engine);
    world.requests.reset();
    engine.start();
    await until('the resync is done', () => after.at(-1)?.state === 'done');
    await engine.stop();

    expect(after[0]).toMatchObject({ reason: 'resync', state: 'running', pages: 3 });
    expect(after.at(-1)).toMatchObject({ reason: 'resync', added: lost + 1 });
    const running = [...before, ...after].filter((p) => p.state === 'running');
    expect(neverBack(running, 'pages')).toBe(true);
    expect(neverBack(running, 'added')).toBe(true);
    expect(storedRows(a)).toEqual(rows);
    expect(storedOrders(a)).toBe(2000);
    // Done: the next start is an ordinary one.
    expect(readSweep(a.db.store, a.db.accountId)).toBeNull();
    await a.close();
  });
});
