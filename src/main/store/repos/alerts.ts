/**
 * Knockout alerts the watch raised: `near` when the index price came close to a position's
 * knockout, `knocked_out` when it got there. Each is stored once per dedup key, so a watch
 * that re-checks every tick does not alert twice for the same thing.
 */
import type { Db } from '../connection.js';
import { StatementCache } from '../connection.js';
import { normalizePage, orNull, type PageRequest } from '../paging.js';

export type AlertKind = 'near' | 'knocked_out';

export interface Alert {
  id: number;
  accountId: number;
  kind: AlertKind;
  contractId: string;
  outcome: string;
  /** The index price that raised the alert (decimal string). */
  level: string | null;
  /** The knockout price it was measured against (decimal string). */
  threshold: string | null;
  message: string;
  dedupKey: string;
  createdAt: number;
}

export interface NewAlert {
  accountId: number;
  kind: AlertKind;
  contractId: string;
  outcome: string;
  level?: string | null;
  threshold?: string | null;
  message: string;
  /** What makes two alerts the same; defaults to kind|contractId|outcome|threshold. */
  dedupKey?: string;
  createdAt: number;
}

export interface AlertFilter {
  kind?: AlertKind;
}

interface AlertRow {
  id: number;
  account_id: number;
  kind: AlertKind;
  contract_id: string;
  outcome: string;
  level: string | null;
  threshold: string | null;
  message: string;
  dedup_key: string;
  created_at: number;
}

function toAlert(r: AlertRow): Alert {
  return {
    id: r.id,
    accountId: r.account_id,
    kind: r.kind,
    contractId: r.contract_id,
    outcome: r.outcome,
    level: r.level,
    threshold: r.threshold,
    message: r.message,
    dedupKey: r.dedup_key,
    createdAt: r.created_at,
  };
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
        `INSERT INTO alerts (account_id, kind, contract_id, outcome, level, threshold, message,
           dedup_key, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, dedup_key) DO NOTHING RETURNING *`,
      )
      .get(
        a.accountId,
        a.kind,
        a.contractId,
        a.outcome,
        orNull(a.level),
        orNull(a.threshold),
        a.message,
        a.dedupKey ?? defaultAlertKey(a),
        a.createdAt,
      ) as AlertRow | undefined;
    return row && toAlert(row);
  }

  /** The account's alerts, newest first. */
  list(
    accountId: number,
    filter: AlertFilter & PageRequest = {},
  ): { alerts: Alert[]; total: number } {
    const { limit, offset } = normalizePage(filter);
    const kindTerm = filter.kind === undefined ? '' : 'AND kind = ?';
    const params: unknown[] = filter.kind === undefined ? [accountId] : [accountId, filter.kind];
    const total = this.#sql
      .get(`SELECT count(*) FROM alerts WHERE account_id = ? ${kindTerm}`)
      .pluck()
      .get(...params) as number;
    const rows = this.#sql
      .get(
        `SELECT * FROM alerts WHERE account_id = ? ${kindTerm}
         ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      )
      .all(...params, limit, offset) as AlertRow[];
    return { alerts: rows.map(toAlert), total };
  }
}
