import { describe, expect, it, vi } from 'vitest';
import { dec } from '../../../src/shared/money.js';
import type { Settlement } from '../../../src/shared/api/schemas.js';
import { buy, codeOf, domain, fixture, placeAndSettle, sell } from './helpers.js';

function fieldsOf(s: Settlement): string[] {
  return Object.keys(s).sort();
}

describe('positions', () => {
  it('blends several fills into one position with a volume-weighted entry price', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const a = await placeAndSettle(d, w, buy(f, 'HOM', '10'));
    d.setPrice(f.contractId, 'HOM', '0.6000');
    const b = await placeAndSettle(d, w, buy(f, 'HOM', '30'));
    const { positions, total } = d.positions(w, {});
    expect(total).toBe(1);
    const p = positions[0]!;
    const vwap = dec(a.entryPrice).times(10).plus(dec(b.entryPrice).times(30)).dividedBy(40);
    expect(p.contracts).toBe(40);
    expect(p.entryPrice).toBe(vwap.toFixed(4));
    expect(p.costBasis).toBe(dec(a.cost).plus(b.cost).toFixed(2));
    expect(p.boosted).toBe(false);
    expect(p.knockout).toBeUndefined();
    expect(dec(p.estimatedClosingPrice).lt('0.6')).toBe(true);
    // unboosted: collateral = contracts × entry, value = collateral + pnl, maxPayout = contracts
    expect(p.maxPayout).toBe('40.00');
    const collateral = vwap.times(40);
    expect(dec(p.value).minus(collateral.plus(p.pnl)).abs().lte('0.01')).toBe(true);
    expect(
      dec(p.pnlPercent).minus(dec(p.pnl).dividedBy(collateral).times(100)).abs().lt('0.1'),
    ).toBe(true);
  });

  it('marks a boosted position with its highest lot knockout and caps value at maxPayout', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const low = await placeAndSettle(d, w, buy(f, 'HOM', '10', { boost: 20 }));
    const high = await placeAndSettle(d, w, buy(f, 'HOM', '10', { boost: 80 }));
    const p = d.positions(w, {}).positions[0]!;
    expect(p.boosted).toBe(true);
    expect(dec(high.knockout!).gt(low.knockout!)).toBe(true);
    expect(p.knockout).toBe(high.knockout);
    expect(p.maxPayout).toBe(dec(low.maxWin).plus(high.maxWin).toFixed(2));
    d.setPrice(f.contractId, 'HOM', '0.9900');
    const rich = d.positions(w, {}).positions[0]!;
    expect(dec(rich.value).lte(rich.maxPayout)).toBe(true);
  });

  it('filters by contractId, league and team', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f1 = fixture(d, 'AAA', 'BBB', 'ONE');
    const f2 = fixture(d, 'CCC', 'DDD', 'TWO');
    await d.placeOrder(w, buy(f1, 'AAA', '5'));
    await d.placeOrder(w, buy(f2, 'DDD', '5'));
    d.advanceClock(60_000);
    expect(
      d.positions(w, { contractId: f1.contractId.toLowerCase() }).positions.map((p) => p.outcome),
    ).toEqual(['AAA']);
    expect(d.positions(w, { league: 'two' }).positions.map((p) => p.outcome)).toEqual(['DDD']);
    expect(d.positions(w, { team: 'ddd' }).total).toBe(1);
    expect(d.positions(w, { team: 'CCC' }).total).toBe(0);
  });
});

describe('closing and settlement rows', () => {
  it('keeps a partly closed position and writes one CLOSED row once it is flat', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const b = await placeAndSettle(d, w, buy(f, 'HOM', '20'));
    const s1 = await placeAndSettle(d, w, sell(f, 'HOM', '5'));
    expect(s1).toMatchObject({ status: 'FILLED', contracts: 5, maxWin: '0' });
    expect(s1.proceeds).toBeDefined();
    expect(d.positions(w, {}).positions[0]?.contracts).toBe(15);
    expect(d.settlements(w, {}).total).toBe(0);
    const s2 = await placeAndSettle(d, w, sell(f, 'HOM', '500'));
    expect(s2.contracts).toBe(15);
    expect(d.positions(w, {}).total).toBe(0);
    const rows = d.settlements(w, {}).settlements;
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(fieldsOf(row)).toEqual([
      'contractId',
      'contracts',
      'outcome',
      'pnl',
      'price',
      'timestamp',
      'tx',
      'type',
    ]);
    expect(row).toMatchObject({
      type: 'CLOSED',
      contractId: f.contractId,
      outcome: 'HOM',
      contracts: 20,
      tx: s2.tx,
    });
    expect(row.pnl).toBe(dec(s1.proceeds!).plus(s2.proceeds!).minus(b.cost).toFixed(2));
    expect(new Date(row.timestamp).toISOString()).toBe(row.timestamp);
  });

  it('knocks out only the lots whose knockout is reached and keeps the rest open', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const safe = await placeAndSettle(d, w, buy(f, 'HOM', '10'));
    const risky = await placeAndSettle(d, w, buy(f, 'HOM', '10', { boost: 90 }));
    expect(safe.knockout).toBeUndefined();
    const ko = risky.knockout!;
    // just above the knockout: nothing happens
    expect(d.setPrice(f.contractId, 'HOM', dec(ko).plus('0.0001').toFixed(4))).toEqual({
      knockedOut: 0,
    });
    expect(d.setPrice(f.contractId, 'HOM', ko)).toEqual({ knockedOut: 1 });
    const p = d.positions(w, {}).positions[0]!;
    expect(p).toMatchObject({ contracts: 10, boosted: false });
    expect(p.knockout).toBeUndefined();
    expect(d.settlements(w, {}).total).toBe(0); // not flat yet
    await placeAndSettle(d, w, sell(f, 'HOM', '10'));
    const rows = d.settlements(w, {}).settlements;
    // mixed end: both rows, the closing sale (the event that made it flat) newest
    expect(rows.map((r) => r.type)).toEqual(['CLOSED', 'KNOCKED_OUT']);
    const knocked = rows[1]!;
    expect(fieldsOf(knocked)).toEqual([
      'contractId',
      'contracts',
      'outcome',
      'pnl',
      'price',
      'timestamp',
      'tx',
      'type',
    ]);
    expect(knocked).toMatchObject({ contracts: 10, price: ko, pnl: `-${risky.cost}` });
    expect(rows[0]).toMatchObject({ type: 'CLOSED', contracts: 10 });
  });

  it('stamps the rows of one end with one moment: the SETTLEMENT’s, however the clock moves', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const risky = await placeAndSettle(d, w, buy(f, 'HOM', '10', { boost: 90 }));
    await placeAndSettle(d, w, buy(f, 'HOM', '10'));
    expect(d.setPrice(f.contractId, 'HOM', risky.knockout!)).toEqual({ knockedOut: 1 });
    await placeAndSettle(d, w, sell(f, 'HOM', '4'));
    // A clock a millisecond on at every read: the rows written after the SETTLEMENT's own
    // reading must not read as after the result.
    let t = Date.now();
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => ++t);
    try {
      d.resolveFixture(f.contractId, 'HOM');
    } finally {
      clock.mockRestore();
    }
    const rows = d.settlements(w, {}).settlements;
    expect(rows.map((r) => r.type).sort()).toEqual(['CLOSED', 'KNOCKED_OUT', 'SETTLEMENT']);
    expect(new Set(rows.map((r) => r.timestamp)).size).toBe(1);
    expect(rows[0]).toMatchObject({ type: 'SETTLEMENT', contracts: 6 });
  });

  it('knocks out on the index price alone: alive a tick above the knockout at a low price, out at it', async () => {
    // The bet: boost 60 at an index of 0.06, knockout 0.0379. Its estimated closing
    // price falls below the knockout long before the index does; only the index counts.
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    d.setPrice(f.contractId, 'HOM', '0.0600');
    const bet = await placeAndSettle(d, w, buy(f, 'HOM', '20', { boost: 60 }));
    expect(bet.knockout).toBe('0.0379');
    for (const index of ['0.0479', '0.0380']) {
      expect(d.setPrice(f.contractId, 'HOM', index), index).toEqual({ knockedOut: 0 });
      const p = d.positions(w, {}).positions[0]!;
      expect(p).toMatchObject({ contracts: 20, knockout: '0.0379' });
      if (index === '0.0479') expect(dec(p.estimatedClosingPrice).lt('0.0379')).toBe(true);
    }
    expect(d.setPrice(f.contractId, 'HOM', '0.0379')).toEqual({ knockedOut: 1 });
    expect(d.positions(w, {}).total).toBe(0);
    expect(d.settlements(w, {}).settlements[0]).toMatchObject({
      type: 'KNOCKED_OUT',
      contracts: 20,
      price: '0.0379',
    });
  });

  it('writes a KNOCKED_OUT row when a knockout makes the position flat', async () => {
    const d = await domain();
    const w = d.createWallet();
    const other = d.createWallet();
    const f = fixture(d);
    const o = await placeAndSettle(d, w, buy(f, 'AWY', '10', { boost: 100 }));
    await placeAndSettle(d, other, buy(f, 'AWY', '10', { boost: 100 }));
    // setting the home price moves the away index to 1 − p
    const { knockedOut } = d.setPrice(f.contractId, 'HOM', dec(1).minus(o.knockout!).toFixed(4));
    expect(knockedOut).toBe(2);
    expect(d.positions(w, {}).total).toBe(0);
    const rows = d.settlements(w, { type: 'KNOCKED_OUT' }).settlements;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'KNOCKED_OUT',
      outcome: 'AWY',
      contracts: 10,
      pnl: `-${o.cost}`,
    });
    expect(rows[0]!.tx).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('settles every held position on resolve: 1 per contract to the winner, 0 to the loser', async () => {
    const d = await domain();
    const winner = d.createWallet();
    const loser = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, winner, buy(f, 'HOM', '10'));
    await placeAndSettle(d, loser, buy(f, 'AWY', '7'));
    const resolved = d.resolveFixture(f.contractId, 'hom');
    expect(resolved).toMatchObject({ status: 'RESOLVED', bettingOpen: false, winner: 'HOM' });
    const won = d.settlements(winner, {}).settlements;
    expect(won).toHaveLength(1);
    expect(fieldsOf(won[0]!)).toEqual([
      'contractId',
      'contracts',
      'outcome',
      'payout',
      'timestamp',
      'tx',
      'type',
    ]);
    expect(won[0]).toMatchObject({ type: 'SETTLEMENT', contracts: 10, payout: '10.00' });
    expect(d.settlements(loser, {}).settlements[0]).toMatchObject({
      type: 'SETTLEMENT',
      contracts: 7,
      payout: '0.00',
    });
    expect(d.positions(winner, {}).total).toBe(0);
    expect((await codeOf(() => d.placeOrder(winner, buy(f, 'HOM', '1')))).code).toBe(-2019);
  });

  it('pays the entry price back on a DRAW, and only the collateral of a boosted bet', async () => {
    const d = await domain();
    const plain = d.createWallet();
    const boosted = d.createWallet();
    const f = fixture(d);
    const p = await placeAndSettle(d, plain, buy(f, 'HOM', '10'));
    const b = await placeAndSettle(d, boosted, buy(f, 'AWY', '10', { boost: 50 }));
    d.resolveFixture(f.contractId, 'DRAW');
    const plainRow = d.settlements(plain, {}).settlements[0]!;
    expect(plainRow.payout).toBe(dec(p.entryPrice).times(10).toFixed(2));
    const boostedRow = d.settlements(boosted, {}).settlements[0]!;
    const collateral = dec(b.entryPrice).times(dec(1).minus('0.45')).times(10);
    expect(boostedRow.payout).toBe(collateral.toDecimalPlaces(2, 3).toFixed(2));
  });

  it('pays a boosted winner its maxWin', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const o = await placeAndSettle(d, w, buy(f, 'HOM', '10', { boost: 30 }));
    d.resolveFixture(f.contractId, 'HOM');
    expect(d.settlements(w, {}).settlements[0]?.payout).toBe(o.maxWin);
  });

  it('writes the earlier partial sale of a resolved position along with its SETTLEMENT row', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '10'));
    await placeAndSettle(d, w, sell(f, 'HOM', '4'));
    d.resolveFixture(f.contractId, 'AWY');
    const rows = d.settlements(w, {}).settlements;
    expect(rows.map((r) => [r.type, r.contracts])).toEqual([
      ['SETTLEMENT', 6],
      ['CLOSED', 4],
    ]);
    expect(d.settlements(w, { type: 'CLOSED' }).total).toBe(1);
    expect(d.settlements(w, { team: 'awy' }).total).toBe(0);
    expect(d.settlements(w, { contractId: f.contractId.toLowerCase() }).total).toBe(2);
  });

  it('refuses a second resolution and a winner that is not a team or DRAW', async () => {
    const d = await domain();
    const f = fixture(d);
    expect((await codeOf(() => d.resolveFixture(f.contractId, 'XYZ'))).code).toBe(-1102);
    d.resolveFixture(f.contractId, 'DRAW');
    expect((await codeOf(() => d.resolveFixture(f.contractId, 'HOM'))).code).toBe(-1102);
    expect((await codeOf(() => d.resolveFixture('NOPE', 'HOM'))).code).toBe(-1121);
  });
});
