/**
 * Reads for the app, served from the store whether or not the exchange answers: each result
 * carries when its stream last synced and the engine's state, so the UI can say "offline,
 * as of 10:42" instead of showing nothing.
 */
import type {
  FixtureFilter,
  FixturePage,
  OrderFilter,
  OrderPage,
  PageRequest,
  PositionFilter,
  SettlementFilter,
  SettlementPage,
  Store,
  StoredPosition,
  SyncStream,
} from '../store/index.js';
import type { SyncState, SyncStatus } from './events.js';

export interface Freshness {
  /** Local time this data was last read from the exchange; null if never. */
  syncedAt: number | null;
  state: SyncState;
  offlineSince: number | null;
}

export type Cached<T> = T & Freshness;

export class CachedReads {
  constructor(
    private readonly store: Store,
    private readonly accountId: number,
    private readonly status: () => SyncStatus,
  ) {}

  orders(filter: OrderFilter & PageRequest = {}): Cached<OrderPage> {
    return { ...this.store.orders.list(this.accountId, filter), ...this.#fresh('orders') };
  }

  positions(filter: PositionFilter = {}): Cached<{ positions: StoredPosition[] }> {
    return {
      positions: this.store.positions.list(this.accountId, filter),
      ...this.#fresh('positions'),
    };
  }

  settlements(filter: SettlementFilter & PageRequest = {}): Cached<SettlementPage> {
    return {
      ...this.store.settlements.query(this.accountId, filter),
      ...this.#fresh('settlements'),
    };
  }

  fixtures(filter: FixtureFilter & PageRequest = {}): Cached<FixturePage> {
    return { ...this.store.fixtures.list(this.accountId, filter), ...this.#fresh('fixtures') };
  }

  #fresh(stream: SyncStream): Freshness {
    const s = this.status();
    return {
      syncedAt: this.store.cursors.get(this.accountId, stream)?.lastSyncAt ?? null,
      state: s.state,
      offlineSince: s.offlineSince,
    };
  }
}
