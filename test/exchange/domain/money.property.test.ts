/**
 * Every bet adds up, in the domain (issue 28): random buys (boost 0 to 100, several lots), sells,
 * index moves, knockouts, closes of betting and resolutions; after every step each position's
 * value, pnl, pnlPercent and costBasis agree with its lots, and every position's settlement rows
 * add up to the money that moved (test/exchange/bets-add-up.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/exchange/domain/errors.js';
import type { ExchangeDomain } from '../../../src/exchange/domain/contract.js';
import { noReach, play, runs, type Driver } from '../bets-add-up.js';
import { BLOCK_MS, domain } from './helpers.js';

let teams = 0;

function domainDriver(d: ExchangeDomain): Driver {
  const w = d.createWallet();
  return {
    market(homePrice) {
      const n = teams++;
      const f = d.createFixture({
        homeTeam: `H${name(n)}`,
        awayTeam: `A${name(n)}`,
        league: 'Money',
      });
      d.setPrice(f.contractId, f.homeTeam, homePrice);
      return Promise.resolve({ contractId: f.contractId, home: f.homeTeam, away: f.awayTeam });
    },
    async order(m, outcome, side, contracts, boost) {
      try {
        const o = await d.placeOrder(w, {
          orderType: 'MARKET',
          legs: [
            {
              contractId: m.contractId,
              outcome,
              side,
              market: 'DRAW_NO_BET',
              ...(side === 'BUY' ? { boost } : {}),
            },
          ],
          qty: String(contracts),
          marketUnit: 'BASE',
        });
        d.advanceClock(BLOCK_MS);
        return d.getOrder(w, { orderId: o.orderId });
      } catch (e) {
        if (e instanceof ApiError) return undefined;
        throw e;
      }
    },
    setPrice: (m, outcome, indexPrice) =>
      Promise.resolve(d.setPrice(m.contractId, outcome, indexPrice).knockedOut),
    closeBetting: (m) => Promise.resolve(void d.closeFixture(m.contractId)),
    resolve: (m, winner) => Promise.resolve(void d.resolveFixture(m.contractId, winner)),
    positions: () => Promise.resolve(d.positions(w, { limit: 100 }).positions),
    settlements: (m, outcome) =>
      Promise.resolve(
        d.settlements(w, { contractId: m.contractId, team: outcome, limit: 100 }).settlements,
      ),
  };
}

/** Three letters for the n-th fixture, so every run has markets of its own. */
function name(n: number): string {
  return [2, 1, 0].map((i) => String.fromCharCode(65 + (Math.floor(n / 26 ** i) % 26))).join('');
}

describe('every bet adds up (domain)', () => {
  it('keeps value, pnl, pnlPercent and costBasis true to the lots, and the rows to the money', async () => {
    const d = await domain();
    const reach = noReach();
    await fc.assert(
      fc.asyncProperty(runs, (run) => play(domainDriver(d), run, reach)),
      { seed: 42, numRuns: 300 },
    );
    // The runs reach what they are meant to check, not only refusals.
    expect(reach.boostedBuys).toBeGreaterThan(200);
    for (const n of [reach.fullCloses, reach.knockedRows, reach.closedRows, reach.settlementRows])
      expect(n).toBeGreaterThan(50);
  });
});
