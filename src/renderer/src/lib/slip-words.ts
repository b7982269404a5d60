/**
 * What the slip says before anything is sent: the known refusals (what the app already knows
 * the exchange would refuse) and the Place button's words for what will happen.
 */
import type { FixtureRef, PositionRow } from '../../../shared/ipc/contract.js';
import { count, money } from './format.js';

export interface Refusal {
  message: string;
  /** A quote would be pointless too (a closed fixture, the other outcome held, nothing held). */
  blocksQuote: boolean;
}

export interface RefusalFacts {
  contractId: string;
  outcome: string;
  side: 'BUY' | 'SELL';
  /** The fixture as the app knows it now, or null when it does not. */
  fixture: FixtureRef | null;
  fixtureName: string;
  positions: readonly PositionRow[];
  canTrade: boolean;
  online: boolean;
}

export function knownRefusal(f: RefusalFacts): Refusal | null {
  if (f.fixture && (!f.fixture.bettingOpen || f.fixture.status !== 'OPEN')) {
    return {
      message: `Betting on ${f.fixtureName} is closed, so the exchange would refuse this bet.`,
      blocksQuote: true,
    };
  }
  const onFixture = f.positions.filter((p) => p.contractId === f.contractId && p.contracts > 0);
  if (f.side === 'BUY') {
    const opposite = onFixture.find((p) => p.outcome !== f.outcome);
    if (opposite) {
      return {
        message: `You hold ${opposite.outcome} on ${f.fixtureName}. The exchange refuses a bet on the other outcome while one is held: close ${opposite.outcome} first.`,
        blocksQuote: true,
      };
    }
  } else if (!onFixture.some((p) => p.outcome === f.outcome)) {
    return {
      message: `Nothing is held on ${f.outcome} in ${f.fixtureName} to sell.`,
      blocksQuote: true,
    };
  }
  if (!f.canTrade) {
    return {
      message:
        'This account’s API key may only read, so it cannot place bets. Add a key with trade permission to bet.',
      blocksQuote: false,
    };
  }
  if (!f.online) {
    return {
      message:
        'Offline: Betdesk cannot reach the exchange now, so nothing can be placed. Nothing is queued to send later; place the bet again once Betdesk is back online.',
      blocksQuote: false,
    };
  }
  return null;
}

export interface PlaceFacts {
  side: 'BUY' | 'SELL';
  kind: 'FOK' | 'MARKET';
  /** The quote's contracts and cost (a close quote has no cost). */
  contracts: number;
  cost: string | undefined;
  /** A close: its estimated proceeds. */
  proceeds: string | undefined;
  /** A market bet sized in dollars: the cap. */
  dollars: string | undefined;
}

function contractsText(n: number): string {
  return `${count(n)} contract${n === 1 ? '' : 's'}`;
}

/** "Place bet · 25 contracts · $24.00", "Place bet · Market · up to $25.00", … */
export function placeLabel(f: PlaceFacts): string {
  const n = contractsText(f.contracts);
  if (f.side === 'SELL') {
    const about = f.proceeds ? ` · about ${money(f.proceeds)}` : '';
    return f.kind === 'FOK'
      ? `Place bet · Sell ${n}${about}`
      : `Place bet · Market · sell ${n}${about}`;
  }
  if (f.kind === 'FOK') return `Place bet · ${n} · ${money(f.cost)}`;
  if (f.dollars !== undefined) return `Place bet · Market · up to ${money(f.dollars)}`;
  return `Place bet · Market · ${n} · about ${money(f.cost)}`;
}
