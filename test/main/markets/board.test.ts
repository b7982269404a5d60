/**
 * The board's saved markets: the fixtures the store held at start are marked as saved until a
 * fixtures sync of the active session has read them, and confirm() says so once.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FixtureBoard } from '../../../src/main/markets/board.js';
import type { Store } from '../../../src/main/store/index.js';
import { fixture, tempStore } from '../store/support.js';

const ALL = { openOnly: false, limit: 20, offset: 0 };

let store: Store;
let accountId: number;
let done: () => void;

beforeEach(() => {
  ({ store, accountId, done } = tempStore());
  store.fixtures.upsertMany(accountId, [fixture('EPL-1')], 1);
  // The last sync of an earlier run.
  store.cursors.set(accountId, 'fixtures', 1, 1_000);
});
afterEach(() => done());

it('marks the stored markets as saved until the session’s first fixtures sync', () => {
  const board = new FixtureBoard(store, accountId);
  expect(board.page(ALL)).toMatchObject({ total: 1, syncedAt: 1_000, saved: true });

  board.show(accountId);
  expect(board.confirm()).toBe(false);
  expect(board.page(ALL).saved).toBe(true);

  // The session's first fixtures sync, with nothing new: the cursor moves all the same.
  store.cursors.set(accountId, 'fixtures', 1, 2_000);
  expect(board.confirm()).toBe(true);
  expect(board.confirm()).toBe(false);
  expect(board.page(ALL)).toMatchObject({ syncedAt: 2_000, saved: false });
});

it('marks them again when another account becomes active, until its own sync', () => {
  const board = new FixtureBoard(store, accountId);
  board.show(accountId);
  store.cursors.set(accountId, 'fixtures', 1, 2_000);
  expect(board.page(ALL).saved).toBe(false);

  board.show(accountId);
  expect(board.page(ALL).saved).toBe(true);
  store.cursors.set(accountId, 'fixtures', 1, 3_000);
  expect(board.page(ALL).saved).toBe(false);
  // Read through the page: nothing left for confirm() to announce.
  expect(board.confirm()).toBe(false);
});

it('a store never synced stays saved until the first sync stores a cursor', () => {
  store.cursors.reset(accountId, 'fixtures');
  const board = new FixtureBoard(store, accountId);
  board.show(accountId);
  expect(board.page(ALL)).toMatchObject({ syncedAt: null, saved: true });
  store.cursors.set(accountId, 'fixtures', 1, 5_000);
  expect(board.confirm()).toBe(true);
});
