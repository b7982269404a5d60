/**
 * An alert raised while the store cannot take it (a full disk) is not lost: it is announced as
 * any other (alert:raised, the list, the unread count), kept in memory, and written to the store
 * once, under its dedup key, when there is room again (docs/data.md). A real store file, filled
 * to SQLite's own page limit (`PRAGMA max_page_count`, a real SQLITE_FULL), then given room.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KnockoutAlertEvent } from '../../../src/main/alerts/index.js';
import { AlertRecorder } from '../../../src/main/alerts/recorder.js';
import { AlertCentre, type Emit } from '../../../src/main/desk/alert-centre.js';
import type { Store } from '../../../src/main/store/index.js';
import { TypedEmitter } from '../../../src/main/sync/emitter.js';
import type {
  FixturesChangedEvent,
  OrdersChangedEvent,
  PositionsSyncedEvent,
} from '../../../src/main/sync/events.js';
import type { IpcEvent, IpcEventPayload } from '../../../src/shared/ipc/contract.js';
import { order, tempStore } from '../store/support.js';

let done = () => {};
afterEach(() => done());

/** Fills the store to its page limit: the next alert finds no room (SQLITE_FULL). */
function fillDisk(store: Store, otherAccount: number): void {
  store.db.pragma(`max_page_count = ${store.db.pragma('page_count', { simple: true }) as number}`);
  const insert = store.db.prepare(
    `INSERT INTO alerts (account_id, kind, contract_id, outcome, message, dedup_key, created_at)
     VALUES (?, 'near', 'EPL-FILL', 'ARS', ?, ?, 1)`,
  );
  for (let i = 0; ; i++) {
    try {
      insert.run(otherAccount, `filler ${i}`, `fill|${i}`);
    } catch {
      return;
    }
  }
}

function giveRoom(store: Store): void {
  store.db.pragma('max_page_count = 1073741823');
}

const storedRows = (store: Store, accountId: number) =>
  store.db
    .prepare('SELECT id, kind, dedup_key AS dedupKey FROM alerts WHERE account_id = ?')
    .all(accountId) as { id: number; kind: string; dedupKey: string }[];

function fullStore() {
  const t = tempStore();
  done = () => {
    giveRoom(t.store);
    t.done();
  };
  const other = t.store.accounts.create({
    label: 'other',
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'key-other',
  }).id;
  fillDisk(t.store, other);
  return t;
}

describe('an alert on a full disk', () => {
  it('is announced, listed and counted from memory, then written once when there is room', () => {
    const { store, accountId } = fullStore();
    const events: { event: IpcEvent; payload: unknown }[] = [];
    const emit: Emit = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) =>
      events.push({ event, payload });
    const watch = new TypedEmitter<{ 'alert:knockout': KnockoutAlertEvent }>();
    const engine = new TypedEmitter<{
      'orders:changed': OrdersChangedEvent;
      'positions:synced': PositionsSyncedEvent;
      'fixtures:changed': FixturesChangedEvent;
    }>();
    const centre = new AlertCentre({
      store,
      accountId,
      bridgeId: String(accountId),
      label: 'Live',
      watch: Object.assign(watch, { configure: () => {} }),
      engine,
      emit,
    });
    centre.start();
    const filled = order(1, { status: 'FILLED' });
    // The disk is full: no alert row can be written (a real SQLITE_FULL).
    expect(storedRows(store, accountId)).toEqual([]);

    engine.emit('orders:changed', {
      accountId,
      orders: [filled],
      cursor: 1,
      initial: false,
      at: 2,
    });

    const raised = events.filter((e) => e.event === 'alert:raised');
    expect(raised).toHaveLength(1);
    const shown = raised[0]!.payload as IpcEventPayload<'alert:raised'>;
    expect(shown.alert).toMatchObject({ kind: 'filled', orderId: filled.orderId, read: false });
    expect(shown.summary.unread).toBe(1);
    expect(centre.list({ limit: 50, offset: 0 }).alerts.map((a) => a.orderId)).toEqual([
      filled.orderId,
    ]);
    expect(storedRows(store, accountId)).toEqual([]);
    expect(store.alerts.heldCount).toBe(1);

    // The same order again while still full: not a second alert.
    engine.emit('orders:changed', {
      accountId,
      orders: [filled],
      cursor: 2,
      initial: false,
      at: 3,
    });
    expect(events.filter((e) => e.event === 'alert:raised')).toHaveLength(1);

    // Room again: the next sync pass writes it, once.
    giveRoom(store);
    engine.emit('positions:synced', { accountId, changed: false, at: 4 });
    expect(storedRows(store, accountId)).toEqual([
      { id: expect.any(Number) as number, kind: 'filled', dedupKey: `filled|${filled.orderId}` },
    ]);
    expect(store.alerts.heldCount).toBe(0);
    const listed = centre.list({ limit: 50, offset: 0 });
    expect(listed.total).toBe(1);
    expect(listed.summary.unread).toBe(1);
    // Marked read by the id it was shown with, before it was written.
    centre.markRead({ ids: [shown.alert.id] });
    expect(centre.summary().unread).toBe(0);

    // Later updates of the same order never raise it again.
    engine.emit('orders:changed', {
      accountId,
      orders: [filled],
      cursor: 3,
      initial: false,
      at: 5,
    });
    expect(events.filter((e) => e.event === 'alert:raised')).toHaveLength(1);
    expect(storedRows(store, accountId)).toHaveLength(1);
    centre.stop();
  });

  it('from the knockout watch is emitted, and written by the next alert that finds room', () => {
    const { store, accountId } = fullStore();
    const emitted: KnockoutAlertEvent[] = [];
    const recorder = new AlertRecorder({ store, accountId, now: () => 10, logger: console }, (e) =>
      emitted.push(e),
    );
    const near = {
      kind: 'near' as const,
      contractId: 'EPL-1',
      outcome: 'ARS',
      level: '0.4000',
      threshold: '0.3800',
      message: 'ARS is 5% from its knockout.',
      dedupKey: 'near|EPL-1|ARS|0.05',
    };
    expect(recorder.raise(near, { level: '0.4000', knockout: '0.3800' })).toBeDefined();
    expect(emitted.map((e) => e.kind)).toEqual(['near']);
    expect(recorder.raise(near, { level: '0.4000', knockout: '0.3800' })).toBeUndefined();
    expect(storedRows(store, accountId)).toEqual([]);

    giveRoom(store);
    const out = { ...near, kind: 'knocked_out' as const, dedupKey: 'knocked_out|EPL-1|ARS' };
    recorder.raise(out, { level: '0.3700', knockout: '0.3800' });
    expect(storedRows(store, accountId).map((r) => r.dedupKey)).toEqual([
      'near|EPL-1|ARS|0.05',
      'knocked_out|EPL-1|ARS',
    ]);
    // Now stored, its dedup key holds: never raised twice.
    expect(recorder.raise(near, { level: '0.4000', knockout: '0.3800' })).toBeUndefined();
    expect(emitted.map((e) => e.kind)).toEqual(['near', 'knocked_out']);
  });
});
