/**
 * Every bet adds up, over HTTP against the sandbox (issue 28): the same random runs as the
 * domain's property test (test/exchange/bets-add-up.ts), fewer of them, with orders, positions and
 * settlements read through the signed API on a real socket and prices set through the control API.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Position, Settlement } from '../../../src/shared/api/schemas.js';
import { noReach, play, runs, type Driver } from '../bets-add-up.js';
import { startSandbox, type Sandbox } from '../harness.js';

const BLOCK_MS = 1000;
let sb: Sandbox;
let teams = 0;

beforeAll(async () => {
  sb = await startSandbox({ rateLimits: false, blockMs: BLOCK_MS });
});
afterAll(async () => sb.close());

/** Three letters for the n-th fixture, so every run has markets of its own. */
function name(n: number): string {
  return [2, 1, 0].map((i) => String.fromCharCode(65 + (Math.floor(n / 26 ** i) % 26))).join('');
}

async function httpDriver(): Promise<Driver> {
  const key = await sb.newKey({ permission: 'trade' });
  return {
    async market(homePrice) {
      const n = teams++;
      const f = await sb.admin<{ contractId: string; homeTeam: string; awayTeam: string }>(
        'POST',
        '/fixtures',
        { homeTeam: `H${name(n)}`, awayTeam: `A${name(n)}`, league: 'Money' },
      );
      await sb.admin('POST', `/fixtures/${f.contractId}/price`, {
        outcome: f.homeTeam,
        indexPrice: homePrice,
      });
      return { contractId: f.contractId, home: f.homeTeam, away: f.awayTeam };
    },
    async order(m, outcome, side, contracts, boost) {
      const leg = { contractId: m.contractId, outcome, side, market: 'DRAW_NO_BET' };
      const placed = await sb.signed<Order>(key, 'POST', '/order', {
        body: {
          orderType: 'MARKET',
          legs: [side === 'BUY' ? { ...leg, boost } : leg],
          qty: String(contracts),
          marketUnit: 'BASE',
        },
      });
      // A refusal before the broadcast is a 4xx, or 503 for betting closed (-2019).
      if (placed.status !== 202) {
        const { code } = placed.body as unknown as { code: number };
        expect(placed.status < 500 || code === -2019, placed.text).toBe(true);
        return undefined;
      }
      await sb.advanceClock(BLOCK_MS);
      const res = await sb.signed<Order>(key, 'GET', '/order', {
        query: { orderId: placed.body.orderId },
      });
      return res.body;
    },
    async setPrice(m, outcome, indexPrice) {
      const res = await sb.admin<{ knockedOut: number }>(
        'POST',
        `/fixtures/${m.contractId}/price`,
        { outcome, indexPrice },
      );
      return res.knockedOut;
    },
    closeBetting: async (m) => void (await sb.admin('POST', `/fixtures/${m.contractId}/close`)),
    resolve: async (m, winner) =>
      void (await sb.admin('POST', `/fixtures/${m.contractId}/resolve`, { winner })),
    async positions() {
      const res = await sb.signed<{ positions: Position[] }>(key, 'GET', '/positions', {
        query: { limit: 100 },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.positions;
    },
    async settlements(m, outcome) {
      const res = await sb.signed<{ settlements: Settlement[] }>(key, 'GET', '/settlements', {
        query: { contractId: m.contractId, team: outcome, limit: 100 },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.settlements;
    },
  };
}

describe('every bet adds up (over HTTP)', () => {
  it('keeps value, pnl, pnlPercent and costBasis true to the lots, and the rows to the money', async () => {
    const reach = noReach();
    await fc.assert(
      fc.asyncProperty(runs, async (run) => play(await httpDriver(), run, reach)),
      { seed: 42, numRuns: 80 },
    );
    expect(reach.boostedBuys).toBeGreaterThan(20);
    for (const n of [reach.fullCloses, reach.knockedRows, reach.closedRows, reach.settlementRows])
      expect(n).toBeGreaterThan(5);
  });
});
