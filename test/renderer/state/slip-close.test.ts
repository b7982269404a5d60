/**
 * Issue 28 item 8: a close's figures in the slip. Before sending, estimated as the exchange closes
 * (oldest lots first); after the fill, the exchange's proceeds less the cost of the lots sold, never
 * a figure from the position the sale left; once the position is flat, the exchange's CLOSED row.
 */
import { describe, expect, test } from 'vitest';
import type { HistoryPage, OrderRow } from '../../../src/shared/ipc/contract.js';
import { ManualClock } from '../../../src/renderer/src/lib/state/clock.svelte.js';
import { SlipState } from '../../../src/renderer/src/lib/state/slip.svelte.js';
import { closeLines } from '../../../src/renderer/src/lib/close-words.js';
import { arsAfter, arsBefore, arsSell, arsSellQuote } from '../close-rows.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { NOW, settlementRow } from '../rows.js';
import { TestSlipContext } from './slip-context.svelte.js';

function setup(positions = [arsBefore]) {
  const bridge = new FakeBridge();
  const clock = new ManualClock(NOW);
  const ctx = new TestSlipContext({ positions });
  let n = 0;
  const slip = new SlipState(
    bridge,
    ctx,
    clock,
    () => `bd-close-${++n}`,
    () => clock.now,
  );
  slip.start();
  bridge.answer('quote:request', arsSellQuote);
  bridge.answer('order:place', (input) => ({
    row: arsSell({ clientOrderId: input.clientOrderId, status: 'SUBMITTED', proceeds: null }),
    repeated: false,
  }));
  return { bridge, ctx, slip };
}

/** Closes 3 of `held` from the slip: quoted and placed (one-click), not filled yet. */
async function closeThree(slip: SlipState, held = arsBefore): Promise<void> {
  slip.closePosition(held);
  slip.qty = '3';
  await slip.request();
  await slip.place();
}

function pushRow(bridge: FakeBridge, row: OrderRow): void {
  bridge.emit('orders:changed', {
    accountId: null,
    orderIds: [],
    rows: [row],
    more: false,
    at: NOW,
  });
}

const page = (rows: HistoryPage['rows']): HistoryPage => ({
  accountId: null,
  rows,
  total: rows.length,
  limit: 1,
  offset: 0,
});

describe('a close’s figures', () => {
  test('before sending: ARS closing 3 at 0.7399 takes the older lot, about +$0.34', async () => {
    const { slip } = setup();
    slip.closePosition(arsBefore);
    slip.qty = '3';
    await slip.request();
    expect(slip.closeEstimate).toMatchObject({
      proceeds: '2.19',
      cost: '1.85',
      pnl: '0.34',
      basis: 'lots',
    });
    expect(closeLines(slip.closeView!)).toEqual([
      { label: 'Proceeds (estimate)', value: 'about $2.19' },
      { label: 'P&L locked in (estimate)', value: 'about +$0.34 profit' },
    ]);
  });

  test('after the fill: the exchange’s proceeds less the lots sold, not the position left', async () => {
    const { bridge, ctx, slip } = setup();
    await closeThree(slip);
    // The positions push may come before the order's: the estimate stays the one sent.
    ctx.positions = [arsAfter];
    expect(slip.closeEstimate?.pnl).toBe('0.34');
    pushRow(bridge, arsSell({ clientOrderId: 'bd-close-1' }));
    expect(slip.closeView).toMatchObject({
      result: { contracts: 3, proceeds: '2.19', cost: '1.85', pnl: '0.34', basis: 'lots' },
      booked: null,
    });
    // The figure the slip showed before issue 28 (from the 3 left at 0.7101) was about +$0.06.
    expect(closeLines(slip.closeView!)).toEqual([
      { label: 'Proceeds (exchange’s)', value: '$2.19' },
      { label: 'P&L locked in', value: '+$0.34 profit' },
    ]);
    await settle();
    // Not flat: the exchange writes no CLOSED row yet, so History is not asked.
    expect(bridge.inputs('history:list')).toEqual([]);
  });

  test('a close that leaves nothing shows the exchange’s CLOSED row once History has it', async () => {
    const { bridge, ctx, slip } = setup([arsAfter]);
    const rows: HistoryPage['rows'] = [];
    bridge.answer('history:list', () => page(rows));
    await closeThree(slip, arsAfter);
    ctx.positions = [];
    pushRow(bridge, arsSell({ clientOrderId: 'bd-close-1' }));
    await settle();
    expect(slip.closeView?.result).toMatchObject({ proceeds: '2.19', cost: '2.16', pnl: '0.03' });
    expect(bridge.inputs('history:list')).toEqual([
      {
        filter: { type: 'CLOSED', contractId: 'EPL-ARSCHE', team: 'ARS' },
        sort: 'time',
        limit: 1,
        offset: 0,
      },
    ]);
    // An earlier position's row is not this one's.
    rows.push(settlementRow({ contracts: 4, pnl: '-1.00', settledAt: NOW - 60_000 }));
    bridge.emit('history:changed', { accountId: null, added: 1, at: NOW });
    await settle();
    expect(slip.closeView?.booked).toBeNull();
    // Both sales of the position: 4.38 − 4.01 = +0.37.
    rows.unshift(settlementRow({ contracts: 6, pnl: '0.37', settledAt: NOW + 500 }));
    bridge.emit('history:changed', { accountId: null, added: 1, at: NOW });
    await settle();
    expect(slip.closeView?.booked).toEqual({ pnl: '0.37', contracts: 6 });
    expect(closeLines(slip.closeView!).at(-1)).toEqual({
      label: 'Booked by the exchange',
      value: '+$0.37 profit',
    });
    const asked = bridge.inputs('history:list').length;
    bridge.emit('history:changed', { accountId: null, added: 1, at: NOW });
    await settle();
    expect(bridge.inputs('history:list')).toHaveLength(asked);
  });

  test('History that cannot be read leaves the figure from the exchange’s proceeds', async () => {
    const { bridge, ctx, slip } = setup([arsAfter]);
    bridge.fail('history:list', { kind: 'not-ready', message: 'The store is busy.' });
    await closeThree(slip, arsAfter);
    ctx.positions = [];
    pushRow(bridge, arsSell({ clientOrderId: 'bd-close-1' }));
    await settle();
    expect(slip.closeView).toMatchObject({ result: { pnl: '0.03' }, booked: null });
  });

  test('a new quote after the close speaks of the position held now', async () => {
    const { bridge, ctx, slip } = setup();
    await closeThree(slip);
    ctx.positions = [arsAfter];
    pushRow(bridge, arsSell({ clientOrderId: 'bd-close-1' }));
    slip.closePosition(arsAfter);
    slip.qty = '3';
    await slip.request();
    expect(slip.closeView).toMatchObject({ estimate: { pnl: '0.03' }, result: null });
  });
});
