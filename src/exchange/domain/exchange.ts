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
import * as clock from './clock.js';
import type { DomainOptions, ExchangeDomain } from './contract.js';
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

  // Each call goes to the module that owns it; the types are the contract's.
  readonly createWallet: ExchangeDomain['createWallet'] = () => keys.createWallet(this.#s);
  readonly createKey: ExchangeDomain['createKey'] = (input) => keys.createKey(this.#s, input);
  readonly getKey: ExchangeDomain['getKey'] = (apiKey) => this.#s.keys.get(apiKey);
  readonly revokeGrant: ExchangeDomain['revokeGrant'] = (apiKey) =>
    keys.revokeGrant(this.#s, apiKey);

  readonly listFixtures: ExchangeDomain['listFixtures'] = (query) =>
    fixtures.listFixtures(this.#s, query);
  readonly createFixture: ExchangeDomain['createFixture'] = (input) =>
    fixtures.createFixture(this.#s, input);
  readonly setPrice: ExchangeDomain['setPrice'] = (contractId, outcome, indexPrice) =>
    fixtures.setPrice(this.#s, contractId, outcome, indexPrice);
  readonly closeFixture: ExchangeDomain['closeFixture'] = (contractId) =>
    fixtures.closeFixture(this.#s, contractId);
  readonly setKickoff: ExchangeDomain['setKickoff'] = (contractId, startsAt) =>
    fixtures.setKickoff(this.#s, contractId, startsAt);
  readonly resolveFixture: ExchangeDomain['resolveFixture'] = (contractId, winner) =>
    fixtures.resolveFixture(this.#s, contractId, winner);

  readonly requestQuote: ExchangeDomain['requestQuote'] = (wallet, request) =>
    quoting.requestQuote(this.#s, wallet, request);
  readonly placeOrder: ExchangeDomain['placeOrder'] = (wallet, request, fault) =>
    orders.placeOrder(this.#s, wallet, request, fault);
  readonly getOrder: ExchangeDomain['getOrder'] = (wallet, query) =>
    orders.getOrder(this.#s, wallet, query);
  readonly listOrders: ExchangeDomain['listOrders'] = (wallet, query) =>
    orders.listOrders(this.#s, wallet, query);
  readonly orderUpdates: ExchangeDomain['orderUpdates'] = (wallet, since) =>
    orders.orderUpdates(this.#s, wallet, since);
  readonly positions: ExchangeDomain['positions'] = (wallet, query) =>
    positions.listPositions(this.#s, wallet, query);
  readonly settlements: ExchangeDomain['settlements'] = (wallet, query) =>
    positions.listSettlements(this.#s, wallet, query);
}
