/**
 * The figures of issue 28 over HTTP: a boosted bet never shows a loss above its collateral, a
 * position's value is what closing it pays before the sell's fee, a SELL's cost is the fee as
 * deducted, and a KNOCKED_OUT row's price is the knockout (docs/api.md 2.5 to 2.7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Position, Settlement } from '../../../src/shared/api/schemas.js';
import { dec, usdFloor } from '../../../src/shared/money.js';
import { startSandbox, type Credentials, type Sandbox } from '../harness.js';

type Fixture = { contractId: string; homeTeam: string; awayTeam: string };

const BLOCK_MS = 1000;
let sb: Sandbox;
let teams = 0;

beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false, blockMs: BLOCK_MS });
});
afterAll(async () => sb.close());

/** A fresh fixture (lot size 1) whose home team's index is `homePrice`. */
async function market(homePrice: string): Promise<Fixture> {
  const n = teams++;
  const f = await sb.admin<Fixture>('POST', '/fixtures', {
    homeTeam: `HF${String.fromCharCode(65 + n)}`,
    awayTeam: `AF${String.fromCharCode(65 + n)}`,
    league: 'Figures',
  });
  await setIndex(f, homePrice);
  return f;
}

async function setIndex(f: Fixture, indexPrice: string): Promise<number> {
  const res = await sb.admin<{ knockedOut: number }>('POST', `/fixtures/${f.contractId}/price`, {
    outcome: f.homeTeam,
    indexPrice,
  });
  return res.knockedOut;
}

/** A MARKET order of `qty` contracts on the home team, as it ended after its block. */
async function trade(key: Credentials, f: Fixture, side: 'BUY' | 'SELL', qty: string, boost = 0) {
  const leg = { contractId: f.contractId, outcome: f.homeTeam, side, market: 'DRAW_NO_BET' };
  const placed = await sb.signed<Order>(key, 'POST', '/order', {
    body: {
      orderType: 'MARKET',
      legs: [boost > 0 ? { ...leg, boost } : leg],
      qty,
      marketUnit: 'BASE',
    },
  });
  expect(placed.status, placed.text).toBe(202);
  await sb.advanceClock(BLOCK_MS);
  const res = await sb.signed<Order>(key, 'GET', '/order', {
    query: { orderId: placed.body.orderId },
  });
  expect(res.body.status).toBe('FILLED');
  return res.body;
}

async function position(key: Credentials): Promise<Position> {
  const res = await sb.signed<{ positions: Position[] }>(key, 'GET', '/positions');
  expect(res.body.positions).toHaveLength(1);
  return res.body.positions[0]!;
}

async function rows(key: Credentials): Promise<Settlement[]> {
  const res = await sb.signed<{ settlements: Settlement[] }>(key, 'GET', '/settlements');
  return res.body.settlements;
}

describe('a boosted position shows no loss above its collateral (2.6)', () => {
  it('boost 100 below its loan: value 0.00, pnl −0.60 (the collateral), pnlPercent −100', async () => {
    const key = await sb.newKey();
    const f = await market('0.1898');
    const bet = await trade(key, f, 'BUY', '30', 100);
    expect(bet).toMatchObject({ entryPrice: '0.2000', cost: '0.66', knockout: '0.1800' });
    await setIndex(f, '0.1822'); // alive: above the knockout
    // Was value 0.00, pnl −0.84, pnlPercent −140.0000: the loan counted as the bettor's loss.
    expect(await position(key)).toMatchObject({
      contracts: 30,
      estimatedClosingPrice: '0.1720',
      costBasis: '0.66',
      value: '0.00',
      pnl: '-0.60',
      pnlPercent: '-100.0000',
      maxPayout: '24.60',
    });
    // Selling it all pays what the value said; nothing is left to take a fee from (was 0.06).
    const sale = await trade(key, f, 'SELL', '30');
    expect(sale).toMatchObject({ entryPrice: '0.1720', proceeds: '0.00', cost: '0' });
    expect(await rows(key)).toMatchObject([{ type: 'CLOSED', price: '0.1720', pnl: '-0.66' }]);
  });

  it('30 boosted and 30 unboosted: value 5.15 is what selling them all pays plus its fee', async () => {
    const key = await sb.newKey();
    const f = await market('0.1898');
    await trade(key, f, 'BUY', '30', 100);
    await trade(key, f, 'BUY', '30');
    await setIndex(f, '0.1822');
    const p = await position(key);
    // Was value 4.91, pnl −1.69, pnlPercent −25.5455 (against 6.60 of collateral).
    expect(p).toMatchObject({
      contracts: 60,
      estimatedClosingPrice: '0.1719',
      costBasis: '6.72',
      value: '5.15',
      pnl: '-1.45',
      pnlPercent: '-21.9697',
    });
    const sale = await trade(key, f, 'SELL', '60');
    // The fee exactly as deducted: 60 × 0.1719 × 1 % (was 0.11, rounded up to the cent).
    expect(sale).toMatchObject({ entryPrice: '0.1719', proceeds: '5.05', cost: '0.10314' });
    expect(usdFloor(dec(sale.proceeds!).plus(sale.cost))).toBe(p.value);
  });
});

describe("a KNOCKED_OUT row's price is the knockout (2.7)", () => {
  it('writes the knockout 0.1800, not the index 0.1700 that reached it', async () => {
    const key = await sb.newKey();
    const f = await market('0.1898');
    await trade(key, f, 'BUY', '30', 100);
    expect(await setIndex(f, '0.1700')).toBe(1);
    expect(await rows(key)).toMatchObject([
      { type: 'KNOCKED_OUT', contracts: 30, price: '0.1800', pnl: '-0.66' },
    ]);
  });

  it('weights two knockouts of one position by contracts', async () => {
    const key = await sb.newKey();
    const f = await market('0.5000');
    expect(await trade(key, f, 'BUY', '10', 90)).toMatchObject({ knockout: '0.4132' });
    expect(await trade(key, f, 'BUY', '30', 50)).toMatchObject({ knockout: '0.2296' });
    await trade(key, f, 'BUY', '20');
    expect((await position(key)).entryPrice).toBe('0.5102');
    expect(await setIndex(f, '0.4000')).toBe(1);
    expect(await setIndex(f, '0.2000')).toBe(1);
    // entryPrice and costBasis are those of the 20 contracts still held.
    expect(await position(key)).toMatchObject({ contracts: 20, entryPrice: '0.5101' });
    await trade(key, f, 'SELL', '20');
    // (10 × 0.4132 + 30 × 0.2296) / 40; was 0.2000, the index of the last knockout.
    expect(await rows(key)).toMatchObject([
      { type: 'CLOSED', contracts: 20, price: '0.1899' },
      { type: 'KNOCKED_OUT', contracts: 40, price: '0.2755', pnl: '-9.61' },
    ]);
  });
});
