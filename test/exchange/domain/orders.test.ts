import { describe, expect, it, vi } from 'vitest';
import { dec } from '../../../src/shared/money.js';
import { BLOCK_MS, buy, codeOf, domain, fixture, leg, placeAndSettle, sell } from './helpers.js';

describe('order lifecycle', () => {
  it('accepts an order as SUBMITTED with an empty tx, then fills it at its block', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const o = await d.placeOrder(w, buy(f, 'hom', '10', { clientOrderId: 'c1' }));
    expect(o).toMatchObject({
      status: 'SUBMITTED',
      tx: '',
      contractId: f.contractId,
      outcome: 'HOM',
      side: 'BUY',
    });
    expect(o.orderId).toMatch(/^0x[0-9a-f]{32}$/);
    expect(o.deadline).toBeGreaterThan(o.createdAt);
    d.advanceClock(BLOCK_MS / 2);
    const mid = d.getOrder(w, { clientOrderId: 'c1' });
    expect(mid.status).toBe('SUBMITTED');
    expect(mid.tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(mid.updatedAt).toBeGreaterThan(o.updatedAt);
    d.advanceClock(BLOCK_MS / 2);
    const done = d.getOrder(w, { orderId: o.orderId.toUpperCase().replace('0X', '0x') });
    expect(done.status).toBe('FILLED');
    expect(done.tx).toBe(mid.tx);
    expect(done.updatedAt).toBeGreaterThan(mid.updatedAt);
    expect(d.positions(w, {}).positions[0]).toMatchObject({
      contractId: f.contractId,
      outcome: 'HOM',
      contracts: 10,
    });
  });

  it('fills on its own when the block time passes (timer)', async () => {
    const d = await domain({ blockMs: 20 });
    const w = d.createWallet();
    const f = fixture(d);
    const o = await d.placeOrder(w, buy(f, 'HOM', '3'));
    await vi.waitFor(() => expect(d.getOrder(w, { orderId: o.orderId }).status).toBe('FILLED'), {
      timeout: 5000,
      interval: 10,
    });
    expect(d.getOrder(w, { orderId: o.orderId }).tx).not.toBe('');
  });

  it('reprices a MARKET order at its block', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const o = await d.placeOrder(w, buy(f, 'HOM', '10'));
    d.setPrice(f.contractId, 'HOM', '0.6000');
    d.advanceClock(BLOCK_MS);
    const done = d.getOrder(w, { orderId: o.orderId });
    expect(done.status).toBe('FILLED');
    expect(dec(done.entryPrice).gt(o.entryPrice)).toBe(true);
    expect(dec(done.entryPrice).gte('0.6')).toBe(true);
  });

  it('shrinks a dollar-sized MARKET order to stay within its cap when the price rose', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const o = await d.placeOrder(w, { ...buy(f, 'HOM', '50'), marketUnit: 'QUOTE' });
    d.setPrice(f.contractId, 'HOM', '0.7000');
    d.advanceClock(BLOCK_MS);
    const done = d.getOrder(w, { orderId: o.orderId });
    expect(done.status).toBe('FILLED');
    expect(done.contracts).toBeLessThan(o.contracts);
    expect(dec(done.cost).lte('50')).toBe(true);
  });

  it('fills a FOK exactly at the quoted contracts and price', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, {
      legs: [leg(f, 'HOM', 'BUY', 20)],
      qty: '25',
      marketUnit: 'QUOTE',
    });
    const o = await placeAndSettle(d, w, { orderType: 'FOK', rfqId: q.rfqId });
    expect(o).toMatchObject({
      status: 'FILLED',
      contracts: q.contracts,
      entryPrice: q.entryPrice,
      cost: q.cost,
      maxWin: q.maxWin,
      knockout: q.knockout,
      boost: 20,
      marketUnit: 'QUOTE',
      qty: '25',
      clientOrderId: q.rfqId,
      rfqId: q.rfqId,
    });
  });

  it('cancels a FOK whose locked price the market moved away from', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    const o = await d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId });
    d.setPrice(f.contractId, 'HOM', '0.5500');
    d.advanceClock(BLOCK_MS);
    const done = d.getOrder(w, { orderId: o.orderId });
    expect(done.status).toBe('CANCELED');
    expect(d.positions(w, {}).total).toBe(0);
  });

  it('still fills a FOK when the market moved in its favour, at the locked price', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    const o = await d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId });
    d.setPrice(f.contractId, 'HOM', '0.4500');
    d.advanceClock(BLOCK_MS);
    expect(d.getOrder(w, { orderId: o.orderId })).toMatchObject({
      status: 'FILLED',
      entryPrice: q.entryPrice,
    });
  });

  it('cancels orders whose market closed before their block', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const o = await d.placeOrder(w, buy(f, 'HOM', '10'));
    d.closeFixture(f.contractId);
    d.advanceClock(BLOCK_MS);
    expect(d.getOrder(w, { orderId: o.orderId }).status).toBe('CANCELED');
  });

  it('rejects a reverted order with -2024 and marks a congested one with -5004 but fills it', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const reverted = await d.placeOrder(w, buy(f, 'HOM', '10'), { outcome: 'revert' });
    expect(reverted.status).toBe('SUBMITTED');
    const congested = await d.placeOrder(w, buy(f, 'HOM', '10'), { outcome: 'congested' });
    expect(congested.status).toBe('SUBMITTED');
    expect(congested.error?.code).toBe(-5004);
    d.advanceClock(BLOCK_MS);
    const r = d.getOrder(w, { orderId: reverted.orderId });
    expect(r.status).toBe('REJECTED');
    expect(r.error?.code).toBe(-2024);
    const c = d.getOrder(w, { orderId: congested.orderId });
    expect(c.status).toBe('FILLED');
    expect(d.positions(w, {}).positions[0]?.contracts).toBe(10);
  });

  it('rejects a SELL that finds nothing left at its block with -2029', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '10'));
    const first = await d.placeOrder(w, sell(f, 'HOM', '10'));
    const second = await d.placeOrder(w, sell(f, 'HOM', '10'));
    d.advanceClock(BLOCK_MS);
    expect(d.getOrder(w, { orderId: first.orderId }).status).toBe('FILLED');
    const s = d.getOrder(w, { orderId: second.orderId });
    expect(s.status).toBe('REJECTED');
    expect(s.error?.code).toBe(-2029);
  });

  it('rejects a BUY that finds the opposite outcome held at its block with -2030', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const home = await d.placeOrder(w, buy(f, 'HOM', '10'));
    const away = await d.placeOrder(w, buy(f, 'AWY', '10'));
    d.advanceClock(BLOCK_MS);
    expect(d.getOrder(w, { orderId: home.orderId }).status).toBe('FILLED');
    expect(d.getOrder(w, { orderId: away.orderId })).toMatchObject({
      status: 'REJECTED',
      error: { code: -2030 },
    });
  });

  it('refuses invalid orders before broadcast', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    const withQty = await codeOf(() =>
      d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId, qty: '10' }),
    );
    expect(withQty.code).toBe(-1102);
    const withLegs = await codeOf(() =>
      d.placeOrder(w, { orderType: 'MARKET', rfqId: q.rfqId, legs: [leg(f, 'HOM', 'BUY')] }),
    );
    expect(withLegs.code).toBe(-1102);
    const fokInline = await codeOf(() =>
      d.placeOrder(w, { ...buy(f, 'HOM', '10'), orderType: 'FOK' }),
    );
    expect(fokInline.code).toBe(-1102);
    expect(fokInline.msg).toMatch(/rfqId/);
    const twoLegs = await codeOf(() =>
      d.placeOrder(w, {
        ...buy(f, 'HOM', '1'),
        legs: [leg(f, 'HOM', 'BUY'), leg(f, 'HOM', 'BUY')],
      }),
    );
    expect(twoLegs).toMatchObject({ code: -2026, status: 501 });
    const sellQuote = await codeOf(() =>
      d.placeOrder(w, { ...sell(f, 'HOM', '1'), marketUnit: 'QUOTE' }),
    );
    expect(sellQuote.code).toBe(-1102);
    const noQty = await codeOf(() =>
      d.placeOrder(w, { orderType: 'MARKET', legs: [leg(f, 'HOM', 'BUY')], marketUnit: 'BASE' }),
    );
    expect(noQty.code).toBe(-1102);
    d.closeFixture(f.contractId);
    const closed = await codeOf(() => d.placeOrder(w, buy(f, 'HOM', '1')));
    expect(closed).toMatchObject({ code: -2019, status: 503 });
    expect(d.listOrders(w, {}).total).toBe(0);
  });

  it('executes a MARKET order from a quote, repricing at its block', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    const o = await d.placeOrder(w, { orderType: 'MARKET', rfqId: q.rfqId, clientOrderId: 'mine' });
    expect(o.clientOrderId).toBe('mine');
    d.setPrice(f.contractId, 'HOM', '0.5500');
    d.advanceClock(BLOCK_MS);
    const done = d.getOrder(w, { clientOrderId: 'mine' });
    expect(done.status).toBe('FILLED');
    expect(dec(done.entryPrice).gt(q.entryPrice)).toBe(true);
  });
});

describe('quote use', () => {
  it('executes a quote at most once: a second use is -2027 naming the order', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    const o = await d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId });
    const again = await codeOf(() => d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId }));
    expect(again.code).toBe(-2027);
    expect(again.msg).toContain(o.orderId);
    const againOtherId = await codeOf(() =>
      d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId, clientOrderId: 'other' }),
    );
    expect(againOtherId.code).toBe(-2027);
  });

  it('answers -2031 for a lapsed quote and -2022 for an unknown one', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    d.advanceClock(30_000);
    expect((await codeOf(() => d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId }))).code).toBe(
      -2031,
    );
    expect(
      (await codeOf(() => d.placeOrder(w, { orderType: 'FOK', rfqId: 'deadbeef' }))).code,
    ).toBe(-2022);
  });

  it('still recognises a lapsed quote long after, but only for its own wallet', async () => {
    const d = await domain();
    const w = d.createWallet();
    const other = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    d.advanceClock(3_600_000);
    d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '1', marketUnit: 'BASE' }); // prunes
    expect((await codeOf(() => d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId }))).code).toBe(
      -2031,
    );
    expect(
      (await codeOf(() => d.placeOrder(other, { orderType: 'FOK', rfqId: q.rfqId }))).code,
    ).toBe(-2022);
    const forged = '0'.repeat(12) + q.rfqId.slice(12);
    expect((await codeOf(() => d.placeOrder(w, { orderType: 'FOK', rfqId: forged }))).code).toBe(
      -2022,
    );
  });

  it('executes a close quote as a FOK SELL at the locked price', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '12'));
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'SELL')], qty: '50', marketUnit: 'BASE' });
    const o = await placeAndSettle(d, w, { orderType: 'FOK', rfqId: q.rfqId });
    expect(o).toMatchObject({
      status: 'FILLED',
      side: 'SELL',
      contracts: 12,
      entryPrice: q.entryPrice,
    });
    expect(d.positions(w, {}).total).toBe(0);
  });

  it('cancels a FOK SELL when the holding shrank below the quoted size', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '12'));
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'SELL')], qty: '12', marketUnit: 'BASE' });
    await d.placeOrder(w, sell(f, 'HOM', '2')); // reaches its block first
    const o = await placeAndSettle(d, w, { orderType: 'FOK', rfqId: q.rfqId });
    expect(o.status).toBe('CANCELED');
    expect(d.positions(w, {}).positions[0]?.contracts).toBe(10);
  });

  it('keeps a quote usable until just before 30 seconds', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    d.advanceClock(Math.max(0, q.expiresAt - d.now() - 1000));
    const o = await d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId });
    expect(o.status).toBe('SUBMITTED');
  });

  it("refuses another wallet's quote with -2022, and the owner can still use it", async () => {
    const d = await domain();
    const owner = d.createWallet();
    const thief = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(owner, {
      legs: [leg(f, 'HOM', 'BUY')],
      qty: '10',
      marketUnit: 'BASE',
    });
    expect(
      (await codeOf(() => d.placeOrder(thief, { orderType: 'FOK', rfqId: q.rfqId }))).code,
    ).toBe(-2022);
    const o = await d.placeOrder(owner, { orderType: 'FOK', rfqId: q.rfqId });
    expect(o.status).toBe('SUBMITTED');
    expect(
      (await codeOf(() => d.placeOrder(thief, { orderType: 'FOK', rfqId: q.rfqId }))).code,
    ).toBe(-2022);
  });

  it('re-checks state when a quote is executed: a closed market is -2019', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '10', marketUnit: 'BASE' });
    d.closeFixture(f.contractId);
    expect((await codeOf(() => d.placeOrder(w, { orderType: 'FOK', rfqId: q.rfqId }))).code).toBe(
      -2019,
    );
  });
});

describe('clientOrderId', () => {
  it('returns the order already placed when the same clientOrderId is resent', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const first = await d.placeOrder(w, buy(f, 'HOM', '10', { clientOrderId: 'bet-1' }));
    const again = await d.placeOrder(w, buy(f, 'HOM', '99', { clientOrderId: 'bet-1' }));
    expect(again.orderId).toBe(first.orderId);
    expect(d.listOrders(w, {}).total).toBe(1);
  });

  it('keeps a clientOrderId spent after the order failed', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const failed = await d.placeOrder(w, buy(f, 'HOM', '10', { clientOrderId: 'bet-2' }), {
      outcome: 'revert',
    });
    d.advanceClock(BLOCK_MS);
    const again = await d.placeOrder(w, buy(f, 'HOM', '10', { clientOrderId: 'bet-2' }));
    expect(again).toMatchObject({ orderId: failed.orderId, status: 'REJECTED' });
  });

  it('is scoped to the wallet', async () => {
    const d = await domain();
    const a = d.createWallet();
    const b = d.createWallet();
    const f = fixture(d);
    const oa = await d.placeOrder(a, buy(f, 'HOM', '10', { clientOrderId: 'same' }));
    const ob = await d.placeOrder(b, buy(f, 'HOM', '10', { clientOrderId: 'same' }));
    expect(ob.orderId).not.toBe(oa.orderId);
    expect((await codeOf(() => d.getOrder(b, { orderId: oa.orderId }))).code).toBe(-2025);
  });

  it('answers -2028 while a placement with that clientOrderId is in flight, then the order', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const pending = d.placeOrder(w, buy(f, 'HOM', '10', { clientOrderId: 'slow' }), {
      delayMs: 50,
    });
    const busy = await codeOf(() =>
      d.placeOrder(w, buy(f, 'HOM', '10', { clientOrderId: 'slow' })),
    );
    expect(busy.code).toBe(-2028);
    const placed = await pending;
    const again = await d.placeOrder(w, buy(f, 'HOM', '10', { clientOrderId: 'slow' }));
    expect(again.orderId).toBe(placed.orderId);
  });

  it('does not spend a clientOrderId on a request refused before broadcast', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    expect(
      (await codeOf(() => d.placeOrder(w, buy(f, 'HOM', '0', { clientOrderId: 'fixme' })))).code,
    ).toBe(-1102);
    const o = await d.placeOrder(w, buy(f, 'HOM', '5', { clientOrderId: 'fixme' }));
    expect(o.contracts).toBe(5);
  });

  it('answers -2025 for an unknown order and -1102 unless exactly one id is passed', async () => {
    const d = await domain();
    const w = d.createWallet();
    expect((await codeOf(() => d.getOrder(w, { orderId: '0x00' }))).code).toBe(-2025);
    expect((await codeOf(() => d.getOrder(w, { clientOrderId: 'none' }))).code).toBe(-2025);
    expect((await codeOf(() => d.getOrder(w, {}))).code).toBe(-1102);
    expect((await codeOf(() => d.getOrder(w, { orderId: '0x00', clientOrderId: 'x' }))).code).toBe(
      -1102,
    );
  });
});
