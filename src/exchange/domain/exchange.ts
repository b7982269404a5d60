/**
 * The sandbox exchange's state and business rules (docs/api.md, docs/sandbox.md): fixtures
 * and prices, quotes, orders and their blocks, positions built from lots, knockouts, resolution
 * and settlement rows. The HTTP layer calls it through the ExchangeDomain interface.
 *
 * This class only holds the one ExchangeState and hands each call to the module that owns the
 * concern: clock.ts (clock and timer), persistence.ts (start from the seed or the state file),
 * keys.ts (wallets and keys), fixtures.ts, quoting.ts, orders.ts, execution.ts (an order's
 * block) and positions.ts (positions, knockouts and settlement rows).
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
import * as clock from './clock.js';
import type {
  ApiKeyRecord,
  DomainOptions,
  ExchangeDomain,
  NewFixture,
  NewKey,
  PlacementFault,
} from './contract.js';
import * as fixtures from './fixtures.js';
import * as keys from './keys.js';
import * as orders from './orders.js';
import { loadOrSeed } from './persistence.js';
import * as positions from './positions.js';
import * as quoting from './quoting.js';
import { ExchangeState } from './state.js';

export class SandboxExchange implements ExchangeDomain {
  readonly #s: ExchangeState;

  constructor(opts: DomainOptions) {
    this.#s = new ExchangeState(opts);
    loadOrSeed(this.#s);
    // Orders whose block arrived while no process ran are executed now.
    clock.catchUp(this.#s);
  }

  now(): number {
    return this.#s.now();
  }

  advanceClock(ms: number): void {
    clock.advanceClock(this.#s, ms);
  }

  async close(): Promise<void> {
    const s = this.#s;
    if (s.closed) return;
    s.closed = true;
    clock.stopClock(s);
    s.store?.close();
    return Promise.resolve();
  }

  createWallet(): string {
    return keys.createWallet(this.#s);
  }

  createKey(input: NewKey): ApiKeyRecord {
    return keys.createKey(this.#s, input);
  }

  getKey(apiKey: string): ApiKeyRecord | undefined {
    return this.#s.keys.get(apiKey);
  }

  revokeGrant(apiKey: string): void {
    keys.revokeGrant(this.#s, apiKey);
  }

  listFixtures(query: FixturesQuery): FixtureList {
    return fixtures.listFixtures(this.#s, query);
  }

  createFixture(input: NewFixture): Fixture {
    return fixtures.createFixture(this.#s, input);
  }

  setPrice(contractId: string, outcome: string, indexPrice: string): { knockedOut: number } {
    return fixtures.setPrice(this.#s, contractId, outcome, indexPrice);
  }

  closeFixture(contractId: string): Fixture {
    return fixtures.closeFixture(this.#s, contractId);
  }

  resolveFixture(contractId: string, winner: string): Fixture {
    return fixtures.resolveFixture(this.#s, contractId, winner);
  }

  requestQuote(wallet: string, request: RfqRequest): Quote {
    return quoting.requestQuote(this.#s, wallet, request);
  }

  placeOrder(wallet: string, request: OrderRequest, fault?: PlacementFault): Promise<Order> {
    return orders.placeOrder(this.#s, wallet, request, fault);
  }

  getOrder(wallet: string, query: OrderQuery): Order {
    return orders.getOrder(this.#s, wallet, query);
  }

  listOrders(wallet: string, query: OrdersQuery): OrderList {
    return orders.listOrders(this.#s, wallet, query);
  }

  orderUpdates(wallet: string, since: number | undefined): OrderUpdates {
    return orders.orderUpdates(this.#s, wallet, since);
  }

  positions(wallet: string, query: PositionsQuery): PositionList {
    return positions.listPositions(this.#s, wallet, query);
  }

  settlements(wallet: string, query: SettlementsQuery): SettlementList {
    return positions.listSettlements(this.#s, wallet, query);
  }
}
