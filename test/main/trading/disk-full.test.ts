/**
 * A full disk, or an I/O error on a disk with room, when a bet is placed: an order whose intent
 * cannot be recorded is refused before a byte is sent, in words; an order the exchange accepted
 * but whose report cannot be saved is said to stand, and placing it again once the store can
 * write finds it instead of placing it twice. The store's writes fail with SQLite's own errors
 * (SQLITE_FULL; SQLITE_IOERR_WRITE, worded as an I/O error while the temp folder has room:
 * docs/data.md), against the real sandbox over HTTP.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toBridgeError } from '../../../src/main/ipc/errors.js';
import { DiskFullError, IoError } from '../../../src/main/store/index.js';
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

const IO_ERROR =
  'Betdesk could not write to its store: the disk reported an input/output error ' +
  '(SQLITE_IOERR_WRITE).';

/** The two ways the store refuses a write, and how each is said. */
const FAULTS = [
  {
    name: 'a full disk',
    id: 'disk-full',
    error: sqliteFull,
    errorClass: DiskFullError,
    notRecorded:
      'The disk is full: Betdesk could not record the bet, so it was not sent. Free some space and place it again.',
    notSaved: (clientOrderId: string, orderId: string) =>
      `The disk is full: Betdesk could not save order ${clientOrderId}, which the exchange ` +
      `accepted (order ${orderId}). It is saved once there is room; do not place it again.`,
  },
  {
    name: 'an I/O error on a disk with room',
    id: 'io-error',
    error: () => new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE'),
    errorClass: IoError,
    notRecorded: `${IO_ERROR} The bet was not recorded, so it was not sent; nothing else changed. Check the disk, then place it again.`,
    notSaved: (clientOrderId: string, orderId: string) =>
      `${IO_ERROR} Order ${clientOrderId}, which the exchange accepted (order ${orderId}), was ` +
      'not saved; its intent is kept, so the next sync saves it. Do not place it again.',
  },
] as const;

describe.each(FAULTS)('$name when a bet is placed', (fault) => {
  it('refuses the bet before anything is sent when its intent cannot be recorded', async () => {
    const f = await desk.newFixture();
    const bet = { ...buy(f, '3'), clientOrderId: `${fault.id}-intent-1` };
    await desk.trading.reconcileOpenIntents();
    requests.reset();
    vi.spyOn(desk.store.intents, 'create').mockImplementation(() => {
      throw fault.error();
    });

    const err = await desk.trading.placeOrder(bet).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(fault.errorClass);
    expect((err as Error).message).toBe(fault.notRecorded);
    expect(toBridgeError(err)).toEqual({ kind: fault.id, message: (err as Error).message });
    expect(requests.count('POST /order')).toBe(0);
    expect(desk.trading.intent(bet.clientOrderId)).toBeUndefined();

    // The store writes again: the same bet is placed, once.
    vi.restoreAllMocks();
    const placed = await desk.trading.placeOrder(bet);
    expect(placed.order?.clientOrderId).toBe(bet.clientOrderId);
    expect(requests.count('POST /order')).toBe(1);
  });

  it('says an accepted order stands when its report cannot be saved, and never places it twice', async () => {
    const f = await desk.newFixture();
    const bet = { ...buy(f, '2'), clientOrderId: `${fault.id}-report-1` };
    vi.spyOn(desk.store.orders, 'upsert').mockImplementationOnce(() => {
      throw fault.error();
    });

    const err = await desk.trading.placeOrder(bet).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(fault.errorClass);
    const exchange = (await desk.exchangeOrders()).filter(
      (o) => o.clientOrderId === bet.clientOrderId,
    );
    expect(exchange).toHaveLength(1);
    expect((err as Error).message).toBe(fault.notSaved(bet.clientOrderId, exchange[0]!.orderId));
    // The intent stays open, so the order is looked up, not sent again.
    expect(desk.trading.intent(bet.clientOrderId)?.state).not.toBe('done');

    const again = await desk.trading.placeOrder(bet);
    expect(again.order?.orderId).toBe(exchange[0]!.orderId);
    expect(
      (await desk.exchangeOrders()).filter((o) => o.clientOrderId === bet.clientOrderId),
    ).toHaveLength(1);
    expect(desk.trading.intent(bet.clientOrderId)?.state).toBe('done');
  });
});

describe('a full disk met anywhere else', () => {
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
