/**
 * The alert centre's rows: `near` when the index price came close to a position's knockout,
 * `knocked_out` when it got there (both raised by the knockout watch), `filled` and `rejected`
 * when an order ended. Each is stored once per dedup key, so a watch that re-checks every tick
 * does not alert twice for the same thing; `read_at` is null until the user has seen it.
 */
import { camelCased } from '../columns.js';
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
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

export class AlertsRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  /** Stores the alert unless one with its dedup key exists; returns it only when new. */
  insertOnce(a: NewAlert): Alert | undefined {
    const row = this.#sql
      .get(
        `INSERT INTO alerts (account_id, kind, contract_id, outcome, level, threshold, order_id,
           message, dedup_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
      ) as AlertRow | undefined;
    return row && toAlert(row);
  }

  get(accountId: number, id: number): Alert | undefined {
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
    const rows = this.#sql
      .get(`${SELECT} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as AlertRow[];
    return { alerts: rows.map(toAlert), total };
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
    return counts;
  }

  /** Marks the given alerts (or, without ids, all of the account's) read; returns how many. */
  markRead(accountId: number, at: number, ids?: readonly number[]): number {
    if (ids === undefined) {
      return this.#sql
        .get('UPDATE alerts SET read_at = ? WHERE account_id = ? AND read_at IS NULL')
        .run(at, accountId).changes;
    }
    const mark = this.#sql.get(
      'UPDATE alerts SET read_at = ? WHERE account_id = ? AND id = ? AND read_at IS NULL',
    );
    let n = 0;
    for (const id of ids) n += mark.run(at, accountId, id).changes;
    return n;
  }
}
