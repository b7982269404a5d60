/**
 * A wallet's betting history made fast, straight through the sandbox's domain (no HTTP, no rate
 * limits): fixtures of their own, each traded the way a bettor does — bets bought and sold
 * again (CLOSED), a bet sold in two halves, a bet held until the fixture resolves (SETTLEMENT)
 * and, on every fourth fixture, a boosted bet knocked out (KNOCKED_OUT). About one settlement
 * row for every two orders. Used by the history sweep's tests and bench/history-sync.ts.
 */
import type { ExchangeDomain } from '../../../src/exchange/domain/index.js';
import type { OrderRequest } from '../../../src/shared/api/schemas.js';

export interface MadeHistory {
  orders: number;
  fixtures: number;
}

let made = 0;

/** Places exactly `orders` orders for `wallet`, every one final (FILLED) when it returns. */
export async function makeHistory(
  domain: ExchangeDomain,
  wallet: string,
  orders: number,
): Promise<MadeHistory> {
  let placed = 0;
  let fixtures = 0;
  const place = async (req: OrderRequest): Promise<void> => {
    await domain.placeOrder(wallet, req);
    // Brings the order's block now, so the next order sees it filled.
    domain.advanceClock(0);
    placed += 1;
  };
  while (placed < orders) {
    made += 1;
    fixtures += 1;
    const f = domain.createFixture({
      homeTeam: `H${letters(made)}`,
      awayTeam: `A${letters(made)}`,
      league: `LEAGUE${made % 3}`,
    });
    const bet = (side: 'BUY' | 'SELL', contracts: number, boost = 0): OrderRequest => ({
      orderType: 'MARKET',
      legs: [
        {
          contractId: f.contractId,
          outcome: f.homeTeam,
          side,
          market: 'DRAW_NO_BET',
          ...(boost > 0 ? { boost } : {}),
        },
      ],
      qty: String(contracts),
      marketUnit: 'BASE',
    });
    for (let i = 0; i < 12 && placed + 2 <= orders; i++) {
      const contracts = 2 + (i % 5);
      await place(bet('BUY', contracts));
      await place(bet('SELL', contracts));
    }
    if (placed + 3 <= orders) {
      await place(bet('BUY', 6));
      await place(bet('SELL', 3));
      await place(bet('SELL', 3));
    }
    if (placed < orders) await place(bet('BUY', 3));
    if (made % 4 === 0 && placed < orders) {
      await place(bet('BUY', 40, 50));
      domain.setPrice(f.contractId, f.homeTeam, '0.1');
    }
    domain.resolveFixture(f.contractId, f.homeTeam);
  }
  return { orders: placed, fixtures };
}

/** Three letters for n (AAA, AAB, ...): team names of 2 to 4 letters. */
function letters(n: number): string {
  const k = n % 17_576;
  return String.fromCharCode(
    65 + Math.floor(k / 676),
    65 + (Math.floor(k / 26) % 26),
    65 + (k % 26),
  );
}
