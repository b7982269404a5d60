/** The bet slip's vocabulary: what it is asked, and what it reads of the rest of the app. */
import type { FixtureRef, PositionRow } from '../../../../shared/ipc/contract.js';
import type { Lots } from '../slip-size.js';

export type SizeUnit = 'BASE' | 'QUOTE';
export type SlipSide = 'BUY' | 'SELL';
/** FOK: exactly the quote or nothing. MARKET: the slip's size at whatever price the market gives. */
export type PlaceKind = 'FOK' | 'MARKET';

export interface SlipSelection {
  contractId: string;
  /** Null when the store does not know the fixture (a position on an unknown contract). */
  fixture: FixtureRef | null;
  outcome: string;
  /** The fixture's lot size and smallest bet, when the pick came with them (a market row). */
  lots: Lots | null;
}

/** What the slip needs to know of the rest of the app; read on demand, so it is always fresh. */
export interface SlipContext {
  /** The active key may trade (app:info canTrade). */
  readonly canTrade: boolean;
  /** The exchange can be reached (through Betdesk's service). */
  readonly online: boolean;
  /** Betdesk's own service answers (the browser host's socket is up). */
  readonly connected: boolean;
  /** Place without the confirmation step. */
  readonly oneClick: boolean;
  /** The active account's open positions. */
  readonly positions: readonly PositionRow[];
  /** The freshest the app knows of a fixture (a market's, with its lots), or null. */
  fixture(contractId: string): FixtureRef | (FixtureRef & Lots) | null;
}
