/**
 * The alert centre's rows: `near` when the index price came close to a position's knockout,
 * `knocked_out` when it got there (both raised by the knockout watch), `filled` and `rejected`
 * when an order ended. Each is stored once per dedup key, so a watch that re-checks every tick
 * does not alert twice for the same thing; `read_at` is null until the user has seen it.
 *
 * An alert the store cannot take (a full disk, or an I/O error: writeFaultOf) is not lost: it is
 * held in memory under an id no row will have, read back with the rows (list, get, the unread
 * counts, read marks), and written once, under its dedup key, by the next insertOnce or
 * writeHeld that finds room (docs/data.md). An alert written inside a transaction is not held:
 * the transaction's other writes failed with it, and its caller retries them all.
 */
import { camelCased } from '../columns.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
import { isWriteFault } from '../errors.js';
import { normalizePage, orNull, type PageRequest } from '../paging.js';

export const ALERT_KINDS = ['near', 'knocked_out', 'filled', 'rejected', 'guard'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export interface Alert {
  id: number;
  accountId: number;
  kind: AlertKind;
  contractId: string;
  outcome: string;
  /**
   * near: the index price that raised it (older rows: the estimated closing price);
   * knocked_out: the index price (decimal strings).
   */
  level: string | null;
  /** The knockout price it was measured against (decimal string). */
  threshold: string | null;
  /** filled / rejected / guard: the order. */
  orderId: string | null;
  message: string;
  dedupKey: string;
  createdAt: number;
  /** Local time the user marked it read; null while unread. */
  readAt: number | null;
}

export interface NewAlert {
  accountId: number;
  kind: AlertKind;
  contractId: string;
  outcome: string;
  level?: string | null;
  threshold?: string | null;
  orderId?: string | null;
  message: string;
  /** What makes two alerts the same; defaults to kind|contractId|outcome|threshold. */
  dedupKey?: string;
  createdAt: number;
}

export interface AlertFilter {
  kind?: AlertKind;
  unreadOnly?: boolean;
}

interface AlertRow {
  id: number;
  account_id: number;
  kind: AlertKind;
  contract_id: string;
  outcome: string;
  level: string | null;
  threshold: string | null;
  order_id: string | null;
  message: string;
  dedup_key: string;
  created_at: number;
  read_at: number | null;
}

/** One table, one list of columns: checked against the row type both ways. */
const COLUMNS = [
  'id',
  'account_id',
  'kind',
  'contract_id',
  'outcome',
  'level',
  'threshold',
  'order_id',
  'message',
  'dedup_key',
  'created_at',
  'read_at',
] as const satisfies readonly (keyof AlertRow)[];
const EVERY_COLUMN_LISTED: Exclude<keyof AlertRow, (typeof COLUMNS)[number]> extends never
  ? true
  : never = true;
void EVERY_COLUMN_LISTED;

const SELECT = `SELECT ${COLUMNS.join(', ')} FROM alerts`;

function toAlert(r: AlertRow): Alert {
  return camelCased(r);
}

export function defaultAlertKey(
  a: Pick<NewAlert, 'kind' | 'contractId' | 'outcome' | 'threshold'>,
): string {
  return `${a.kind}|${a.contractId}|${a.outcome}|${a.threshold ?? ''}`;
}

/** Ids of held alerts count down from here: above any row's, so they sort as the newest. */
const HELD_ID_BASE = Number.MAX_SAFE_INTEGER;

export class AlertsRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;
  /** Alerts the store could not take yet, by `accountId|dedupKey`, oldest first. */
  readonly #held = new Map<string, Alert>();
  /** A held alert's id, once written, to its row's id: a read mark may still use the old one. */
  readonly #written = new Map<number, number>();
  #nextHeldId = HELD_ID_BASE;

  constructor(db: Db) {
    this.#db = db;
    this.#sql = new StatementCache(db);
  }

  /**
   * Stores the alert unless one with its dedup key exists; returns it only when new. When the
   * store cannot take it (writeFaultOf), outside a transaction, it is held and returned as new.
   */
  insertOnce(a: NewAlert): Alert | undefined {
    const key = `${a.accountId}|${a.dedupKey ?? defaultAlertKey(a)}`;
    if (this.#held.has(key)) return undefined;
    if (!this.#db.inTransaction) this.writeHeld();
    try {
      return this.#insert(a, null);
    } catch (err) {
      if (this.#db.inTransaction || !isWriteFault(err)) throw err;
      const alert: Alert = {
        id: this.#nextHeldId--,
        accountId: a.accountId,
        kind: a.kind,
        contractId: a.contractId,
        outcome: a.outcome,
        level: orNull(a.level),
        threshold: orNull(a.threshold),
        orderId: orNull(a.orderId),
        message: a.message,
        dedupKey: a.dedupKey ?? defaultAlertKey(a),
        createdAt: a.createdAt,
        readAt: null,
      };
      this.#held.set(key, alert);
      return alert;
    }
  }

  /** How many alerts wait in memory for the store to take them. */
  get heldCount(): number {
    return this.#held.size;
  }

  /**
   * Writes the held alerts, oldest first, each once (a row of its dedup key may exist already);
   * stops at the first the store still cannot take. Returns how many were written.
   */
  writeHeld(): number {
    let n = 0;
    for (const [key, alert] of this.#held) {
      try {
        const row = this.#insert(alert, alert.readAt);
        const id =
          row?.id ??
          (this.#sql
            .get('SELECT id FROM alerts WHERE account_id = ? AND dedup_key = ?')
            .pluck()
            .get(alert.accountId, alert.dedupKey) as number | undefined);
        if (id !== undefined) this.#written.set(alert.id, id);
      } catch (err) {
        if (isWriteFault(err)) break;
        throw err;
      }
      this.#held.delete(key);
      n++;
    }
    return n;
  }

  #heldOf(accountId: number, filter: AlertFilter = {}): Alert[] {
    const out: Alert[] = [];
    for (const a of this.#held.values()) {
      if (a.accountId !== accountId) continue;
      if (filter.kind !== undefined && a.kind !== filter.kind) continue;
      if (filter.unreadOnly === true && a.readAt !== null) continue;
      out.push(a);
    }
    return out.reverse();
  }

  #insert(a: NewAlert, readAt: number | null): Alert | undefined {
    const row = this.#sql
      .get(
        `INSERT INTO alerts (account_id, kind, contract_id, outcome, level, threshold, order_id,
           message, dedup_key, created_at, read_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, dedup_key) DO NOTHING RETURNING ${COLUMNS.join(', ')}`,
      )
      .get(
        a.accountId,
        a.kind,
        a.contractId,
        a.outcome,
        orNull(a.level),
        orNull(a.threshold),
        orNull(a.orderId),
        a.message,
        a.dedupKey ?? defaultAlertKey(a),
        a.createdAt,
        readAt,
      ) as AlertRow | undefined;
    return row && toAlert(row);
  }

  get(accountId: number, id: number): Alert | undefined {
    if (id > this.#nextHeldId) {
      const held = this.#heldOf(accountId).find((a) => a.id === id);
      if (held) return held;
      id = this.#written.get(id) ?? id;
    }
    const row = this.#sql.get(`${SELECT} WHERE account_id = ? AND id = ?`).get(accountId, id) as
      AlertRow | undefined;
    return row && toAlert(row);
  }

  /** The account's alerts, newest first. */
  list(
    accountId: number,
    filter: AlertFilter & PageRequest = {},
  ): { alerts: Alert[]; total: number } {
    const { limit, offset } = normalizePage(filter);
    // Held alerts are the newest: they come first, then the rows.
    const held = this.#heldOf(accountId, filter);
    const fromHeld = held.slice(offset, offset + limit);
    const rowsOffset = Math.max(0, offset - held.length);
    const rowsLimit = limit - fromHeld.length;
    const terms = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (filter.kind !== undefined) {
      terms.push('kind = ?');
      params.push(filter.kind);
    }
    if (filter.unreadOnly === true) terms.push('read_at IS NULL');
    const where = terms.join(' AND ');
    const total = this.#sql
      .get(`SELECT count(*) FROM alerts WHERE ${where}`)
      .pluck()
      .get(...params) as number;
    const rows =
      rowsLimit === 0
        ? []
        : (this.#sql
            .get(`${SELECT} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
            .all(...params, rowsLimit, rowsOffset) as AlertRow[]);
    return { alerts: [...fromHeld, ...rows.map(toAlert)], total: total + held.length };
  }

  /** Unread alerts of the account, by kind. */
  unreadCounts(accountId: number): Record<AlertKind, number> {
    const counts: Record<AlertKind, number> = {
      near: 0,
      knocked_out: 0,
      filled: 0,
      rejected: 0,
      guard: 0,
    };
    const rows = this.#sql
      .get(
        `SELECT kind, count(*) AS n FROM alerts INDEXED BY alerts_unread
         WHERE account_id = ? AND read_at IS NULL GROUP BY kind`,
      )
      .all(accountId) as { kind: AlertKind; n: number }[];
    for (const r of rows) counts[r.kind] = r.n;
    for (const a of this.#heldOf(accountId, { unreadOnly: true })) counts[a.kind]++;
    return counts;
  }

  /** Marks the given alerts (or, without ids, all of the account's) read; returns how many. */
  markRead(accountId: number, at: number, ids?: readonly number[]): number {
    let n = 0;
    for (const a of this.#heldOf(accountId, { unreadOnly: true })) {
      if (ids !== undefined && !ids.includes(a.id)) continue;
      a.readAt = at;
      n++;
    }
    if (ids === undefined) {
      return (
        n +
        this.#sql
          .get('UPDATE alerts SET read_at = ? WHERE account_id = ? AND read_at IS NULL')
          .run(at, accountId).changes
      );
    }
    const mark = this.#sql.get(
      'UPDATE alerts SET read_at = ? WHERE account_id = ? AND id = ? AND read_at IS NULL',
    );
    for (const id of ids) n += mark.run(at, accountId, this.#written.get(id) ?? id).changes;
    return n;
  }
}
