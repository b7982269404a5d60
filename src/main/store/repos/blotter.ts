/**
 * The order blotter: the account's orders and the intents the exchange has not matched to an
 * order (being sent, being checked, or not placed), newest first in one list. An intent whose
 * order is stored is `done` and shows as that order, so nothing appears twice.
 *
 * A page is found from the two time indexes alone (orders_by_created, order_intents_open) and
 * only its rows are then read whole, so the first page of 100,000 orders costs a few index
 * steps, not a sort.
 */
import type { Order, OrderStatus, Side } from '../../../shared/api/schemas.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
import { normalizePage, type PageRequest } from '../paging.js';
import type { IntentState, OrderIntent } from './intents.js';
import type { IntentsRepo } from './intents.js';
import { createdTerms, toOrder, type OrderRow } from './orders.js';

/** The blotter's status groups; see ORDER_STATUS_GROUPS in the bridge contract. */
export type BlotterStatusGroup = 'working' | 'filled' | 'canceled' | 'rejected' | 'not_placed';

export interface BlotterFilter {
  status?: BlotterStatusGroup;
  side?: Side;
  contractId?: string;
  /** Created at or after (ms): an order's createdAt, an intent's created_at. */
  from?: number;
  /** Created before (ms, exclusive). */
  to?: number;
}

export type BlotterEntry =
  { source: 'order'; order: Order } | { source: 'intent'; intent: OrderIntent };

export interface BlotterPage {
  entries: BlotterEntry[];
  total: number;
  limit: number;
  offset: number;
}

const GROUP_ORDER_STATUSES: Record<BlotterStatusGroup, readonly OrderStatus[]> = {
  working: ['CLAIMED', 'SUBMITTED', 'OPEN'],
  filled: ['FILLED'],
  canceled: ['CANCELED', 'EXPIRED'],
  rejected: ['REJECTED', 'FAILED'],
  not_placed: [],
};

/** The exchange statuses of a status group ('not_placed' has none: those are intents). */
export function orderStatusesOf(group: BlotterStatusGroup): readonly OrderStatus[] {
  return GROUP_ORDER_STATUSES[group];
}

/** Intent states that are rows of their own (a `done` intent is its order's row). */
const GROUP_INTENT_STATES: Record<BlotterStatusGroup, readonly IntentState[]> = {
  working: ['pending', 'sent', 'unknown'],
  filled: [],
  canceled: [],
  rejected: [],
  not_placed: ['failed'],
};
const OPEN_INTENT_STATES: readonly IntentState[] = ['pending', 'sent', 'unknown', 'failed'];

interface Arm {
  sql: string;
  params: unknown[];
}

export class BlotterRepo {
  readonly #sql: StatementCache;
  readonly #intents: IntentsRepo;

  constructor(db: Db, intents: IntentsRepo) {
    this.#sql = new StatementCache(db);
    this.#intents = intents;
  }

  /** Newest first by (createdAt, id), both descending: pages neither repeat nor skip. */
  page(accountId: number, filter: BlotterFilter & PageRequest = {}): BlotterPage {
    const { limit, offset } = normalizePage(filter);
    const arms = [ordersArm(accountId, filter), intentsArm(accountId, filter)].filter(
      (a): a is Arm => a !== null,
    );
    if (arms.length === 0) return { entries: [], total: 0, limit, offset };
    const total = arms
      .map((a) =>
        this.#sql
          .get(`SELECT count(*) FROM (${a.sql})`)
          .pluck()
          .get(...a.params),
      )
      .reduce<number>((sum, n) => sum + (n as number), 0);
    const keys = this.#sql
      .get(`${arms.map((a) => a.sql).join(' UNION ALL ')} ORDER BY 2 DESC, 3 DESC LIMIT ? OFFSET ?`)
      .raw(true)
      .all(...arms.flatMap((a) => a.params), limit, offset) as [number, number, string][];
    const entries: BlotterEntry[] = [];
    for (const [source, , id] of keys) {
      const entry = source === 0 ? this.#order(accountId, id) : this.#intent(accountId, id);
      if (entry) entries.push(entry);
    }
    return { entries, total, limit, offset };
  }

  /** One row by clientOrderId: the order when stored, else the intent. */
  get(accountId: number, clientOrderId: string): BlotterEntry | undefined {
    const row = this.#sql
      .get('SELECT * FROM orders WHERE account_id = ? AND client_order_id = ?')
      .get(accountId, clientOrderId) as OrderRow | undefined;
    if (row) return { source: 'order', order: toOrder(row) };
    const intent = this.#intents.get(clientOrderId);
    return intent && intent.accountId === accountId ? { source: 'intent', intent } : undefined;
  }

  /** Every contract the account has an order on. */
  contracts(accountId: number): string[] {
    return this.#sql
      .get('SELECT DISTINCT contract_id FROM orders WHERE account_id = ? ORDER BY contract_id')
      .pluck()
      .all(accountId) as string[];
  }

  #order(accountId: number, orderId: string): BlotterEntry | undefined {
    const row = this.#sql
      .get('SELECT * FROM orders WHERE account_id = ? AND order_id = ?')
      .get(accountId, orderId) as OrderRow | undefined;
    return row && { source: 'order', order: toOrder(row) };
  }

  #intent(accountId: number, clientOrderId: string): BlotterEntry | undefined {
    const intent = this.#intents.get(clientOrderId);
    return intent && intent.accountId === accountId ? { source: 'intent', intent } : undefined;
  }
}

/** (0, created_at, order_id) of the matching orders; null when the filter excludes orders. */
function ordersArm(accountId: number, f: BlotterFilter): Arm | null {
  const terms = ['account_id = ?'];
  const params: unknown[] = [accountId];
  if (f.status !== undefined) {
    const statuses = GROUP_ORDER_STATUSES[f.status];
    if (statuses.length === 0) return null;
    terms.push(`status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...statuses);
  }
  if (f.side !== undefined) {
    terms.push('side = ?');
    params.push(f.side);
  }
  if (f.contractId !== undefined) {
    terms.push('contract_id = ?');
    params.push(f.contractId.toUpperCase());
  }
  createdTerms(f, '', terms, params);
  return {
    sql: `SELECT 0, created_at, order_id FROM orders WHERE ${terms.join(' AND ')}`,
    params,
  };
}

/**
 * (1, created_at, client_order_id) of the matching intents that are rows of their own. The bet
 * of an intent is in its params (`bet`: contractId, side, ...); an intent that executed a quote
 * this process did not make has none, and matches only unfiltered views.
 */
function intentsArm(accountId: number, f: BlotterFilter): Arm | null {
  const states = f.status === undefined ? OPEN_INTENT_STATES : GROUP_INTENT_STATES[f.status];
  if (states.length === 0) return null;
  const terms = [
    'i.account_id = ?',
    "i.state <> 'done'",
    `i.state IN (${states.map(() => '?').join(', ')})`,
    `NOT EXISTS (SELECT 1 FROM orders o
       WHERE o.account_id = i.account_id AND o.client_order_id = i.client_order_id)`,
  ];
  const params: unknown[] = [accountId, ...states];
  if (f.side !== undefined) {
    terms.push("json_extract(i.params_json, '$.bet.side') = ?");
    params.push(f.side);
  }
  if (f.contractId !== undefined) {
    terms.push("json_extract(i.params_json, '$.bet.contractId') = ?");
    params.push(f.contractId.toUpperCase());
  }
  createdTerms(f, 'i.', terms, params);
  return {
    sql: `SELECT 1, i.created_at, i.client_order_id FROM order_intents i
          INDEXED BY order_intents_open WHERE ${terms.join(' AND ')}`,
    params,
  };
}
