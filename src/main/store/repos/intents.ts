/**
 * Order intents: an order the app is about to place, written down before the request leaves so
 * a crash or a lost answer cannot make it place the bet twice or forget it placed one.
 *
 * Life of an intent (the trading service drives it):
 *   pending  recorded, request not yet answered
 *   sent     the exchange answered 202; orderId known
 *   unknown  no answer (timeout, dropped connection): look the order up by clientOrderId
 *   failed   the exchange answered an error, so nothing was placed (the id is still spent)
 *   done     the exchange's order for this clientOrderId is in `orders`; follow it there
 * applyOrderUpdates() moves any intent whose order it sees to `done`.
 */
import { ErrorCodes } from '../../../shared/api/errors.js';
import type { BlotterFeed } from '../blotter-feed.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
import { IntentConflictError, StoreError } from '../errors.js';
import { canonicalJson, sha256Hex } from '../keys.js';

/** GET /order's "no order matches that id" (-2025): how an intent is marked not placed. */
const NOT_PLACED_ERROR_CODE = ErrorCodes.UNKNOWN_ORDER;

export type IntentState = 'pending' | 'sent' | 'unknown' | 'failed' | 'done';

export interface OrderIntent {
  clientOrderId: string;
  accountId: number;
  /** SHA-256 (hex) of the canonical JSON of `params`. */
  paramsHash: string;
  /** The order parameters as recorded (what POST /order was, or will be, sent). */
  params: unknown;
  state: IntentState;
  orderId: string | null;
  lastErrorCode: number | null;
  lastErrorMsg: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewIntent {
  clientOrderId: string;
  accountId: number;
  params: unknown;
}

interface IntentRow {
  client_order_id: string;
  account_id: number;
  params_hash: string;
  params_json: string;
  state: IntentState;
  order_id: string | null;
  last_error_code: number | null;
  last_error_msg: string | null;
  created_at: number;
  updated_at: number;
}

function toIntent(r: IntentRow): OrderIntent {
  return {
    clientOrderId: r.client_order_id,
    accountId: r.account_id,
    paramsHash: r.params_hash,
    params: JSON.parse(r.params_json) as unknown,
    state: r.state,
    orderId: r.order_id,
    lastErrorCode: r.last_error_code,
    lastErrorMsg: r.last_error_msg,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export class IntentsRepo {
  readonly #sql: StatementCache;
  readonly #now: () => number;

  readonly #feed: BlotterFeed | undefined;

  /** `feed` hears of every intent created or changed. */
  constructor(db: Db, now: () => number, feed?: BlotterFeed) {
    this.#sql = new StatementCache(db);
    this.#now = now;
    this.#feed = feed;
  }

  /**
   * Records an intent in state `pending`. Recording the same clientOrderId again with the same
   * account and parameters returns the existing intent (`created: false`), so a retry after a
   * crash is safe.
   * @throws IntentConflictError when the id exists with other parameters or another account.
   */
  create(i: NewIntent): { intent: OrderIntent; created: boolean } {
    const json = canonicalJson(i.params);
    const hash = sha256Hex(json);
    const now = this.#now();
    const inserted = this.#sql
      .get(
        `INSERT INTO order_intents (client_order_id, account_id, params_hash, params_json, state,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, 'pending', ?, ?)
         ON CONFLICT (client_order_id) DO NOTHING`,
      )
      .run(i.clientOrderId, i.accountId, hash, json, now, now).changes;
    const intent = this.get(i.clientOrderId);
    if (!intent) throw new StoreError(`Order intent ${i.clientOrderId} vanished.`);
    if (inserted === 1) this.#noteChange(i.clientOrderId, i.accountId);
    if (inserted === 0) {
      if (intent.accountId !== i.accountId) {
        throw new IntentConflictError(i.clientOrderId, 'other-account', 'for another account');
      }
      if (intent.paramsHash !== hash) {
        throw new IntentConflictError(
          i.clientOrderId,
          'other-params',
          'with different order parameters',
        );
      }
    }
    return { intent, created: inserted === 1 };
  }

  get(clientOrderId: string): OrderIntent | undefined {
    const row = this.#sql
      .get('SELECT * FROM order_intents WHERE client_order_id = ?')
      .get(clientOrderId) as IntentRow | undefined;
    return row && toIntent(row);
  }

  /** The exchange accepted the order (HTTP 202). */
  markSent(clientOrderId: string, orderId: string): void {
    this.#setState(clientOrderId, 'sent', orderId, null, null);
  }

  /** The request's fate is unknown (no answer); the error is kept for the record. */
  markUnknown(clientOrderId: string, error?: { code: number; msg: string }): void {
    this.#setState(clientOrderId, 'unknown', null, error?.code ?? null, error?.msg ?? null);
  }

  /** The exchange refused the order before broadcast: nothing was placed. */
  markFailed(clientOrderId: string, error: { code: number; msg: string }): void {
    this.#setState(clientOrderId, 'failed', null, error.code, error.msg);
  }

  /**
   * An intent found not placed (the exchange had no order for it, `last_error_code` -2025) back
   * to `pending`, so the guardian that claimed this close sends it again under the same
   * clientOrderId after a restart (docs/guardians.md): the exchange dedups the id, and the
   * trading service looks it up before any resend. False when the intent is in another state.
   */
  reopen(clientOrderId: string): boolean {
    const reopened =
      this.#sql
        .get(
          `UPDATE order_intents SET state = 'pending', updated_at = ?
           WHERE client_order_id = ? AND state = 'failed' AND last_error_code = ?
             AND order_id IS NULL`,
        )
        .run(this.#now(), clientOrderId, NOT_PLACED_ERROR_CODE).changes === 1;
    if (reopened) this.#noteChange(clientOrderId, null);
    return reopened;
  }

  #noteChange(clientOrderId: string, accountId: number | null): void {
    this.#feed?.note({ accountId, clientOrderId, orderId: null });
  }

  /** The exchange's order for this intent is known; `orders` follows it from now on. */
  markDone(clientOrderId: string, orderId: string): void {
    this.#setState(clientOrderId, 'done', orderId, null, null);
  }

  /** Intents not yet `done`, oldest first: what to reconcile after a restart. */
  listOpen(accountId: number): OrderIntent[] {
    const rows = this.#sql
      .get(
        `SELECT * FROM order_intents INDEXED BY order_intents_open
         WHERE account_id = ? AND state <> 'done' ORDER BY created_at, client_order_id`,
      )
      .all(accountId) as IntentRow[];
    return rows.map(toIntent);
  }

  /**
   * Marks `done` every open intent of the account whose clientOrderId appears in `orders`.
   * Runs inside the caller's transaction (applyOrderUpdates). Reads the open set once: it is
   * almost always tiny, so a batch of a thousand orders costs one query, not a thousand.
   */
  settleMatching(
    accountId: number,
    orders: readonly { clientOrderId: string; orderId: string }[],
  ): number {
    const open = this.#sql
      .get(
        `SELECT client_order_id FROM order_intents INDEXED BY order_intents_open
         WHERE account_id = ? AND state <> 'done'`,
      )
      .pluck()
      .all(accountId) as string[];
    if (open.length === 0) return 0;
    const ids = new Set(open);
    let n = 0;
    for (const o of orders) {
      if (!ids.has(o.clientOrderId)) continue;
      this.markDone(o.clientOrderId, o.orderId);
      ids.delete(o.clientOrderId);
      n++;
    }
    return n;
  }

  #setState(
    clientOrderId: string,
    state: IntentState,
    orderId: string | null,
    code: number | null,
    msg: string | null,
  ): void {
    // A known orderId is never forgotten, and `done` is final: a late "unknown" cannot undo it.
    const changes = this.#sql
      .get(
        `UPDATE order_intents SET state = ?, order_id = coalesce(?, order_id),
           last_error_code = coalesce(?, last_error_code),
           last_error_msg = coalesce(?, last_error_msg), updated_at = ?
         WHERE client_order_id = ? AND (state <> 'done' OR ? = 'done')`,
      )
      .run(state, orderId, code, msg, this.#now(), clientOrderId, state).changes;
    if (changes === 0 && !this.get(clientOrderId)) {
      throw new StoreError(`No order intent ${clientOrderId}.`);
    }
    if (changes > 0) this.#noteChange(clientOrderId, null);
  }
}
