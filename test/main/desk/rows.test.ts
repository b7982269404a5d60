import { describe, expect, it } from 'vitest';
import { intentRow, orderRow } from '../../../src/main/desk/rows.js';
import type { OrderIntent } from '../../../src/main/store/index.js';
import { order } from '../store/support.js';

const noFixture = () => null;

function intent(over: Partial<OrderIntent> = {}): OrderIntent {
  return {
    clientOrderId: 'bd-1',
    accountId: 1,
    paramsHash: 'h',
    params: {
      request: { orderType: 'MARKET', clientOrderId: 'bd-1' },
      bet: { contractId: 'C', outcome: 'ARS', side: 'BUY', qty: '25', unit: 'QUOTE', boost: 30 },
    },
    state: 'pending',
    orderId: null,
    lastErrorCode: null,
    lastErrorMsg: null,
    createdAt: 5,
    updatedAt: 6,
    ...over,
  };
}

describe('an intent as a blotter row', () => {
  it('is Sending only while this process sends it; otherwise Checking, never failed', () => {
    expect(intentRow(intent(), true, noFixture).status).toBe('SENDING');
    expect(intentRow(intent(), false, noFixture).status).toBe('CHECKING');
    const unknown = intentRow(
      intent({ state: 'unknown', lastErrorCode: -1000, lastErrorMsg: 'timeout' }),
      false,
      noFixture,
    );
    expect(unknown).toMatchObject({ status: 'CHECKING', error: null });
  });

  it('shows the bet it was for', () => {
    expect(intentRow(intent(), true, noFixture)).toMatchObject({
      contractId: 'C',
      outcome: 'ARS',
      side: 'BUY',
      orderType: 'MARKET',
      unit: 'QUOTE',
      qty: '25',
      boost: 30,
      contracts: null,
      orderId: null,
    });
  });

  it('says why it was not placed: the exchange’s reason, or that it never arrived', () => {
    const refused = intentRow(
      intent({ state: 'failed', lastErrorCode: -2030, lastErrorMsg: 'hold CHE' }),
      false,
      noFixture,
    );
    expect(refused.status).toBe('NOT_PLACED');
    expect(refused.error).toEqual({
      code: -2030,
      message: expect.stringMatching(/opposite outcome is held.*"hold CHE"/i) as unknown,
    });
    const lost = intentRow(intent({ state: 'failed', lastErrorCode: -2025 }), false, noFixture);
    expect(lost.error?.message).toMatch(/^Not placed: the exchange has no order for it/);
  });
});

describe('an order as a blotter row', () => {
  it('carries the exchange’s reason in words when it did not fill', () => {
    const row = orderRow(
      order(1, { status: 'REJECTED', error: { code: -2024, msg: 'reverted' } }),
      noFixture,
    );
    expect(row.status).toBe('REJECTED');
    expect(row.error).toMatchObject({ code: -2024 });
    expect(row.error?.message).toMatch(/reverted/);
    const canceled = orderRow(order(2, { status: 'CANCELED', orderType: 'FOK' }), noFixture);
    expect(canceled.error?.message).toMatch(/market moved/);
    expect(canceled.error?.code).toBeUndefined();
    expect(orderRow(order(3, { status: 'FILLED' }), noFixture).error).toBeNull();
  });

  it('has no max win on a SELL', () => {
    expect(orderRow(order(1, { side: 'SELL', maxWin: '0' }), noFixture).maxWin).toBeNull();
  });
});
