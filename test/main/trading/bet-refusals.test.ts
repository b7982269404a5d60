/**
 * The exchange's refusals of a bet's rules (docs/api.md 2.2, 2.4; -1102 naming qty or boost),
 * through the real sandbox over HTTP: each reaches the user as a sentence, never the API's raw
 * `qty: ...` text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBridgeError } from '../../../src/main/ipc/errors.js';
import { BetRefusedError } from '../../../src/main/trading/index.js';
import { ErrorCodes } from '../../../src/shared/api/errors.js';
import type { Fixture } from '../../../src/shared/api/schemas.js';
import { buy, openDesk, type Desk } from './support.js';

let desk: Desk;
/** A seeded fixture of lots of 5 and a minimum of 10 contracts. */
let lots: Fixture;

beforeAll(async () => {
  desk = await openDesk();
  const found = desk.fixtures.find((f) => f.lotSize === 5 && f.minContracts === 10);
  if (!found) throw new Error('the seed has no fixture with lots of 5');
  lots = found;
});

afterAll(async () => {
  await desk.close();
});

async function refusal(p: Promise<unknown>): Promise<BetRefusedError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof BetRefusedError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

/** What the slip shows of a quote refused so: the bridge's message. */
function shown(err: unknown): string {
  return toBridgeError(err).message;
}

describe('a quote refused for a rule of the bet is said in words', () => {
  it('below the smallest bet, counted in contracts or bought with dollars', async () => {
    const small = await refusal(desk.trading.quote(buy(lots, '3')));
    expect(small.reason).toBe('below-minimum');
    expect(small.code).toBe(ErrorCodes.BAD_PARAMETER);
    expect(shown(small)).toBe(
      'Too small: that size comes to 5 contracts, and the smallest bet on this market is 10 contracts. Enter a larger size.',
    );
    const cheap = await refusal(desk.trading.quote(buy(lots, '0.01', { unit: 'QUOTE' })));
    expect(shown(cheap)).toBe(
      'Too small: that amount buys no contracts, and the smallest bet on this market is 10 contracts. Enter a larger size.',
    );
  });

  it('more than the exchange takes', async () => {
    const big = await refusal(desk.trading.quote(buy(lots, '5000000')));
    expect(big.reason).toBe('over-capacity');
    expect(shown(big)).toMatch(
      new RegExp(
        `^Too large: the exchange's capacity on ${lots.homeTeam} is \\d+ contracts more now\\. Enter a smaller size\\.$`,
      ),
    );
  });

  it('a close that comes to no contracts', async () => {
    const filled = await desk.trading.trade({ type: 'MARKET', ...buy(lots, '10') });
    expect(filled.status).toBe('FILLED');
    const none = await refusal(desk.trading.quote({ ...buy(lots, '2'), side: 'SELL' }));
    expect(none.reason).toBe('no-contracts');
    expect(shown(none)).toBe(
      'Too small: this market trades in lots of 5 contracts, so that size comes to no contracts.',
    );
  });

  it('a boost whose knockout would reach the index price', async () => {
    const f = await desk.newFixture();
    await desk.sandbox.admin('POST', `/fixtures/${f.contractId}/price`, {
      outcome: f.homeTeam,
      indexPrice: '0.05',
    });
    const high = await refusal(desk.trading.quote(buy(f, '10', { boost: 100 })));
    expect(high.reason).toBe('knockout-at-index');
    expect(shown(high)).toMatch(
      /^That boost is too high at this price: its knockout \(0\.\d+\) would be at or above the index price \(0\.05\d*\)\. Choose a smaller boost\.$/,
    );
  });

  it('an order the exchange refuses so is not placed, and its reason is the same sentence', async () => {
    const out = await desk.trading.placeOrder({ type: 'MARKET', ...buy(lots, '3') });
    expect(out.status).toBe('NOT_PLACED');
    expect(out.error?.message).toBe(
      'Too small: that size comes to 5 contracts, and the smallest bet on this market is 10 contracts. Enter a larger size.',
    );
  });
});
