import { describe, expect, it } from 'vitest';
import { apiMessage, readLegs, readSizing } from '../../../src/shared/api/leg.js';
import { dec } from '../../../src/shared/money.js';
import { buy, codeOf, domain, fixture, leg, placeAndSettle } from './helpers.js';

describe('quotes', () => {
  it('quotes an open with every field of 2.4 and echoes clientOrderId as reqId', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, {
      legs: [leg(f, 'HOM', 'BUY', 10)],
      qty: '100',
      marketUnit: 'BASE',
      clientOrderId: 'my-bet-1',
    });
    expect(q.reqId).toBe('my-bet-1');
    expect(q.rfqId).toMatch(/^[0-9a-f]{32}$/);
    expect(q.contracts).toBe(100);
    expect(q.isOpen).toBe(true);
    expect(q.indexPrice).toBe('0.5000');
    expect(dec(q.entryPrice).gt(q.indexPrice)).toBe(true);
    expect(q.cost).toBeDefined();
    expect(q.maxWin).toBeDefined();
    expect(dec(q.exitValue!).lt(q.cost!)).toBe(true);
    expect(q.knockout).toBeDefined();
    expect(q.minContracts).toBe(1);
    expect(q.exchangeCapacity).toBe(1_000_000);
    expect(q.expiresAt).toBeGreaterThan(d.now());
    expect(q.expiresAt).toBeLessThanOrEqual(d.now() + 30_000);
  });

  it('gives an empty reqId and no knockout for an unboosted open without clientOrderId', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '5', marketUnit: 'BASE' });
    expect(q.reqId).toBe('');
    expect(q.knockout).toBeUndefined();
  });

  it('accepts case-insensitive fields', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, {
      legs: [
        {
          contractId: f.contractId.toLowerCase(),
          outcome: 'hom',
          side: 'buy',
          market: 'draw_no_bet',
        },
      ],
      qty: '3',
      marketUnit: 'base',
      orderType: 'fok',
    });
    expect(q.contracts).toBe(3);
  });

  it('keeps a dollar-sized quote within qty and rounds down', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const q = d.requestQuote(w, {
      legs: [leg(f, 'HOM', 'BUY', 25)],
      qty: '37.5',
      marketUnit: 'QUOTE',
    });
    expect(dec(q.cost!).lte('37.5')).toBe(true);
    const more = d.requestQuote(w, {
      legs: [leg(f, 'HOM', 'BUY', 25)],
      qty: String(q.contracts + 1),
      marketUnit: 'BASE',
    });
    expect(dec(more.cost!).gt('37.5')).toBe(true);
  });

  it('rounds a contract-sized open to the nearest lot', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = d.createFixture({ homeTeam: 'BOS', awayTeam: 'TOR', league: 'NHL' }); // lot 5, min 10
    expect(f.lotSize).toBe(5);
    const up = d.requestQuote(w, { legs: [leg(f, 'BOS', 'BUY')], qty: '12.5', marketUnit: 'BASE' });
    expect(up.contracts).toBe(15);
    const down = d.requestQuote(w, {
      legs: [leg(f, 'BOS', 'BUY')],
      qty: '12.4',
      marketUnit: 'BASE',
    });
    expect(down.contracts).toBe(10);
    const below = await codeOf(() =>
      d.requestQuote(w, { legs: [leg(f, 'BOS', 'BUY')], qty: '7', marketUnit: 'BASE' }),
    );
    expect(below.code).toBe(-1102);
    expect(below.msg).toMatch(/qty/);
    expect(below.msg).toMatch(/minContracts/);
  });

  it('quotes a close with contracts and entryPrice only, capped at the position held', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '40'));
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'SELL')], qty: '1000', marketUnit: 'BASE' });
    expect(q.isOpen).toBe(false);
    expect(q.contracts).toBe(40);
    expect(dec(q.entryPrice).lt(q.indexPrice)).toBe(true);
    for (const field of ['cost', 'maxWin', 'exitValue', 'exchangeCapacity', 'knockout'] as const) {
      expect(q[field]).toBeUndefined();
    }
    const partial = d.requestQuote(w, {
      legs: [leg(f, 'HOM', 'SELL')],
      qty: '10.9',
      marketUnit: 'BASE',
    });
    expect(partial.contracts).toBe(10);
  });

  it('shows the knockout of what a partial close of a boosted position leaves', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const o = await placeAndSettle(d, w, buy(f, 'HOM', '20', { boost: 50 }));
    const partial = d.requestQuote(w, {
      legs: [leg(f, 'HOM', 'SELL')],
      qty: '5',
      marketUnit: 'BASE',
    });
    expect(partial.knockout).toBe(o.knockout);
    const full = d.requestQuote(w, {
      legs: [leg(f, 'HOM', 'SELL')],
      qty: '20',
      marketUnit: 'BASE',
    });
    expect(full.knockout).toBeUndefined();
  });

  it('shows the resulting position knockout when adding unboosted contracts to a boosted position', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const o = await placeAndSettle(d, w, buy(f, 'HOM', '20', { boost: 50 }));
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '5', marketUnit: 'BASE' });
    expect(q.knockout).toBe(o.knockout);
  });

  it('refuses malformed requests with -1102 naming the field', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '10'));
    const cases: [object, RegExp][] = [
      [{ legs: [leg(f, 'HOM', 'SELL', 10)], qty: '1', marketUnit: 'BASE' }, /boost/],
      [{ legs: [leg(f, 'HOM', 'SELL')], qty: '1', marketUnit: 'QUOTE' }, /marketUnit/],
      [
        { legs: [{ ...leg(f, 'HOM', 'BUY'), market: 'MONEYLINE' }], qty: '1', marketUnit: 'BASE' },
        /market/,
      ],
      [{ legs: [leg(f, 'XYZ', 'BUY')], qty: '1', marketUnit: 'BASE' }, /outcome: XYZ/],
      [{ legs: [leg(f, 'HOM', 'BUY')], qty: '0', marketUnit: 'BASE' }, /qty/],
      [{ legs: [leg(f, 'HOM', 'BUY')], qty: '-3', marketUnit: 'BASE' }, /qty/],
      [{ legs: [leg(f, 'HOM', 'BUY')], qty: '0.4', marketUnit: 'BASE' }, /qty/],
      [{ legs: [leg(f, 'HOM', 'BUY')], qty: '2000000', marketUnit: 'BASE' }, /qty.*capacity/],
      [{ legs: [leg(f, 'HOM', 'BUY', 101)], qty: '1', marketUnit: 'BASE' }, /boost/],
    ];
    for (const [req, msg] of cases) {
      const err = await codeOf(() => d.requestQuote(w, req as never));
      expect(err.code, JSON.stringify(req)).toBe(-1102);
      expect(err.msg).toMatch(msg);
    }
  });

  it('words a bad leg or size exactly as the shared leg parser does, null leg included', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const good = leg(f, 'HOM', 'BUY');
    const cases: { legs: unknown; qty?: unknown; marketUnit?: unknown }[] = [
      { legs: [], qty: '1', marketUnit: 'BASE' },
      { legs: [null], qty: '1', marketUnit: 'BASE' },
      { legs: [good, good], qty: '1', marketUnit: 'BASE' },
      { legs: [{ ...good, contractId: '' }], qty: '1', marketUnit: 'BASE' },
      { legs: [{ ...good, side: 'HOLD' }], qty: '1', marketUnit: 'BASE' },
      { legs: [{ ...good, boost: '2.5' }], qty: '1', marketUnit: 'BASE' },
      { legs: [good], qty: '1' },
      { legs: [good], qty: '1e3', marketUnit: 'BASE' },
      { legs: [good], qty: '0', marketUnit: 'QUOTE' },
    ];
    for (const req of cases) {
      const read = readLegs(req.legs);
      const refused = read.ok ? readSizing(read.value.side, req.qty, req.marketUnit) : read;
      if (refused.ok) throw new Error(`not a bad request: ${JSON.stringify(req)}`);
      const { problem } = refused;
      const err = await codeOf(() => d.requestQuote(w, req as never));
      expect(err, JSON.stringify(req)).toMatchObject({
        code: problem.code,
        msg: apiMessage(problem),
      });
    }
  });

  it('refuses two legs with -2026 (HTTP 501)', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const err = await codeOf(() =>
      d.requestQuote(w, {
        legs: [leg(f, 'HOM', 'BUY'), leg(f, 'AWY', 'BUY')],
        qty: '1',
        marketUnit: 'BASE',
      }),
    );
    expect(err).toMatchObject({ code: -2026, status: 501 });
  });

  it('refuses an unknown contract with -1121 and a closed market with -2019 (HTTP 503)', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const unknown = await codeOf(() =>
      d.requestQuote(w, {
        legs: [{ ...leg(f, 'HOM', 'BUY'), contractId: 'NOPE-1' }],
        qty: '1',
        marketUnit: 'BASE',
      }),
    );
    expect(unknown.code).toBe(-1121);
    d.closeFixture(f.contractId);
    const closed = await codeOf(() =>
      d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '1', marketUnit: 'BASE' }),
    );
    expect(closed).toMatchObject({ code: -2019, status: 503 });
  });

  it('refuses a SELL with nothing held (-2029) and a BUY of the opposite outcome (-2030)', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const nothing = await codeOf(() =>
      d.requestQuote(w, { legs: [leg(f, 'HOM', 'SELL')], qty: '1', marketUnit: 'BASE' }),
    );
    expect(nothing.code).toBe(-2029);
    await placeAndSettle(d, w, buy(f, 'HOM', '5'));
    const opposite = await codeOf(() =>
      d.requestQuote(w, { legs: [leg(f, 'AWY', 'BUY')], qty: '1', marketUnit: 'BASE' }),
    );
    expect(opposite.code).toBe(-2030);
  });

  it('refuses a boost whose knockout would be at or above the index', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    d.setPrice(f.contractId, 'HOM', '0.0500');
    const err = await codeOf(() =>
      d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY', 100)], qty: '5', marketUnit: 'BASE' }),
    );
    expect(err.code).toBe(-1102);
    expect(err.msg).toMatch(/boost/);
  });

  it('reports capacity net of what is held and refuses larger requests', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    await placeAndSettle(d, w, buy(f, 'HOM', '999990'));
    const q = d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '5', marketUnit: 'BASE' });
    expect(q.exchangeCapacity).toBe(10);
    const err = await codeOf(() =>
      d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty: '11', marketUnit: 'BASE' }),
    );
    expect(err.code).toBe(-1102);
    expect(err.msg).toMatch(/qty: 11 .*capacity of 10/);
  });

  it('forgets lapsed quotes oldest first, past executed ones, and keeps the live ones', async () => {
    const d = await domain();
    const w = d.createWallet();
    const f = fixture(d);
    const ask = (qty: string) =>
      d.requestQuote(w, { legs: [leg(f, 'HOM', 'BUY')], qty, marketUnit: 'BASE' });
    const first = ask('1');
    d.advanceClock(10_000);
    const executed = ask('2');
    await d.placeOrder(w, { orderType: 'FOK', rfqId: executed.rfqId });
    d.advanceClock(10_000);
    const live = ask('3');
    d.advanceClock(11_000);
    ask('4'); // prunes `first`; `executed` is gone already, `live` has 19 s left
    const fok = (rfqId: string) => codeOf(() => d.placeOrder(w, { orderType: 'FOK', rfqId }));
    expect((await fok(first.rfqId)).code).toBe(-2031);
    expect((await fok(executed.rfqId)).code).toBe(-2027);
    const placed = await d.placeOrder(w, { orderType: 'FOK', rfqId: live.rfqId });
    expect(placed.contracts).toBe(3);
  });
});
