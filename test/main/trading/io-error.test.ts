/**
 * An I/O error when a bet is placed, on a disk with room (docs/data.md): worded as what it is,
 * not as a full disk, with what was kept. A bet whose intent cannot be recorded is not sent; an
 * order the exchange accepted but whose report cannot be saved stands, and placing it again finds
 * it. The store's writes throw what better-sqlite3 throws for SQLITE_IOERR_WRITE, against the real
 * sandbox over HTTP.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toBridgeError } from '../../../src/main/ipc/errors.js';
import { IoError } from '../../../src/main/store/index.js';
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

const ioerrWrite = () => new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE');
const SAID =
  'Betdesk could not write to its store: the disk reported an input/output error ' +
  '(SQLITE_IOERR_WRITE).';

describe('an I/O error on a disk with room when a bet is placed', () => {
  it('refuses the bet before anything is sent, and says it is an I/O error', async () => {
    const f = await desk.newFixture();
    const bet = { ...buy(f, '3'), clientOrderId: 'io-error-intent-1' };
    await desk.trading.reconcileOpenIntents();
    requests.reset();
    vi.spyOn(desk.store.intents, 'create').mockImplementation(() => {
      throw ioerrWrite();
    });

    const err = await desk.trading.placeOrder(bet).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(IoError);
    expect((err as Error).message).toBe(
      `${SAID} The bet was not recorded, so it was not sent; nothing else changed. Check the ` +
        'disk, then place it again.',
    );
    expect(toBridgeError(err)).toEqual({ kind: 'io-error', message: (err as Error).message });
    expect(requests.count('POST /order')).toBe(0);

    vi.restoreAllMocks();
    const placed = await desk.trading.placeOrder(bet);
    expect(placed.order?.clientOrderId).toBe(bet.clientOrderId);
    expect(requests.count('POST /order')).toBe(1);
  });

  it('says an accepted order stands when its report cannot be saved', async () => {
    const f = await desk.newFixture();
    const bet = { ...buy(f, '2'), clientOrderId: 'io-error-report-1' };
    vi.spyOn(desk.store.orders, 'upsert').mockImplementationOnce(() => {
      throw ioerrWrite();
    });

    const err = await desk.trading.placeOrder(bet).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(IoError);
    const exchange = (await desk.exchangeOrders()).filter(
      (o) => o.clientOrderId === bet.clientOrderId,
    );
    expect(exchange).toHaveLength(1);
    expect((err as Error).message).toBe(
      `${SAID} Order ${bet.clientOrderId}, which the exchange accepted (order ` +
        `${exchange[0]!.orderId}), was not saved; its intent is kept, so the next sync saves it. ` +
        'Do not place it again.',
    );
    const again = await desk.trading.placeOrder(bet);
    expect(again.order?.orderId).toBe(exchange[0]!.orderId);
    expect(
      (await desk.exchangeOrders()).filter((o) => o.clientOrderId === bet.clientOrderId),
    ).toHaveLength(1);
  });
});
