/**
 * The local store: one SQLite file holding accounts, order intents, orders, settlements,
 * position snapshots, fixtures, sync cursors, alerts and index prices over time, so the history
 * works offline.
 *
 * Use: `const store = openStore(path)`; read and write through the repositories
 * (`store.orders.list(...)`), and record money through the atomic writes below, which commit the
 * rows together with the sync cursor or not at all. SQL lives in the repositories only.
 *
 * One Store per file per process. Every call is synchronous (better-sqlite3); long streaming
 * reads (exports) use `openReader()` so they never hold the writer.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Order, Position, Settlement } from '../../shared/api/schemas.js';
import { RealizedPnl, type AddedSettlement } from '../pnl/realized.js';
import { BlotterFeed } from './blotter-feed.js';
import { openReader, openWriter, type Db } from './connection.js';
import { latestVersion, runMigrations, schemaVersion } from './migrations/index.js';
import { AccountRemovalRepo } from './repos/account-removal.js';
import { AccountsRepo } from './repos/accounts.js';
import { AlertsRepo } from './repos/alerts.js';
import { BlotterRepo } from './repos/blotter.js';
import { CostBasisRepo } from './repos/cost-basis.js';
import { CursorsRepo, type SyncStream } from './repos/cursors.js';
import { EquityRepo, sumPositions } from './repos/equity.js';
import { FixturesRepo } from './repos/fixtures.js';
import { GuardsRepo } from './repos/guards.js';
import { IntentsRepo } from './repos/intents.js';
import { OrdersRepo } from './repos/orders.js';
import { PositionsRepo } from './repos/positions.js';
import { PricesRepo } from './repos/prices.js';
import { SettlementRealizedRepo } from './repos/settlement-realized.js';
import { SettlementsRepo, type SettlementsRepoOptions } from './repos/settlements.js';
import { SettingsRepo } from './repos/settings.js';
import { WalletsRepo } from './repos/wallets.js';
import { noteStoreFile } from './room.js';

export interface StoreOptions {
  /** Clock for created/updated times the store stamps itself. Default Date.now. */
  now?: () => number;
  settlements?: SettlementsRepoOptions;
  /** better-sqlite3's native module to load instead of the default (Electron's ABI build). */
  nativeBinding?: string;
}

export interface ApplyOrdersResult {
  /** Orders inserted or replaced (a report older than the stored one is skipped). */
  written: number;
  /** Intents that this batch matched to their exchange order and marked `done`. */
  intentsDone: number;
  /** Unknown SETTLEMENT rows the batch's orders let be worked out (or changed the reason of). */
  realized: number;
}

export interface ApplySettlementsResult {
  inserted: number;
  /** Rows already stored: a sync that sees only these has caught up. */
  duplicates: number;
}

/** Repositories over a read-only connection, for long streaming reads. Close it when done. */
export interface StoreReader {
  readonly orders: OrdersRepo;
  readonly settlements: SettlementsRepo;
  readonly fixtures: FixturesRepo;
  readonly prices: PricesRepo;
  /** The guardian log's rows, for its CSV export. */
  readonly guards: GuardsRepo;
  close(): void;
}

export class Store {
  readonly file: string;
  readonly accounts: AccountsRepo;
  readonly intents: IntentsRepo;
  readonly orders: OrdersRepo;
  /** Orders and the intents not matched to one, as the order blotter lists them. */
  readonly blotter: BlotterRepo;
  readonly settlements: SettlementsRepo;
  readonly positions: PositionsRepo;
  /** A point per positions read: the equity chart of the Portfolio (docs/portfolio.md). */
  readonly equity: EquityRepo;
  /** What removing an account deletes, counted. */
  readonly removal: AccountRemovalRepo;
  /** Every order and intent row this process writes, as it is written (blotter-feed.ts). */
  readonly blotterFeed = new BlotterFeed();
  readonly fixtures: FixturesRepo;
  readonly cursors: CursorsRepo;
  /** Which exchange accounts read one wallet. */
  readonly wallets: WalletsRepo;
  readonly alerts: AlertsRepo;
  /** Guardians: exit rules armed on positions and their log (docs/guardians.md). */
  readonly guards: GuardsRepo;
  readonly settings: SettingsRepo;
  /** Index prices over time: raw for a week, then buckets (docs/prices.md). */
  readonly prices: PricesRepo;
  /** The last costBasis GET /positions reported per position, kept after it closes. */
  readonly costBasis: CostBasisRepo;
  /** Realized P&L of SETTLEMENT rows, worked out from the orders (src/main/pnl). */
  readonly realized: RealizedPnl;
  /** The derived realized P&L columns of settlements, and the upgrade's queue of them. */
  readonly settlementRealized: SettlementRealizedRepo;
  /**
   * The writer connection. For migrations, tests and benchmarks only: application code goes
   * through the repositories.
   */
  readonly db: Db;
  readonly #now: () => number;
  readonly #options: StoreOptions;

  constructor(file: string, db: Db, options: StoreOptions = {}) {
    this.file = file;
    this.db = db;
    if (file !== ':memory:') noteStoreFile(file); // a failed write is worded from its disk's room
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.settings = new SettingsRepo(db, this.#now);
    this.accounts = new AccountsRepo(db, this.#now, this.settings);
    this.removal = new AccountRemovalRepo(db);
    this.intents = new IntentsRepo(db, this.#now, this.blotterFeed);
    this.orders = new OrdersRepo(db, this.blotterFeed);
    this.blotter = new BlotterRepo(db, this.intents);
    this.settlements = new SettlementsRepo(db, options.settlements);
    this.positions = new PositionsRepo(db);
    this.equity = new EquityRepo(db);
    this.fixtures = new FixturesRepo(db);
    this.cursors = new CursorsRepo(db);
    this.wallets = new WalletsRepo(db);
    this.alerts = new AlertsRepo(db);
    this.guards = new GuardsRepo(db);
    this.prices = new PricesRepo(db);
    this.costBasis = new CostBasisRepo(db);
    this.settlementRealized = new SettlementRealizedRepo(db);
    this.realized = new RealizedPnl(this.settlementRealized, {
      rowsBetween: (...a) => this.settlementRealized.rowsBetween(...a),
      lastBefore: (...a) => this.settlementRealized.lastBefore(...a),
      ordersUntil: (account, contract, outcome, until) =>
        this.orders.listBetween(account, contract, outcome, null, until),
      lastCostBasis: (...a) => this.costBasis.get(...a),
    });
  }

  /**
   * SQLite's data_version: it changes when another connection (the CLI, another process)
   * commits to this file, never for this connection's own writes.
   */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  get schemaVersion(): number {
    return schemaVersion(this.db);
  }

  /**
   * Runs `fn` in one transaction (nested calls become savepoints). `fn` must be synchronous:
   * the transaction commits when it returns and rolls back if it throws.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Stores a batch from GET /orders/updates and advances the account's `orders` cursor, in one
   * transaction: after a crash either both happened or neither, so no update is ever skipped.
   * Open intents whose clientOrderId appears in the batch become `done`, and the unknown
   * realized P&L of SETTLEMENT rows on the outcomes of its filled orders is worked out again (a
   * resync that brings the missing orders fills it in). Applying the same batch again changes
   * nothing.
   */
  applyOrderUpdates(
    accountId: number,
    orders: readonly Order[],
    cursor: number,
  ): ApplyOrdersResult {
    return this.transaction(() => {
      let written = 0;
      for (const o of orders) if (this.orders.upsert(accountId, o)) written++;
      const intentsDone = this.intents.settleMatching(accountId, orders);
      const realized = this.realized.afterOrders(accountId, orders);
      this.cursors.set(accountId, 'orders', cursor, this.#now());
      return { written, intentsDone, realized };
    });
  }

  /**
   * Stores settlement rows, skipping those already stored, works out the realized P&L of the
   * new SETTLEMENT rows and of those a new CLOSED or KNOCKED_OUT row belongs to (they are part
   * of its arithmetic), and (when given) sets the `settlements` cursor, in one transaction.
   */
  applySettlements(
    accountId: number,
    rows: readonly Settlement[],
    cursor?: number,
  ): ApplySettlementsResult {
    return this.transaction(() => {
      const inserted = this.insertSettlements(accountId, rows).length;
      if (cursor !== undefined) this.cursors.set(accountId, 'settlements', cursor, this.#now());
      return { inserted, duplicates: rows.length - inserted };
    });
  }

  /**
   * Inserts the rows not stored yet and works out the realized P&L they bring (docs/pnl.md):
   * what every writer of settlements calls, inside its own transaction. Returns the new rows.
   */
  insertSettlements(accountId: number, rows: readonly Settlement[]): Settlement[] {
    const added: (Settlement & AddedSettlement)[] = [];
    for (const s of rows) {
      const settledAt = this.settlements.insertedAt(accountId, s);
      if (settledAt !== null) added.push({ ...s, settledAt });
    }
    this.realized.afterSettlements(accountId, added);
    return added.map(({ settledAt: _, ...s }) => s);
  }

  /**
   * Replaces the account's open positions, keeps each one's costBasis as its last, records the
   * snapshot's equity point (and thins the older ones) and stamps the `positions` stream,
   * atomically.
   */
  replacePositions(accountId: number, positions: readonly Position[], snapshotAt: number): void {
    this.transaction(() => {
      this.positions.replace(accountId, positions, snapshotAt);
      this.equity.record(accountId, snapshotAt, sumPositions(positions));
      this.costBasis.record(accountId, positions, snapshotAt);
      this.cursors.set(accountId, 'positions' satisfies SyncStream, snapshotAt, this.#now());
    });
  }

  /** A read-only connection with the read repositories, for an export or another long read. */
  openReader(): StoreReader {
    const db = openReader(this.file, this.#options.nativeBinding);
    return {
      orders: new OrdersRepo(db),
      settlements: new SettlementsRepo(db, this.#options.settlements),
      fixtures: new FixturesRepo(db),
      prices: new PricesRepo(db),
      guards: new GuardsRepo(db),
      close: () => db.close(),
    };
  }

  /**
   * Copies the WAL into the database without waiting for readers (a passive checkpoint). When
   * all of it was copied, the next write starts the WAL again from its beginning instead of
   * growing it: after a full disk, the retry can use the room the WAL already takes. Throws
   * when the copy itself finds no room (nothing is lost; the WAL stays as it was).
   */
  checkpoint(): void {
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  /** Lets SQLite refresh its planner statistics, then closes. The Store is unusable after. */
  close(): void {
    if (!this.db.open) return;
    try {
      this.db.pragma('analysis_limit = 400'); // bounds the work optimize may do on a big file
      this.db.pragma('optimize');
    } finally {
      this.db.close();
    }
  }
}

/**
 * Opens (creating if needed) the store at `file` and brings its schema up to date.
 * @throws NewerSchemaError when the file was written by a newer Betdesk; the file is untouched.
 */
export function openStore(file: string, options: StoreOptions = {}): Store {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = openWriter(file, options.nativeBinding);
  try {
    runMigrations(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return new Store(file, db, options);
}

/** The schema version this build writes. */
export const STORE_SCHEMA_VERSION = latestVersion();
