/**
 * The one state every concern of the sandbox exchange works on: the clock's offset and change
 * counters, the records (fixtures, wallets, keys, quotes, orders, positions) with their indexes,
 * the queue of pending order events and the state file. The concern modules (clock, persistence,
 * keys, fixtures, positions, quoting, orders, execution) are functions over it; SandboxExchange
 * (exchange.ts) holds it. Internal to src/exchange/domain: the HTTP layer sees ExchangeDomain.
 */
import type { ApiKeyRecord, DomainOptions } from './contract.js';
import { EventHeap } from './heap.js';
import type {
  FixtureRec,
  OrderRec,
  PositionRec,
  QuoteRec,
  SettlementRec,
  WalletRec,
} from './model.js';
import { complementPrice } from './pricing.js';
import { randomHex } from './rng.js';
import { StateStore } from './store.js';

/** One wallet's records, with the indexes its requests look them up by. */
export interface WalletState {
  rec: WalletRec;
  /** Creation order (oldest first). */
  orders: OrderRec[];
  byClientId: Map<string, OrderRec>;
  /** clientOrderIds of placements being held (PlacementFault.delayMs). */
  inFlight: Set<string>;
  /** By positionKey(contractId, outcome). */
  positions: Map<string, PositionRec>;
  /** Oldest first. */
  settlements: SettlementRec[];
}

/** Quotes in creation order; entries before `head` are gone. */
export interface QuoteQueue {
  items: (QuoteRec | undefined)[];
  head: number;
}

export class ExchangeState {
  /** Simulated block time: how long an accepted order stays SUBMITTED. */
  readonly blockMs: number;
  /** Seed of the generated fixtures. */
  readonly seed: number;
  /** Everything advanceClock added to real time. */
  advancedMs = 0;
  /** The last change stamp handed out (an order's updatedAt, or an update cursor). */
  lastStamp = 0;
  /** The last creation sequence number handed out (fixtures, orders, positions, settlements). */
  seqCounter = 0;

  readonly fixtures = new Map<string, FixtureRec>();
  /** By start time, then contractId: the order GET /fixtures lists them in. */
  fixturesSorted: FixtureRec[] = [];
  /** Contracts held on each positionKey(contractId, outcome), across every wallet. */
  readonly openInterest = new Map<string, number>();
  readonly positionsByFixture = new Map<string, Set<PositionRec>>();
  readonly wallets = new Map<string, WalletState>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly ordersById = new Map<string, OrderRec>();
  readonly ordersByRfq = new Map<string, OrderRec>();
  /** Live quotes, in creation (= expiry) order. */
  readonly quotes = new Map<string, QuoteRec>();
  /** Every quote not yet pruned, in creation (= expiry) order (quoting.ts pruneQuotes). */
  readonly quoteExpiry: QuoteQueue = { items: [], head: 0 };
  /** rfqIds claimed by a placement that is being held (PlacementFault.delayMs) -> clientOrderId. */
  readonly claimedRfqs = new Map<string, string>();

  /** Each SUBMITTED order's transaction hash and block, by time; clock.ts runs them. */
  readonly events = new EventHeap();
  timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (the earliest event's time). */
  timerAt = 0;
  closed = false;

  readonly store: StateStore | undefined;
  /** Keys every API secret and rfqId MAC; kept beside the state file so both survive a restart. */
  readonly masterSecret: Buffer;
  /** The master secret in hex, as the rfqId MAC uses it (quoting.ts). */
  readonly masterSecretHex: string;

  constructor(opts: DomainOptions) {
    this.blockMs = Math.max(0, Math.floor(opts.blockMs));
    this.seed = opts.seed;
    if (opts.dataFile !== undefined) {
      this.masterSecret = StateStore.masterSecret(opts.dataFile);
      this.store = new StateStore(opts.dataFile);
    } else {
      this.masterSecret = Buffer.from(randomHex(32), 'hex');
      this.store = undefined;
    }
    this.masterSecretHex = this.masterSecret.toString('hex');
  }

  /** Exchange clock, ms since epoch. */
  now(): number {
    return Date.now() + this.advancedMs;
  }

  /** A strictly increasing change stamp, never behind the clock: what updatedAt holds. */
  stamp(): number {
    const s = Math.max(this.now(), this.lastStamp + 1);
    this.lastStamp = s;
    this.store?.setMeta('lastStamp', String(s));
    return s;
  }

  nextSeq(): number {
    this.seqCounter += 1;
    this.store?.setMeta('seq', String(this.seqCounter));
    return this.seqCounter;
  }

  /** Writes the records changed since the last call to the state file, if there is one. */
  persist(): void {
    if (!this.closed) this.store?.flush();
  }

  /** The wallet's state for a read: an unknown wallet reads as empty and is not created. */
  readWallet(wallet: string): WalletState {
    return (
      this.wallets.get(wallet.toLowerCase()) ??
      newWallet({ address: wallet.toLowerCase(), createdAt: 0 })
    );
  }

  /** The wallet's state; a wallet the domain has not seen is created (the HTTP layer vouches). */
  walletState(wallet: string): WalletState {
    const address = wallet.toLowerCase();
    let w = this.wallets.get(address);
    if (w === undefined) {
      const rec: WalletRec = { address, createdAt: this.now() };
      w = newWallet(rec);
      this.wallets.set(address, w);
      this.store?.put('wallet', address, rec);
    }
    return w;
  }
}

export function newWallet(rec: WalletRec): WalletState {
  return {
    rec,
    orders: [],
    byClientId: new Map(),
    inFlight: new Set(),
    positions: new Map(),
    settlements: [],
  };
}

/** The key of one outcome of one fixture, in WalletState.positions and openInterest. */
export function positionKey(contractId: string, outcome: string): string {
  return `${contractId}|${outcome}`;
}

/** Contracts a position holds now (its open lots). */
export function heldContracts(p: PositionRec): number {
  let n = 0;
  for (const lot of p.lots) n += lot.contracts;
  return n;
}

/** The index price of one outcome of a fixture. */
export function indexPrice(f: FixtureRec, outcome: string): string {
  return outcome === f.homeTeam ? f.homePrice : complementPrice(f.homePrice);
}

/** The fixture's other outcome. */
export function otherOutcome(f: FixtureRec, outcome: string): string {
  return outcome === f.homeTeam ? f.awayTeam : f.homeTeam;
}
