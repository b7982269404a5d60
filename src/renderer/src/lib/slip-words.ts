/**
 * What the slip says: the known refusals (what the app already knows the exchange would refuse),
 * why Place cannot send, the Place button's words for what will happen, and the advice under a
 * failure. Pure functions of the facts the slip state hands them.
 */
import type {
  BridgeErrorKind,
  FixtureRef,
  OrderRowStatus,
  PositionRow,
} from '../../../shared/ipc/contract.js';
import { isFinalRowStatus } from '../../../shared/rules/status.js';
import { contractCount, money } from './format.js';

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
  /** Betdesk's own service answers. */
  connected: boolean;
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
  if (!f.connected) {
    return {
      message:
        'Betdesk’s background service is not answering, so nothing can be placed. Nothing is queued to send later; place the bet again once Betdesk is back.',
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

/** "Place bet · 25 contracts · $24.00", "Place bet · Market · up to $25.00", … */
export function placeLabel(f: PlaceFacts): string {
  const n = contractCount(f.contracts);
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

/** Why Place cannot send, in the order the user can do something about it. */
export type PlaceBlock =
  | { kind: 'no-pick' }
  | { kind: 'placed'; status: OrderRowStatus }
  | { kind: 'not-known'; checking: boolean }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'checking' }
  | { kind: 'no-quote' }
  | { kind: 'expired' }
  | { kind: 'rate-limited'; retryInMs: number };

export function placeProblemText(block: PlaceBlock): string {
  switch (block.kind) {
    case 'no-pick':
      return 'Pick an outcome first.';
    case 'placed':
      return wentNowhere(block.status)
        ? 'This bet did not go through, so nothing was bought or sold (the reason is below). Request a new quote to try again.'
        : 'This bet has been placed. Request a new quote to bet again.';
    case 'not-known':
      return block.checking
        ? 'Checking… Betdesk is finding out whether your last bet was placed. Place is off until it knows, so the bet cannot be placed twice.'
        : `${NOT_KNOWN_YET} Place is off until then, so the bet cannot be placed twice.`;
    case 'refused':
      return block.refusal.message;
    case 'checking':
      return 'Your last bet from this slip is still being checked with the exchange. Wait for its result before placing another, so it cannot become a double bet.';
    case 'no-quote':
      return 'Request a quote first.';
    case 'expired':
      return 'This quote has expired; request a new one.';
    case 'rate-limited':
      return `The exchange’s order limit is spent for now: try again in ${Math.ceil(block.retryInMs / 1000)} s.`;
  }
}

export interface PlaceNoteFacts {
  block: PlaceBlock | null;
  oneClick: boolean;
  side: 'BUY' | 'SELL';
}

/** What the slip says of a bet whose answer was lost while Betdesk's service is away. */
const NOT_KNOWN_YET = 'Not known yet: see Orders when Betdesk is back.';

/** The order ended without buying or selling anything. */
function wentNowhere(status: OrderRowStatus): boolean {
  return status !== 'FILLED' && isFinalRowStatus(status);
}

/** The line under the Place button: why it is off, or what pressing it will do. */
export function placeNote(f: PlaceNoteFacts): string {
  const { block } = f;
  if (block?.kind === 'placed') {
    return wentNowhere(block.status)
      ? 'Not placed: nothing was bought or sold. Request a new quote to try again.'
      : 'Placed. Request a new quote to bet again.';
  }
  // The refusal itself is shown above the form: here only that Place waits for it.
  if (block?.kind === 'refused') return 'Place is off until that changes.';
  if (block) return placeProblemText(block);
  if (f.oneClick) return 'One-click betting is on: Place sends the bet at once.';
  return f.side === 'SELL'
    ? 'You will confirm the contracts and the proceeds before it is sent.'
    : 'You will confirm the stake, the payout and the knockout before it is sent.';
}

export interface FailureFacts {
  kind: BridgeErrorKind;
  /** Seconds until a rate-limited placement may be tried again. */
  retryInSeconds: number;
  /** Main found the order the lost answer was about. */
  orderKnown: boolean;
  /** The answer was lost and main is being asked (checking), or cannot be (unknown). */
  lost: 'checking' | 'unknown' | null;
}

/** What the user can do after a failed placement, or null when the message says it all. */
export function failureAdvice(f: FailureFacts): string | null {
  // Whether the bet was placed is not known: never a retry, which could be a second bet.
  if (f.lost === 'checking') return 'Checking… Betdesk is finding out whether it was placed.';
  if (f.lost === 'unknown') return NOT_KNOWN_YET;
  if (f.kind === 'offline')
    return 'Nothing was sent, and nothing is queued to send later by itself.';
  if (f.kind === 'rate-limited') {
    return f.retryInSeconds > 0
      ? `You can try again in ${f.retryInSeconds} s.`
      : 'You can try again now.';
  }
  if (f.kind === 'internal' && !f.orderKnown) {
    return 'Place again to retry: it is the same bet, so it can never be placed twice.';
  }
  return null;
}
