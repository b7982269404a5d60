/**
 * The contract between the sandbox exchange's domain (its state and rules, src/exchange/domain)
 * and its HTTP layer (src/exchange/http). The HTTP layer authenticates, rate-limits, validates
 * shapes with the shared TypeBox schemas and injects faults; the domain owns every business rule
 * and throws `ApiError` with the API's error code (docs/api.md 7) when one refuses a request.
 */
import type {
  Fixture,
  FixtureList,
  FixturesQuery,
  Order,
  OrderList,
  OrderQuery,
  OrderRequest,
  OrdersQuery,
  OrderUpdates,
  PositionList,
  PositionsQuery,
  Quote,
  RfqRequest,
  SettlementList,
  SettlementsQuery,
} from '../../shared/api/schemas.js';

export type Permission = 'read' | 'trade';

export interface ApiKeyRecord {
  apiKey: string;
  secret: string;
  wallet: string;
  permission: Permission;
  /** ms since epoch (exchange clock); required for trade keys. */
  expiresAt?: number;
  /** Addresses or CIDR blocks (IPv4 or IPv6) allowed to use the key; absent = any. */
  ipRestrictions?: string[];
  /** false once the wallet's signing grant was revoked: POST /order then fails with -4002. */
  grantActive: boolean;
  createdAt: number;
}

export interface NewKey {
  wallet: string;
  permission: Permission;
  expiresAt?: number;
  ipRestrictions?: string[];
}

export interface NewFixture {
  homeTeam: string;
  awayTeam: string;
  league: string;
  startsAt?: number;
}

/** A fault the HTTP layer asks the domain to apply to one order placement. */
export interface PlacementFault {
  /** Hold the placement this long before broadcasting (the clientOrderId is claimed meanwhile: a
   *  second request with it gets -2028). */
  delayMs?: number;
  /** 'revert': the order is accepted (202) and then ends REJECTED with -2024 at its block.
   *  'congested': the 202 carries error -5004 and the order still stands. */
  outcome?: 'revert' | 'congested';
}

export interface ExchangeDomain {
  /** Exchange clock, ms since epoch (real time plus every advance). */
  now(): number;
  /** Moves the clock forward and processes every order whose block has now arrived. */
  advanceClock(ms: number): void;

  createWallet(): string;
  /** Throws ApiError(-1102) for a trade key without expiresAt or an unknown wallet. */
  createKey(input: NewKey): ApiKeyRecord;
  getKey(apiKey: string): ApiKeyRecord | undefined;
  /** Throws ApiError(-1102, 404) for an unknown key. */
  revokeGrant(apiKey: string): void;

  listFixtures(query: FixturesQuery): FixtureList;
  createFixture(input: NewFixture): Fixture;
  /** Sets an outcome's index price (the other becomes 1 − p); knocks out every boosted lot whose
   *  knockout is reached. Returns how many positions were knocked out. */
  setPrice(contractId: string, outcome: string, indexPrice: string): { knockedOut: number };
  closeFixture(contractId: string): Fixture;
  /** Moves the fixture's kick-off to `startsAt` (ms since epoch). */
  setKickoff(contractId: string, startsAt: number): Fixture;
  /** winner: an abbreviation of the fixture, or 'DRAW'. */
  resolveFixture(contractId: string, winner: string): Fixture;

  requestQuote(wallet: string, request: RfqRequest): Quote;
  /** Returns the order as accepted (status SUBMITTED, maybe with error -5004 when congested).
   *  Resending a spent clientOrderId returns the order already placed. */
  placeOrder(wallet: string, request: OrderRequest, fault?: PlacementFault): Promise<Order>;
  getOrder(wallet: string, query: OrderQuery): Order;
  listOrders(wallet: string, query: OrdersQuery): OrderList;
  orderUpdates(wallet: string, since: number | undefined): OrderUpdates;
  positions(wallet: string, query: PositionsQuery): PositionList;
  settlements(wallet: string, query: SettlementsQuery): SettlementList;

  /** Stops timers and flushes the state file, if any. */
  close(): Promise<void>;
}

export interface DomainOptions {
  /** Seed of the generated fixtures and prices. */
  seed: number;
  /** Simulated block time: how long an accepted order stays SUBMITTED. */
  blockMs: number;
  /** SQLite file to keep the state in and reload on restart; in memory when absent. */
  dataFile?: string;
}
