/**
 * A full disk when a bet is placed: an order whose intent cannot be recorded is refused before a
 * byte is sent, in words; an order the exchange accepted but whose report cannot be saved is
 * said to stand, and placing it again once there is room finds it instead of placing it twice.
 * The store's writes fail with SQLite's own error for a full disk (SQLITE_FULL), against the
 * real sandbox over HTTP.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toBridgeError } from '../../../src/main/ipc/errors.js';
import { DiskFullError } from '../../../src/main/store/index.js';
import { countRequests, type RequestLog } from '../../harness/requests.js';
import { buy, openDesk, type Desk } from './support.js';

let desk: Desk;
let requests: RequestLog;

beforeAll(async () => {
  desk = await openDesk();
  requests = countRequests(desk.sandbox.app.server);
});

afterAll(async () => {
  requests.detach();
  await desk.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** What better-sqlite3 throws when SQLite finds the disk full. */
function sqliteFull(): Error {
  return new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
}

describe('a full disk when a bet is placed', () => {
  it('refuses the bet before anything is sent when its intent cannot be recorded', async () => {
    const f = await desk.newFixture();
    const bet = { ...buy(f, '3'), clientOrderId: 'disk-full-intent-1' };
    await desk.trading.reconcileOpenIntents();
    requests.reset();
    vi.spyOn(desk.store.intents, 'create').mockImplementation(() => {
      throw sqliteFull();
    });

    const err = await desk.trading.placeOrder(bet).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(DiskFullError);
    expect((err as Error).message).toBe(
      'The disk is full: Betdesk could not record the bet, so it was not sent. Free some space and place it again.',
    );
    expect(toBridgeError(err)).toEqual({ kind: 'disk-full', message: (err as Error).message });
    expect(requests.count('POST /order')).toBe(0);
    expect(desk.trading.intent(bet.clientOrderId)).toBeUndefined();

    // Room again: the same bet is placed, once.
    vi.restoreAllMocks();
    const placed = await desk.trading.placeOrder(bet);
    expect(placed.order?.clientOrderId).toBe(bet.clientOrderId);
    expect(requests.count('POST /order')).toBe(1);
  });

  it('says an accepted order stands when its report cannot be saved, and never places it twice', async () => {
    const f = await desk.newFixture();
    const bet = { ...buy(f, '2'), clientOrderId: 'disk-full-report-1' };
    vi.spyOn(desk.store.orders, 'upsert').mockImplementationOnce(() => {
      throw sqliteFull();
    });

    const err = await desk.trading.placeOrder(bet).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(DiskFullError);
    const exchange = (await desk.exchangeOrders()).filter(
      (o) => o.clientOrderId === bet.clientOrderId,
    );
    expect(exchange).toHaveLength(1);
    expect((err as Error).message).toBe(
      `The disk is full: Betdesk could not save order ${bet.clientOrderId}, which the exchange ` +
        `accepted (order ${exchange[0]!.orderId}). It is saved once there is room; do not place ` +
        'it again.',
    );
    // The intent stays open, so the order is looked up, not sent again.
    expect(desk.trading.intent(bet.clientOrderId)?.state).not.toBe('done');

    const again = await desk.trading.placeOrder(bet);
    expect(again.order?.orderId).toBe(exchange[0]!.orderId);
    expect(
      (await desk.exchangeOrders()).filter((o) => o.clientOrderId === bet.clientOrderId),
    ).toHaveLength(1);
    expect(desk.trading.intent(bet.clientOrderId)?.state).toBe('done');
  });

  it('says a full disk met anywhere else in words, not as an internal error', () => {
    expect(toBridgeError(sqliteFull())).toEqual({
      kind: 'disk-full',
      message:
        'The disk is full: Betdesk could not save the change. Free some space and try again.',
    });
    const efbig = Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG' });
    expect(toBridgeError(new Error('Saving failed.', { cause: efbig }))).toMatchObject({
      kind: 'disk-full',
    });
  });
});
