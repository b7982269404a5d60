/**
 * The account's orders as the exchange last reported them. Written by applyOrderUpdates (sync)
 * and by the trading service with the 202 answer; a report never overwrites a newer one.
 */
import type { Order, OrderStatus, Side } from '../../../shared/api/schemas.js';
import { FINAL_ORDER_STATUSES } from '../../../shared/api/schemas.js';
import { toMicros } from '../../../shared/money.js';
import type { BlotterFeed } from '../blotter-feed.js';
import type { Db, Statement } from '../connection.js';
import { StatementCache } from '../connection.js';
import { normalizePage, type PageRequest } from '../paging.js';
import {
  COLUMNS,
  MUTABLE_COLUMNS,
  ORDER_COLUMNS,
  orderParams,
  toOrder,
  type OrderColumn,
  type OrderRow,
} from './order-columns.js';

export { orderParams, toOrder, type OrderRow } from './order-columns.js';

export interface OrderFilter {
  /** One status or any of several. */
  status?: OrderStatus | readonly OrderStatus[];
  contractId?: string;
  /** The team the order is on (its outcome). */
  team?: string;
  side?: Side;
  /** createdAt range, from inclusive, to exclusive (ms). */
  from?: number;
  to?: number;
}

/** What the Orders screen sums for a filter. Amounts are whole micro-dollars (toMicros). */
export interface OrderTotals {
  /** Orders matching the filter. */
  count: number;
  /** Of those, FILLED ones. */
  filled: number;
  /** Sum of the cost of FILLED BUY orders. */
  stakedMicros: number;
  /** Sum of the proceeds of FILLED SELL orders. */
  proceedsMicros: number;
}

export interface OrderPage {
  orders: Order[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * A report of an order is written by one of two plain statements rather than one
 * INSERT ... ON CONFLICT DO UPDATE: SQLite runs such an upsert on a known order as a failed
 * insert (a full record built, every constraint checked, a seek) and then the update, which
 * measured about 1.5x the cost of the bare UPDATE. Either statement alone decides nothing, so
 * `upsert` runs the likelier one first and the other only when the first changed no row.
 */
const INSERT_SQL = `
  INSERT INTO orders (${COLUMNS.join(', ')})
  VALUES (${COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (account_id, order_id) DO NOTHING`;

/** Sets MUTABLE_COLUMNS, then matches account_id, order_id and "not newer than this report". */
const UPDATE_SQL = `
  UPDATE orders SET ${MUTABLE_COLUMNS.map((c) => `${c} = ?`).join(', ')}
  WHERE account_id = ? AND order_id = ? AND updated_at <= ?`;

/** Where each UPDATE_SQL parameter is in `orderParams`' array. */
const UPDATE_PARAM_AT = [
  ...MUTABLE_COLUMNS.map((c) => COLUMNS.indexOf(c)),
  COLUMNS.indexOf('account_id'),
  COLUMNS.indexOf('order_id'),
  COLUMNS.indexOf('updated_at'),
];

/**
 * The WHERE clause and its parameters for a filter; shared by list, count and export.
 * `t` prefixes the columns when the query joins (`'o.'`).
 */
export function orderWhere(
  accountId: number,
  f: OrderFilter,
  t = '',
): { sql: string; params: unknown[] } {
  const terms = [`${t}account_id = ?`];
  const params: unknown[] = [accountId];
  if (f.status !== undefined) {
    const statuses = typeof f.status === 'string' ? [f.status] : [...f.status];
    terms.push(`${t}status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...statuses);
  }
  if (f.contractId !== undefined) {
    terms.push(`${t}contract_id = ?`);
    params.push(f.contractId.toUpperCase());
  }
  if (f.team !== undefined) {
    terms.push(`${t}outcome = ?`);
    params.push(f.team.toUpperCase());
  }
  if (f.side !== undefined) {
    terms.push(`${t}side = ?`);
    params.push(f.side);
  }
  createdTerms(f, t, terms, params);
  return { sql: terms.join(' AND '), params };
}

/** The created-at window [from, to) of a filter, as terms on the table aliased `t`. */
export function createdTerms(
  f: { from?: number | undefined; to?: number | undefined },
  t: string,
  terms: string[],
  params: unknown[],
): void {
  if (f.from !== undefined) {
    terms.push(`${t}created_at >= ?`);
    params.push(f.from);
  }
  if (f.to !== undefined) {
    terms.push(`${t}created_at < ?`);
    params.push(f.to);
  }
}

export class OrdersRepo {
  readonly #sql: StatementCache;
  #insert: Statement | undefined;
  #update: Statement | undefined;
  /** Whether the last order written was already stored: sync batches come in runs of either. */
  #lastWasKnown = false;

  readonly #feed: BlotterFeed | undefined;

  /** `feed` hears of every order written (Store's writer; a reader has none). */
  constructor(db: Db, feed?: BlotterFeed) {
    this.#sql = new StatementCache(db);
    this.#feed = feed;
    registerMicros(db);
  }

  /**
   * Inserts the order or replaces the stored one, unless the stored one is newer (a larger
   * updatedAt): reports can arrive out of order. Returns whether a row was written.
   * Not a transaction by itself; Store.applyOrderUpdates wraps a batch in one.
   */
  upsert(accountId: number, order: Order): boolean {
    const written = this.#write(accountId, order);
    if (written) {
      this.#feed?.note({ accountId, clientOrderId: order.clientOrderId, orderId: order.orderId });
    }
    return written;
  }

  #write(accountId: number, order: Order): boolean {
    const params = orderParams(accountId, order);
    if (this.#lastWasKnown) {
      if (this.#runUpdate(params)) return true;
      // Not updated: either new, or stored and newer than this report (then nothing is written).
      const inserted = this.#runInsert(params);
      if (inserted) this.#lastWasKnown = false;
      return inserted;
    }
    if (this.#runInsert(params)) return true;
    this.#lastWasKnown = true;
    return this.#runUpdate(params);
  }

  /** The INSERT half of upsert: true when the order was new. */
  #runInsert(params: unknown[]): boolean {
    this.#insert ??= this.#sql.get(INSERT_SQL);
    return this.#insert.run(params).changes === 1;
  }

  /** The UPDATE half of upsert: true when the order is stored and not newer than `params`. */
  #runUpdate(params: unknown[]): boolean {
    this.#update ??= this.#sql.get(UPDATE_SQL);
    return this.#update.run(UPDATE_PARAM_AT.map((i) => params[i])).changes === 1;
  }

  getByOrderId(accountId: number, orderId: string): Order | undefined {
    const row = this.#sql
      .get('SELECT * FROM orders WHERE account_id = ? AND order_id = ?')
      .get(accountId, orderId) as OrderRow | undefined;
    return row && toOrder(row);
  }

  /** The exchange keeps clientOrderIds unique per wallet, so there is at most one. */
  getByClientOrderId(accountId: number, clientOrderId: string): Order | undefined {
    const row = this.#sql
      .get('SELECT * FROM orders WHERE account_id = ? AND client_order_id = ?')
      .get(accountId, clientOrderId) as OrderRow | undefined;
    return row && toOrder(row);
  }

  /** Newest first (createdAt, then orderId, both descending): pages neither repeat nor skip. */
  list(accountId: number, filter: OrderFilter & PageRequest = {}): OrderPage {
    const { limit, offset } = normalizePage(filter);
    const w = orderWhere(accountId, filter);
    const total = this.#sql
      .get(`SELECT count(*) FROM orders WHERE ${w.sql}`)
      .pluck()
      .get(...w.params) as number;
    const rows = this.#sql
      .get(
        `SELECT * FROM orders WHERE ${w.sql}
         ORDER BY created_at DESC, order_id DESC LIMIT ? OFFSET ?`,
      )
      .all(...w.params, limit, offset) as OrderRow[];
    return { orders: rows.map(toOrder), total, limit, offset };
  }

  /** Orders whose status may still change, oldest first: what the sync engine follows. */
  listPending(accountId: number): Order[] {
    const finals = FINAL_ORDER_STATUSES.map((s) => `'${s}'`).join(', ');
    const rows = this.#sql
      .get(
        `SELECT * FROM orders WHERE account_id = ? AND status NOT IN (${finals})
         ORDER BY created_at, order_id`,
      )
      .all(accountId) as OrderRow[];
    return rows.map(toOrder);
  }

  /**
   * The orders on one outcome of one contract created after `afterMs` (exclusive; null: from
   * the first) up to `untilMs` (inclusive), oldest first: what built and closed a position.
   */
  listBetween(
    accountId: number,
    contractId: string,
    outcome: string,
    afterMs: number | null,
    untilMs: number,
  ): Order[] {
    const rows = this.#sql
      .get(
        `SELECT * FROM orders INDEXED BY orders_by_contract
         WHERE account_id = ? AND contract_id = ? AND outcome = ?
           AND created_at > ? AND created_at <= ?
         ORDER BY created_at, order_id`,
      )
      .all(
        accountId,
        contractId.toUpperCase(),
        outcome.toUpperCase(),
        afterMs ?? -1,
        untilMs,
      ) as OrderRow[];
    return rows.map(toOrder);
  }

  /**
   * Count, filled count, staked and proceeds of the matching orders, summed exactly in SQLite:
   * each amount string becomes integer micros through toMicros (a function registered on the
   * connection) rather than a column, so the order-update path writes no more than before.
   */
  totals(accountId: number, filter: OrderFilter = {}): OrderTotals {
    const w = orderWhere(accountId, filter);
    const [count, filled, stakedMicros, proceedsMicros] = this.#sql
      .get(
        `SELECT count(*), count(*) FILTER (WHERE status = 'FILLED'),
           coalesce(sum(CAST(${MICROS_FN}(cost) AS INTEGER))
             FILTER (WHERE status = 'FILLED' AND side = 'BUY'), 0),
           coalesce(sum(CAST(${MICROS_FN}(proceeds) AS INTEGER))
             FILTER (WHERE status = 'FILLED' AND side = 'SELL'), 0)
         FROM orders WHERE ${w.sql}`,
      )
      .raw(true)
      .get(...w.params) as [number, number, number, number];
    return { count, filled, stakedMicros, proceedsMicros };
  }

  /**
   * Streams matching orders oldest first as raw rows in EXPORT_ORDER_COLUMNS order, with the
   * fixture's league and teams when known. Meant for a reader connection (Store.openReader):
   * the statement stays busy until the iterator finishes or is returned.
   */
  iterateForExport(accountId: number, filter: OrderFilter = {}): IterableIterator<unknown[]> {
    const w = orderWhere(accountId, filter, 'o.');
    const cols = EXPORT_ORDER_COLUMNS.map(exportColumnSql).join(', ');
    return this.#sql
      .get(
        `SELECT ${cols} FROM orders o
         LEFT JOIN fixtures f ON f.account_id = o.account_id AND f.contract_id = o.contract_id
         WHERE ${w.sql}
         ORDER BY o.created_at, o.order_id`,
      )
      .raw(true)
      .iterate(...w.params) as IterableIterator<unknown[]>;
  }
}

/**
 * The SQL name of toMicros on a connection. It answers a REAL (better-sqlite3 returns every JS
 * number as one); a whole number below 2^53 is exact as a REAL and CAST makes it an INTEGER
 * again, so the sums above are integer sums.
 */
const MICROS_FN = 'betdesk_micros';

function registerMicros(db: Db): void {
  db.function(MICROS_FN, { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? toMicros(s) : null,
  );
}

/** Columns of an order export row that come from the order's fixture. */
type FixtureColumn = 'league' | 'home_team' | 'away_team';

/** What an order export row holds, in this order. */
export const EXPORT_ORDER_COLUMNS = [
  'created_at',
  'updated_at',
  'order_id',
  'client_order_id',
  'contract_id',
  'league',
  'home_team',
  'away_team',
  'outcome',
  'side',
  'order_type',
  'market_unit',
  'qty',
  'boost',
  'status',
  'contracts',
  'entry_price',
  'cost',
  'max_win',
  'knockout',
  'proceeds',
  'error_code',
  'error_msg',
  'tx',
] as const satisfies readonly (OrderColumn | FixtureColumn)[];
export type ExportOrderColumn = (typeof EXPORT_ORDER_COLUMNS)[number];

/**
 * Order columns an export leaves out, as it always has: the account (the export is one
 * account's), the exchange's execution deadline and the quote's id.
 */
type NotExported = 'account_id' | 'deadline' | 'rfq_id';

/** Every other column of an order is exported: a new column fails to compile here until it is. */
const _exportsEveryColumn: [Exclude<OrderColumn, ExportOrderColumn | NotExported>] extends [never]
  ? true
  : never = true;

/** An export column as the joined query selects it (`o.` the order, `f.` its fixture). */
function exportColumnSql(c: ExportOrderColumn): string {
  return c in ORDER_COLUMNS ? `o.${c}` : `f.${c}`;
}
