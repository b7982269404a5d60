/**
 * The account's orders as the exchange last reported them. Written by applyOrderUpdates (sync)
 * and by the trading service with the 202 answer; a report never overwrites a newer one.
 */
import type { Order, OrderStatus, Side } from '../../../shared/api/schemas.js';
import { FINAL_ORDER_STATUSES } from '../../../shared/api/schemas.js';
import { toMicros } from '../../../shared/money.js';
import type { Db, Statement } from '../connection.js';
import { StatementCache } from '../connection.js';
import { normalizePage, orNull, type PageRequest } from '../paging.js';

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

/** Column order of the upsert; `orderParams` binds in exactly this order. */
const COLUMNS = [
  'account_id',
  'order_id',
  'client_order_id',
  'contract_id',
  'outcome',
  'side',
  'status',
  'contracts',
  'entry_price',
  'cost',
  'max_win',
  'knockout',
  'deadline',
  'tx',
  'error_code',
  'error_msg',
  'order_type',
  'market_unit',
  'qty',
  'boost',
  'proceeds',
  'rfq_id',
  'created_at',
  'updated_at',
] as const;

/**
 * What a later report of the same order may change. The rest (ids, contract, outcome, side,
 * sizing, boost, createdAt) is fixed when the order is accepted; leaving it out of the UPDATE
 * also spares SQLite rewriting the index entries built on it.
 */
const MUTABLE_COLUMNS = [
  'status',
  'contracts',
  'entry_price',
  'cost',
  'max_win',
  'knockout',
  'deadline',
  'tx',
  'error_code',
  'error_msg',
  'proceeds',
  'rfq_id',
  'updated_at',
] as const satisfies readonly (typeof COLUMNS)[number][];

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

/** Positional binding: measurably faster than named parameters on the sync hot path. */
export function orderParams(accountId: number, o: Order): unknown[] {
  return [
    accountId,
    o.orderId,
    o.clientOrderId,
    o.contractId,
    o.outcome,
    o.side,
    o.status,
    o.contracts,
    o.entryPrice,
    o.cost,
    o.maxWin,
    orNull(o.knockout),
    o.deadline,
    o.tx,
    o.error ? o.error.code : null,
    o.error ? o.error.msg : null,
    o.orderType,
    o.marketUnit,
    o.qty,
    o.boost,
    orNull(o.proceeds),
    orNull(o.rfqId),
    o.createdAt,
    o.updatedAt,
  ];
}

export interface OrderRow {
  account_id: number;
  order_id: string;
  client_order_id: string;
  contract_id: string;
  outcome: string;
  side: Order['side'];
  status: OrderStatus;
  contracts: number;
  entry_price: string;
  cost: string;
  max_win: string;
  knockout: string | null;
  deadline: number;
  tx: string;
  error_code: number | null;
  error_msg: string | null;
  order_type: Order['orderType'];
  market_unit: Order['marketUnit'];
  qty: string;
  boost: number;
  proceeds: string | null;
  rfq_id: string | null;
  created_at: number;
  updated_at: number;
}

export function toOrder(r: OrderRow): Order {
  const o: Order = {
    clientOrderId: r.client_order_id,
    orderId: r.order_id,
    contractId: r.contract_id,
    outcome: r.outcome,
    side: r.side,
    status: r.status,
    contracts: r.contracts,
    entryPrice: r.entry_price,
    cost: r.cost,
    maxWin: r.max_win,
    deadline: r.deadline,
    tx: r.tx,
    orderType: r.order_type,
    marketUnit: r.market_unit,
    qty: r.qty,
    boost: r.boost,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.knockout !== null) o.knockout = r.knockout;
  if (r.error_code !== null) o.error = { code: r.error_code, msg: r.error_msg ?? '' };
  if (r.proceeds !== null) o.proceeds = r.proceeds;
  if (r.rfq_id !== null) o.rfqId = r.rfq_id;
  return o;
}

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
  if (f.from !== undefined) {
    terms.push(`${t}created_at >= ?`);
    params.push(f.from);
  }
  if (f.to !== undefined) {
    terms.push(`${t}created_at < ?`);
    params.push(f.to);
  }
  return { sql: terms.join(' AND '), params };
}

export class OrdersRepo {
  readonly #sql: StatementCache;
  #insert: Statement | undefined;
  #update: Statement | undefined;
  /** Whether the last order written was already stored: sync batches come in runs of either. */
  #lastWasKnown = false;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
    registerMicros(db);
  }

  /**
   * Inserts the order or replaces the stored one, unless the stored one is newer (a larger
   * updatedAt): reports can arrive out of order. Returns whether a row was written.
   * Not a transaction by itself; Store.applyOrderUpdates wraps a batch in one.
   */
  upsert(accountId: number, order: Order): boolean {
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
    const cols = EXPORT_ORDER_COLUMNS.map((c) => EXPORT_ORDER_SQL[c]).join(', ');
    return this.#sql
      .get(
        `SELECT ${cols} FROM orders o LEFT JOIN fixtures f ON f.contract_id = o.contract_id
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
] as const;
export type ExportOrderColumn = (typeof EXPORT_ORDER_COLUMNS)[number];

const EXPORT_ORDER_SQL: Record<ExportOrderColumn, string> = {
  created_at: 'o.created_at',
  updated_at: 'o.updated_at',
  order_id: 'o.order_id',
  client_order_id: 'o.client_order_id',
  contract_id: 'o.contract_id',
  league: 'f.league',
  home_team: 'f.home_team',
  away_team: 'f.away_team',
  outcome: 'o.outcome',
  side: 'o.side',
  order_type: 'o.order_type',
  market_unit: 'o.market_unit',
  qty: 'o.qty',
  boost: 'o.boost',
  status: 'o.status',
  contracts: 'o.contracts',
  entry_price: 'o.entry_price',
  cost: 'o.cost',
  max_win: 'o.max_win',
  knockout: 'o.knockout',
  proceeds: 'o.proceeds',
  error_code: 'o.error_code',
  error_msg: 'o.error_msg',
  tx: 'o.tx',
};
