import { describe, expect, test } from 'vitest';
import { ErrorCodes } from '../../../src/shared/api/errors.js';
import type { OrderRow, PlaceResult } from '../../../src/shared/ipc/contract.js';
import { ManualClock } from '../../../src/renderer/src/lib/state/clock.svelte.js';
import { CONFIRM_ARM_MS, SlipState } from '../../../src/renderer/src/lib/state/slip.svelte.js';
import { BridgeFailure } from '../../../src/renderer/src/lib/bridge.js';
import { deferred, FakeBridge, settle } from '../fake-bridge.js';
import { fixture, fixtureRef, NOW, orderRow, position, quoteResult } from '../rows.js';
import { TestSlipContext } from './slip-context.svelte.js';

type Ctx = Partial<
  Pick<TestSlipContext, 'canTrade' | 'online' | 'connected' | 'oneClick' | 'positions'>
>;

function setup(over: Ctx = {}) {
  const bridge = new FakeBridge();
  const clock = new ManualClock(NOW);
  const ctx = new TestSlipContext(over);
  let n = 0;
  const slip = new SlipState(
    bridge,
    ctx,
    clock,
    () => `bd-test-${++n}`,
    () => clock.now,
  );
  bridge.answer('quote:request', quoteResult());
  const placed = (row: Partial<OrderRow> = {}): PlaceResult => ({
    row: orderRow({ clientOrderId: slip.clientOrderId ?? 'none', ...row }),
    repeated: false,
  });
  bridge.answer('order:place', () => placed());
  return { bridge, clock, ctx, slip, placed };
}

/** Every placement is refused by the rate limit, to be tried again in `retryAfterMs`. */
function rateLimited(bridge: FakeBridge, retryAfterMs: number): void {
  bridge.fail('order:place', {
    kind: 'rate-limited',
    message: 'The exchange’s order budget is spent for now.',
    retryAfterMs,
  });
}

/** An `orders:changed` push of `rows`, as main sends it when orders change. */
function pushRows(bridge: FakeBridge, rows: OrderRow[], orderIds: string[] = []): void {
  bridge.emit('orders:changed', { accountId: null, orderIds, rows, more: false, at: NOW });
}

async function quoted(slip: SlipState, qty = '25'): Promise<void> {
  slip.select(fixture(), 'ARS');
  slip.qty = qty;
  await slip.request();
}

describe('placing from a quote', () => {
  test('Place sends one FOK with the quote’s rfqId and the clientOrderId made when the quote arrived', async () => {
    const { bridge, slip } = setup();
    await quoted(slip);
    expect(slip.clientOrderId).toBe('bd-test-1');
    await slip.place();
    expect(bridge.inputs('order:place')).toEqual([
      { clientOrderId: 'bd-test-1', type: 'FOK', rfqId: 'rfq-1' },
    ]);
    expect(slip.status).toBe('SUBMITTED');
  });

  test('a double click sends one request, and nothing more once the bet has its order', async () => {
    const { bridge, slip, placed } = setup();
    const reply = deferred<PlaceResult>();
    bridge.answer('order:place', () => reply.promise);
    await quoted(slip);
    const first = slip.place();
    const second = slip.place();
    await settle();
    expect(slip.status).toBe('SENDING');
    expect(slip.placeLabel).toBe('Place bet · Sending…');
    reply.resolve(placed());
    await Promise.all([first, second]);
    await slip.place();
    expect(bridge.inputs('order:place')).toHaveLength(1);
    expect(slip.canPlace).toBe(false);
    expect(slip.placeProblem).toMatch(/has been placed/);
  });

  test('switching FOK and Market after placing keeps the bet: one quote is never a second bet', async () => {
    const { bridge, slip } = setup();
    await quoted(slip);
    await slip.place();
    slip.kind = 'MARKET';
    expect(slip.clientOrderId).toBe('bd-test-1');
    await slip.place();
    slip.kind = 'FOK';
    await slip.place();
    expect(bridge.inputs('order:place')).toHaveLength(1);
    expect(slip.placeProblem).toMatch(/has been placed/);
  });

  test('a bet the exchange refused says it was not placed, not that it was', async () => {
    const { bridge, slip, placed } = setup();
    bridge.answer('order:place', () =>
      placed({
        status: 'NOT_PLACED',
        error: { code: ErrorCodes.MARKET_CLOSED, message: 'Betting is closed.' },
      }),
    );
    await quoted(slip);
    await slip.place();
    expect(slip.placeProblem).toMatch(
      /^This bet did not go through, so nothing was bought or sold/,
    );
    expect(slip.placeNote).toBe(
      'Not placed: nothing was bought or sold. Request a new quote to try again.',
    );
  });

  test('a bet rejected after it was sent is never said to be placed', async () => {
    const { bridge, slip } = setup();
    slip.start();
    await quoted(slip);
    await slip.place();
    expect(slip.placeNote).toBe('Placed. Request a new quote to bet again.');
    pushRows(bridge, [
      orderRow({
        clientOrderId: 'bd-test-1',
        status: 'REJECTED',
        updatedAt: NOW + 1,
        error: { code: ErrorCodes.REVERTED, message: 'The transaction reverted on chain.' },
      }),
    ]);
    expect(slip.placeNote).toBe(
      'Not placed: nothing was bought or sold. Request a new quote to try again.',
    );
    expect(slip.placeProblem).not.toMatch(/has been placed/);
  });

  test('a new quote after a fill is a new bet: the last bet’s result is not shown under it', async () => {
    const { bridge, slip } = setup();
    slip.start();
    await quoted(slip);
    await slip.place();
    pushRows(bridge, [
      orderRow({ clientOrderId: 'bd-test-1', status: 'FILLED', updatedAt: NOW + 1 }),
    ]);
    expect(slip.status).toBe('FILLED');
    await slip.request();
    expect(slip.canPlace).toBe(true);
    expect(slip.status).toBeNull();
    expect(slip.order).toBeNull();
  });

  test('with the confirmation step, Place only opens it, a second Place does nothing, and Confirm sends once', async () => {
    const { bridge, clock, slip } = setup({ oneClick: false });
    await quoted(slip);
    await slip.place();
    await slip.place();
    expect(slip.confirming).toBe(true);
    expect(bridge.inputs('order:place')).toHaveLength(0);
    clock.now += CONFIRM_ARM_MS;
    await Promise.all([slip.confirm(), slip.confirm()]);
    expect(bridge.inputs('order:place')).toHaveLength(1);
    expect(slip.confirming).toBe(false);
  });

  test('Esc steps back out of the confirmation step first, and clears the slip after', async () => {
    const { slip } = setup({ oneClick: false });
    await quoted(slip);
    await slip.place();
    slip.escape();
    expect(slip.confirming).toBe(false);
    expect(slip.selection).not.toBeNull();
    slip.escape();
    expect(slip.selection).toBeNull();
    expect(slip.quote).toBeNull();
  });

  test('a Market choice places MARKET with the slip’s size, unit and boost, as its own bet', async () => {
    const { bridge, slip } = setup();
    slip.select(fixture(), 'CHE');
    slip.unit = 'QUOTE';
    slip.qty = '25';
    slip.boost = 40;
    bridge.answer('quote:request', quoteResult({ knockout: '0.2475' }));
    await slip.request();
    const fokId = slip.clientOrderId;
    slip.kind = 'MARKET';
    expect(slip.clientOrderId).not.toBe(fokId);
    expect(slip.placeLabel).toBe('Place bet · Market · up to $25.00');
    await slip.place();
    expect(bridge.inputs('order:place')).toEqual([
      {
        clientOrderId: slip.clientOrderId,
        type: 'MARKET',
        bet: {
          contractId: 'EPL-ARSCHE',
          outcome: 'CHE',
          side: 'BUY',
          qty: '25',
          unit: 'QUOTE',
          boost: 40,
        },
      },
    ]);
  });

  test('the button says what will happen, and a boosted bet shows its knockout before it is placed', async () => {
    const { bridge, slip } = setup();
    bridge.answer('quote:request', quoteResult({ knockout: '0.2475' }));
    await quoted(slip);
    expect(slip.placeLabel).toBe('Place bet · 25 contracts · $24.00');
    expect(slip.knockoutNote).toMatch(/0\.2475/);
    slip.kind = 'MARKET';
    expect(slip.placeLabel).toBe('Place bet · Market · 25 contracts · about $24.00');
    expect(slip.knockoutNote).toMatch(/about 0\.2475/);
  });

  test('an unboosted quote has no knockout note', async () => {
    const { slip } = setup();
    await quoted(slip);
    expect(slip.knockoutNote).toBeNull();
  });

  test('an expired quote cannot be placed, by the exchange’s clock', async () => {
    const { bridge, clock, slip } = setup();
    // The exchange's clock runs 2 s ahead of ours: the quote lapses 2 s sooner locally.
    bridge.answer('quote:request', quoteResult({}, 2000));
    await quoted(slip);
    clock.now = NOW + 27_000;
    expect(slip.remainingMs).toBe(1000);
    clock.now = NOW + 28_000;
    expect(slip.expired).toBe(true);
    expect(slip.placeProblem).toBe('This quote has expired; request a new one.');
    await slip.place();
    expect(bridge.inputs('order:place')).toHaveLength(0);
  });

  test('changing the size throws the quote away and ends its bet; the next quote is a new bet', async () => {
    const { slip } = setup();
    await quoted(slip);
    slip.qty = '30';
    expect(slip.quote).toBeNull();
    expect(slip.clientOrderId).toBeNull();
    await slip.request();
    expect(slip.clientOrderId).toBe('bd-test-2');
  });

  test('a quote that answers after the size changed is not shown for the new size', async () => {
    const { bridge, slip } = setup();
    const late = deferred<ReturnType<typeof quoteResult>>();
    bridge.answer('quote:request', () => late.promise);
    slip.select(fixture(), 'ARS');
    slip.qty = '25';
    const asked = slip.request();
    slip.qty = '26';
    late.resolve(quoteResult());
    await asked;
    expect(slip.quote).toBeNull();
    expect(slip.requesting).toBe(false);
  });
});

describe('the order’s life', () => {
  test('orders:changed rows matched by clientOrderId move it from Submitted to Filled', async () => {
    const { bridge, slip } = setup();
    slip.start();
    await quoted(slip);
    await slip.place();
    pushRows(bridge, [orderRow({ clientOrderId: 'someone-else', status: 'REJECTED' })]);
    expect(slip.status).toBe('SUBMITTED');
    pushRows(
      bridge,
      [orderRow({ clientOrderId: 'bd-test-1', status: 'FILLED', updatedAt: NOW + 1 })],
      ['0xabc'],
    );
    expect(slip.status).toBe('FILLED');
  });

  test('a push that beats the reply is not undone by the older reply', async () => {
    const { bridge, slip, placed } = setup();
    slip.start();
    const reply = deferred<PlaceResult>();
    bridge.answer('order:place', () => reply.promise);
    await quoted(slip);
    const sending = slip.place();
    await settle();
    pushRows(bridge, [
      orderRow({ clientOrderId: 'bd-test-1', status: 'FILLED', updatedAt: NOW + 5 }),
    ]);
    reply.resolve(placed({ status: 'SUBMITTED', updatedAt: NOW + 1 }));
    await sending;
    expect(slip.status).toBe('FILLED');
  });

  test('a rejection keeps the exchange’s reason', async () => {
    const { bridge, slip } = setup();
    slip.start();
    await quoted(slip);
    await slip.place();
    pushRows(bridge, [
      orderRow({
        clientOrderId: 'bd-test-1',
        status: 'REJECTED',
        error: { code: ErrorCodes.REVERTED, message: 'The transaction reverted on chain.' },
      }),
    ]);
    expect(slip.status).toBe('REJECTED');
    expect(slip.order?.error?.message).toBe('The transaction reverted on chain.');
  });

  test('Checking is its own state, and blocks another bet from the slip until its fate is known', async () => {
    const { bridge, slip, placed } = setup();
    slip.start();
    bridge.answer('order:place', () => placed({ status: 'CHECKING', orderId: null }));
    await quoted(slip);
    await slip.place();
    expect(slip.status).toBe('CHECKING');
    await slip.request();
    expect(slip.placeProblem).toMatch(/still being checked/);
    await slip.place();
    expect(bridge.inputs('order:place')).toHaveLength(1);
    pushRows(bridge, [orderRow({ clientOrderId: 'bd-test-1', status: 'FILLED' })]);
    expect(slip.canPlace).toBe(true);
  });

  test('a repeated placement is reported as the first order, with main’s warning', async () => {
    const { bridge, slip } = setup();
    bridge.answer('order:place', () => ({
      row: orderRow({ clientOrderId: 'bd-test-1' }),
      repeated: true,
      warning: 'Sent, not yet confirmed.',
    }));
    await quoted(slip);
    await slip.place();
    expect(slip.repeated).toBe(true);
    expect(slip.warning).toBe('Sent, not yet confirmed.');
  });
});

describe('refusals', () => {
  test('the opposite outcome held is explained before anything is sent', async () => {
    const { bridge, slip } = setup({ positions: [position({ outcome: 'CHE' })] });
    slip.select(fixture(), 'ARS');
    slip.qty = '25';
    expect(slip.refusal?.message).toMatch(/You hold CHE on ARS v CHE/);
    expect(slip.canRequest).toBe(false);
    await slip.request();
    await slip.place();
    expect(bridge.calls).toEqual([]);
  });

  test('a fixture closed since it was picked refuses the bet', async () => {
    const { bridge, ctx, slip } = setup();
    await quoted(slip);
    ctx.fixture = () => fixtureRef({ bettingOpen: false, status: 'CLOSED' });
    expect(slip.refusal?.message).toBe(
      'Betting on ARS v CHE is closed, so the exchange would refuse this bet.',
    );
    await slip.place();
    expect(bridge.inputs('order:place')).toHaveLength(0);
  });

  test('a read-only key is refused before sending', async () => {
    const { bridge, slip } = setup({ canTrade: false });
    await quoted(slip);
    expect(slip.refusal?.message).toMatch(/only read/);
    await slip.place();
    expect(bridge.inputs('order:place')).toHaveLength(0);
  });

  test('offline says so, sends nothing, and queues nothing for later', async () => {
    const { bridge, ctx, slip } = setup({ online: false });
    await quoted(slip);
    expect(slip.placeProblem).toMatch(/^Offline: .*Nothing is queued/);
    await slip.place();
    ctx.online = true;
    await settle();
    expect(bridge.inputs('order:place')).toHaveLength(0);
  });

  test('main’s refusal is shown in its words, and the bet is not placed', async () => {
    const { bridge, slip } = setup();
    bridge.fail('order:place', {
      kind: 'exchange',
      code: ErrorCodes.OPPOSITE_HELD,
      message: 'The opposite outcome is held; close it before betting this one.',
    });
    await quoted(slip);
    await slip.place();
    expect(slip.failure).toEqual({
      kind: 'exchange',
      message: 'The opposite outcome is held; close it before betting this one.',
      retryAt: null,
    });
    expect(slip.order).toBeNull();
  });

  test('rate-limited says when it may be tried again, and the retry is the same bet', async () => {
    const { bridge, clock, slip, placed } = setup();
    rateLimited(bridge, 5000);
    await quoted(slip);
    await slip.place();
    expect(slip.retryInMs).toBe(5000);
    expect(slip.placeProblem).toMatch(/try again in 5 s/);
    clock.now = NOW + 5000;
    expect(slip.canPlace).toBe(true);
    bridge.answer('order:place', () => placed());
    await slip.place();
    const [first, second] = bridge.inputs('order:place');
    expect(second?.clientOrderId).toBe(first?.clientOrderId);
  });

  test('a lost answer asks main what became of the bet, and a retry repeats the same bet', async () => {
    const { bridge, slip, placed } = setup();
    bridge.fail('order:place', {
      kind: 'internal',
      message: 'Betdesk lost its connection to its background service before it answered.',
    });
    bridge.answer('orders:get', { row: null });
    await quoted(slip);
    await slip.place();
    expect(bridge.inputs('orders:get')).toEqual([{ clientOrderId: 'bd-test-1' }]);
    expect(slip.failure?.kind).toBe('internal');
    bridge.answer('order:place', () => placed());
    await slip.place();
    expect(bridge.inputs('order:place').map((i) => i.clientOrderId)).toEqual([
      'bd-test-1',
      'bd-test-1',
    ]);
  });

  test('when the lost answer’s order did go through, the slip shows it instead of retrying', async () => {
    const { bridge, slip } = setup();
    bridge.fail('order:place', { kind: 'offline', message: 'The exchange cannot be reached.' });
    bridge.answer('orders:get', {
      row: orderRow({ clientOrderId: 'bd-test-1', status: 'CHECKING' }),
    });
    await quoted(slip);
    await slip.place();
    expect(slip.status).toBe('CHECKING');
    expect(slip.canPlace).toBe(false);
  });
});

describe('an answer lost with Betdesk’s service', () => {
  const lostAnswer = {
    kind: 'internal',
    message: 'Betdesk lost its connection to its background service before it answered.',
  } as const;
  const serviceGone = {
    kind: 'offline',
    message: 'Betdesk’s background service is not answering, so nothing was sent.',
  } as const;

  /**
   * A bet placed as main goes away: its answer is lost (`onPlace` says how; by default the call
   * fails at once), and main cannot be asked about it.
   */
  async function placedAndLost(onPlace?: (app: TestSlipContext, bridge: FakeBridge) => never) {
    const s = setup();
    s.slip.start();
    if (onPlace) s.bridge.answer('order:place', () => onPlace(s.ctx, s.bridge));
    else s.bridge.fail('order:place', lostAnswer);
    s.bridge.fail('orders:get', serviceGone);
    await quoted(s.slip);
    await s.slip.place();
    return s;
  }

  test('is Checking… while main is asked, and Not known yet when it cannot be: never a retry', async () => {
    const { bridge, ctx, slip } = setup();
    slip.start();
    bridge.fail('order:place', lostAnswer);
    const asked = deferred<{ row: OrderRow | null }>();
    bridge.answer('orders:get', () => asked.promise);
    await quoted(slip);
    const placing = slip.place();
    await settle();
    expect(slip.status).toBe('CHECKING');
    expect(slip.failureAdvice).toMatch(/^Checking… /);
    ctx.connected = false;
    ctx.online = false;
    asked.reject(new BridgeFailure(serviceGone));
    await placing;
    expect(slip.status).toBeNull();
    expect(slip.failureAdvice).toBe('Not known yet: see Orders when Betdesk is back.');
    expect(slip.placeProblem).toMatch(/^Not known yet: see Orders when Betdesk is back\. /);
    expect(slip.placeNote).toBe(slip.placeProblem);
    expect(slip.refusalMessage).toBeNull();
    const said = [slip.failureAdvice, slip.placeNote, slip.refusalMessage].join(' ');
    expect(said).not.toMatch(/again|retry/i);
    expect(slip.fateUnknown).toBe(true);
    expect(slip.canPlace).toBe(false);
    await slip.place();
    expect(bridge.inputs('order:place')).toHaveLength(1);
  });

  test('a Sending… row main pushed before it went away does not hide that the bet is not known', async () => {
    const { slip } = await placedAndLost((app, bridge) => {
      pushRows(bridge, [
        orderRow({ clientOrderId: 'bd-test-1', status: 'SENDING', orderId: null }),
      ]);
      app.connected = false;
      throw new BridgeFailure(lostAnswer);
    });
    expect(slip.status).toBeNull();
    expect(slip.placeNote).toMatch(/^Not known yet: see Orders when Betdesk is back\. /);
    expect(slip.failureAdvice).toBe('Not known yet: see Orders when Betdesk is back.');
  });

  test('a new quote meanwhile is still blocked until the last bet is known', async () => {
    const { slip } = await placedAndLost();
    await slip.request();
    expect(slip.canPlace).toBe(false);
    expect(slip.placeProblem).toMatch(/^Not known yet/);
  });

  test('once Betdesk is back the slip asks again and shows what became of the bet', async () => {
    // The socket closes (the app sees it first), then the call in flight is answered as lost.
    const { bridge, ctx, slip } = await placedAndLost((app) => {
      app.connected = false;
      throw new BridgeFailure(lostAnswer);
    });
    expect(slip.refusalMessage).toBeNull();
    expect(slip.placeProblem).toMatch(/^Not known yet/);
    bridge.answer('orders:get', {
      row: orderRow({ clientOrderId: 'bd-test-1', status: 'FILLED' }),
    });
    ctx.connected = true;
    bridge.setConnected(true);
    await settle();
    expect(bridge.inputs('orders:get')).toHaveLength(2);
    expect(slip.status).toBe('FILLED');
    expect(slip.fateUnknown).toBe(false);
    expect(slip.placeProblem).toMatch(/has been placed/);
  });

  test('a push of the bet’s row settles it too', async () => {
    const { bridge, slip } = await placedAndLost();
    pushRows(bridge, [orderRow({ clientOrderId: 'bd-test-1', status: 'CHECKING' })]);
    expect(slip.status).toBe('CHECKING');
    expect(slip.placeProblem).toMatch(/still being checked/);
  });
});

describe('closing a position', () => {
  const held = position({ contracts: 10, value: '6.00', pnl: '1.00', costBasis: '5.10' });

  test('Close prefills a SELL of every contract, in contracts, without boost', async () => {
    const { bridge, slip } = setup({ positions: [held] });
    slip.closePosition(held);
    expect(slip.side).toBe('SELL');
    expect(slip.qty).toBe('10');
    slip.boost = 50;
    slip.unit = 'QUOTE';
    bridge.answer(
      'quote:request',
      quoteResult({ isOpen: false, contracts: 10, entryPrice: '0.58' }),
    );
    await slip.request();
    expect(bridge.inputs('quote:request')).toEqual([
      { contractId: 'EPL-ARSCHE', outcome: 'ARS', side: 'SELL', qty: '10', unit: 'BASE', boost: 0 },
    ]);
  });

  test('a SELL quote shows the estimated proceeds and the P&L the close locks in', async () => {
    const { bridge, slip } = setup({ positions: [held] });
    slip.closePosition(held);
    slip.qty = '4';
    bridge.answer(
      'quote:request',
      quoteResult({ isOpen: false, contracts: 4, entryPrice: '0.58' }),
    );
    await slip.request();
    expect(slip.closeEstimate).toMatchObject({ contracts: 4, proceeds: '2.29', pnl: '0.25' });
    expect(slip.placeLabel).toBe('Place bet · Sell 4 contracts · about $2.29');
  });

  test('selling what is no longer held is refused', () => {
    const { ctx, slip } = setup({ positions: [held] });
    slip.closePosition(held);
    ctx.positions = [];
    expect(slip.refusal?.message).toBe('Nothing is held on ARS in ARS v CHE to sell.');
  });

  test('picking an outcome after a close starts a fresh BUY', () => {
    const { slip } = setup({ positions: [held] });
    slip.closePosition(held);
    slip.select(fixture(), 'ARS');
    expect(slip.side).toBe('BUY');
    expect(slip.qty).toBe('');
  });
});

describe('the size', () => {
  test('says why a size cannot be quoted', () => {
    const { slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.qty = '1e3';
    expect(slip.sizeProblem).toBe(
      'Write the number out in full, without an exponent (“e”): like 25.',
    );
    slip.qty = '2.5';
    expect(slip.sizeProblem).toBe('Whole contracts only: enter 2 or 3.');
    slip.unit = 'QUOTE';
    expect(slip.sizeProblem).toBeNull();
    expect(slip.canRequest).toBe(true);
  });

  test('a size that can mean one number only is taken, said as read, and sent as read', async () => {
    const { bridge, slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.qty = '00012';
    expect(slip.sizeProblem).toBeNull();
    expect(slip.sizeNote).toBe('Read as 12 contracts.');
    await slip.request();
    slip.qty = '12,000';
    expect(slip.sizeNote).toBe('Read as 12,000 contracts.');
    slip.unit = 'QUOTE';
    slip.qty = '.5';
    expect(slip.sizeNote).toBe('Read as $0.50.');
    await slip.request();
    expect(bridge.inputs('quote:request').map((i) => [i.qty, i.unit])).toEqual([
      ['12', 'BASE'],
      ['0.5', 'QUOTE'],
    ]);
  });

  test('dollars beyond the cent are refused before quoting, never sent as typed', async () => {
    const { bridge, slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.unit = 'QUOTE';
    slip.qty = '5.555';
    expect(slip.sizeProblem).toBe('Dollars go to the cent: enter 5.55 or 5.56.');
    expect(slip.canRequest).toBe(false);
    await slip.request();
    expect(bridge.inputs('quote:request')).toHaveLength(0);
  });

  test('the fixture’s lots and minimum are said before quoting, and a size below it refused', async () => {
    const { bridge, slip } = setup();
    slip.select(fixture({ lotSize: 5, minContracts: 10 }), 'ARS');
    expect(slip.lotsNote).toBe('Lots of 5 contracts; the smallest bet is 10 contracts.');
    slip.qty = '7';
    expect(slip.sizeProblem).toBe(
      'Too small: the smallest bet on ARS v CHE is 10 contracts (lots of 5 contracts).',
    );
    expect(slip.canRequest).toBe(false);
    slip.qty = '12';
    expect(slip.sizeProblem).toBeNull();
    expect(slip.sizeNote).toBe('Rounds to 10 contracts: ARS v CHE trades in lots of 5 contracts.');
    await slip.request();
    expect(bridge.inputs('quote:request').map((i) => i.qty)).toEqual(['12']);
  });

  test('a close is said in lots only, and one that comes to no contracts is refused', () => {
    const held = position({ contracts: 10 });
    const { ctx, slip } = setup({ positions: [held] });
    ctx.fixture = () => ({ ...fixtureRef(), lotSize: 5, minContracts: 10 });
    slip.closePosition(held);
    expect(slip.lotsNote).toBe('Sold in lots of 5 contracts.');
    slip.qty = '3';
    expect(slip.sizeProblem).toBe('Too small: ARS v CHE is sold in lots of 5 contracts.');
    slip.qty = '7';
    expect(slip.sizeNote).toBe('Sells 5 contracts: ARS v CHE trades in lots of 5 contracts.');
  });
});

describe('another pick is another bet', () => {
  test('picking another fixture discards the quote and its bet, and the boost with it', async () => {
    const { bridge, slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.qty = '25';
    slip.boost = 40;
    await slip.request();
    expect(slip.quote).not.toBeNull();
    slip.select(fixture({ contractId: 'EPL-LIVMCI', homeTeam: 'LIV', awayTeam: 'MCI' }), 'LIV');
    expect(slip.quote).toBeNull();
    expect(slip.clientOrderId).toBeNull();
    expect(slip.boost).toBe(0);
    expect(slip.qty).toBe('25');
    await slip.request();
    expect(bridge.inputs('quote:request').at(-1)).toMatchObject({
      contractId: 'EPL-LIVMCI',
      outcome: 'LIV',
      boost: 0,
    });
  });

  test('the other outcome of the same fixture starts without the boost too', () => {
    const { slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.boost = 40;
    slip.select(fixture(), 'CHE');
    expect(slip.boost).toBe(0);
  });

  test('picking the same outcome again keeps the boost but asks for a new quote', async () => {
    const { slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.qty = '25';
    slip.boost = 40;
    await slip.request();
    slip.select(fixture(), 'ARS');
    expect(slip.boost).toBe(40);
    expect(slip.quote).toBeNull();
  });

  test('another pick goes back to a quoted (fill or kill) price and forgets the last order', async () => {
    const { slip } = setup();
    await quoted(slip);
    slip.kind = 'MARKET';
    await slip.place();
    expect(slip.order).not.toBeNull();
    slip.select(fixture(), 'CHE');
    expect(slip.kind).toBe('FOK');
    expect(slip.order).toBeNull();
    expect(slip.status).toBeNull();
  });

  test('clearing the slip forgets the pick, the boost and the quote', async () => {
    const { slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.qty = '25';
    slip.boost = 30;
    await slip.request();
    slip.clear();
    expect(slip.selection).toBeNull();
    expect(slip.boost).toBe(0);
    expect(slip.quote).toBeNull();
    expect(slip.placeProblem).toBe('Pick an outcome first.');
  });
});

describe('the terms', () => {
  test('the size, the unit and the boost each discard the quote shown', async () => {
    const { slip } = setup();
    await quoted(slip);
    slip.boost = 10;
    expect(slip.quote).toBeNull();
    await slip.request();
    slip.unit = 'QUOTE';
    expect(slip.quote).toBeNull();
  });

  test('the boost is a whole number from 0 to 100', () => {
    const { slip } = setup();
    slip.select(fixture(), 'ARS');
    slip.boost = 140;
    expect(slip.boost).toBe(100);
    slip.boost = -3;
    expect(slip.boost).toBe(0);
    slip.boost = 12.6;
    expect(slip.boost).toBe(13);
  });

  test('a close cannot be boosted nor sized in dollars', () => {
    const { slip } = setup({ positions: [position({ contracts: 10 })] });
    slip.closePosition(position({ contracts: 10 }));
    slip.boost = 50;
    slip.unit = 'QUOTE';
    expect(slip.boost).toBe(0);
    expect(slip.unit).toBe('BASE');
  });

  test('no terms, and no quote, without a valid size', async () => {
    const { bridge, slip } = setup();
    slip.select(fixture(), 'ARS');
    expect(slip.terms).toBeNull();
    slip.qty = '-2';
    expect(slip.canRequest).toBe(false);
    await slip.request();
    expect(bridge.inputs('quote:request')).toHaveLength(0);
  });

  test('a failed quote request says why, and the next request clears it', async () => {
    const { bridge, slip } = setup();
    bridge.fail('quote:request', { kind: 'exchange', message: 'No price for this outcome.' });
    await quoted(slip);
    expect(slip.quoteError).toBe('No price for this outcome.');
    expect(slip.clientOrderId).toBeNull();
    bridge.answer('quote:request', quoteResult());
    await slip.request();
    expect(slip.quoteError).toBeNull();
    expect(slip.clientOrderId).not.toBeNull();
  });
});

describe('what the slip shows', () => {
  test('the countdown counts whole seconds by the exchange’s clock', async () => {
    const { clock, slip } = setup();
    await quoted(slip);
    expect(slip.secondsLeft).toBe(30);
    clock.now = NOW + 10_500;
    expect(slip.secondsLeft).toBe(20);
  });

  test('Place is off while the confirmation step is open, and Confirm is off once the quote expires', async () => {
    const { clock, slip } = setup({ oneClick: false });
    await quoted(slip);
    expect(slip.placeNote).toMatch(/^You will confirm the stake/);
    await slip.place();
    expect(slip.canPlace).toBe(false);
    clock.now += CONFIRM_ARM_MS;
    expect(slip.canConfirm).toBe(true);
    clock.now = NOW + 31_000;
    expect(slip.canConfirm).toBe(false);
  });

  test('the note under Place says what it will do, or why it is off', async () => {
    const { ctx, slip } = setup();
    await quoted(slip);
    expect(slip.placeNote).toBe('One-click betting is on: Place sends the bet at once.');
    ctx.canTrade = false;
    expect(slip.refusalMessage).toMatch(/may only read/);
    expect(slip.placeNote).toBe('Place is off until that changes.');
    ctx.canTrade = true;
    await slip.place();
    expect(slip.placeNote).toBe('Placed. Request a new quote to bet again.');
    ctx.canTrade = false;
    expect(slip.refusal).not.toBeNull();
    expect(slip.refusalMessage).toBeNull();
  });

  test('a failure says what can be done about it', async () => {
    const { bridge, clock, slip } = setup();
    rateLimited(bridge, 4200);
    await quoted(slip);
    await slip.place();
    expect(slip.failureAdvice).toBe('You can try again in 5 s.');
    clock.now = NOW + 5000;
    expect(slip.failureAdvice).toBe('You can try again now.');
    bridge.fail('order:place', { kind: 'offline', message: 'The exchange cannot be reached.' });
    bridge.answer('orders:get', { row: null });
    await slip.place();
    expect(slip.failureAdvice).toMatch(/^Nothing was sent/);
  });

  test('a rate-limit wait outlives a change of size: the next quote still waits', async () => {
    const { bridge, slip } = setup();
    rateLimited(bridge, 5000);
    await quoted(slip);
    await slip.place();
    slip.qty = '30';
    expect(slip.failure?.kind).toBe('rate-limited');
    await slip.request();
    expect(slip.placeProblem).toMatch(/try again in 5 s/);
  });

  test('Ctrl/Cmd+Enter presses Place, then Confirm once the step has been open long enough', async () => {
    const { bridge, clock, slip } = setup({ oneClick: false });
    await quoted(slip);
    await slip.placeOrConfirm();
    expect(slip.confirming).toBe(true);
    clock.now += CONFIRM_ARM_MS;
    await slip.placeOrConfirm();
    expect(bridge.inputs('order:place')).toHaveLength(1);
  });

  test('a second Ctrl/Cmd+Enter 150 or 250 ms after the first cannot skip the confirmation', async () => {
    const { bridge, clock, slip } = setup({ oneClick: false });
    await quoted(slip);
    const opened = clock.now;
    await slip.placeOrConfirm();
    for (const after of [150, 250, CONFIRM_ARM_MS - 1]) {
      clock.now = opened + after;
      expect(slip.canConfirm).toBe(false);
      await slip.placeOrConfirm();
      await slip.confirm();
    }
    expect(slip.confirming).toBe(true);
    expect(bridge.inputs('order:place')).toHaveLength(0);
    clock.now = opened + CONFIRM_ARM_MS;
    expect(slip.canConfirm).toBe(true);
    await slip.placeOrConfirm();
    expect(bridge.inputs('order:place')).toHaveLength(1);
  });

  test('with Betdesk’s service gone, Confirm is off and says why in words', async () => {
    const { bridge, clock, ctx, slip } = setup({ oneClick: false });
    await quoted(slip);
    await slip.place();
    clock.now += CONFIRM_ARM_MS;
    expect(slip.confirmProblem).toBeNull();
    ctx.connected = false;
    ctx.online = false;
    expect(slip.canConfirm).toBe(false);
    expect(slip.confirmProblem).toMatch(/^Betdesk’s background service is not answering/);
    await slip.confirm();
    expect(bridge.inputs('order:place')).toHaveLength(0);
  });
});
