/**
 * Guardians' rows (migration 009, docs/guardians.md): the rules armed on positions and the
 * guardian log. Every change of a rule's state is one UPDATE guarded by the state it leaves, so
 * two processes on one store (the app and `cli sync`) never both claim a close: the one whose
 * UPDATE changed the row owns it.
 */
import type {
  GuardHold,
  GuardKind,
  GuardLogEvent,
  GuardLogScope,
  GuardObservation,
  GuardSpec,
  GuardState,
} from '../../../shared/ipc/contract.js';
import { StatementCache, type Db } from '../connection.js';
import { normalizePage, orNull, type PageRequest } from '../paging.js';

export interface GuardRule {
  id: number;
  accountId: number;
  contractId: string;
  outcome: string;
  spec: GuardSpec;
  state: GuardState;
  armedAt: number;
  stateAt: number;
  reason: string | null;
  best: string | null;
  streak: number;
  observedAt: number | null;
  positionSeen: boolean;
  hold: GuardHold | null;
  clientOrderId: string | null;
  orderId: string | null;
  contracts: number | null;
  stakeMicros: number | null;
  firedAt: number | null;
  observation: GuardObservation | null;
}

export interface NewGuardLog {
  accountId: number;
  ruleId: number;
  at: number;
  kind: GuardKind;
  contractId: string;
  outcome: string;
  event: GuardLogEvent;
  hold?: GuardHold | null;
  message: string;
  observation?: GuardObservation | null;
  contracts?: number | null;
  clientOrderId?: string | null;
  orderId?: string | null;
  errorCode?: number | null;
}

export interface GuardLogEntry extends Required<NewGuardLog> {
  id: number;
}

/** What a claim writes: the close's id and size, and the figures it fired on. */
export interface GuardClaim {
  clientOrderId: string;
  contracts: number;
  stakeMicros: number;
  observation: GuardObservation;
  at: number;
}

/** A live rule's state and watching part (GuardsRepo.liveProgress). */
export interface LiveGuardProgress {
  id: number;
  state: GuardState;
  best: string | null;
  streak: number;
  observedAt: number | null;
  positionSeen: boolean;
  hold: GuardHold | null;
}

/** The watching part of a rule, written after each observation. */
export interface GuardProgress {
  best?: string | null;
  streak?: number;
  observedAt?: number | null;
  positionSeen?: boolean;
  hold?: GuardHold | null;
}

interface RuleRow {
  id: number;
  account_id: number;
  contract_id: string;
  outcome: string;
  kind: GuardKind;
  percent: string | null;
  price: string | null;
  minutes: number | null;
  share_percent: number;
  confirmations: number;
  state: GuardState;
  armed_at: number;
  state_at: number;
  reason: string | null;
  best: string | null;
  streak: number;
  observed_at: number | null;
  position_seen: number;
  hold: GuardHold | null;
  client_order_id: string | null;
  order_id: string | null;
  contracts: number | null;
  stake_micros: number | null;
  fired_at: number | null;
  observation: string | null;
}

interface LogRow {
  id: number;
  account_id: number;
  rule_id: number;
  at: number;
  kind: GuardKind;
  contract_id: string;
  outcome: string;
  event: GuardLogEvent;
  hold: GuardHold | null;
  message: string;
  observation: string | null;
  contracts: number | null;
  client_order_id: string | null;
  order_id: string | null;
  error_code: number | null;
}

/** The states a rule watches or acts in; the others are its end. */
export const LIVE_GUARD_STATES: readonly GuardState[] = ['armed', 'firing'];

function toRule(r: RuleRow): GuardRule {
  const spec: GuardSpec = {
    kind: r.kind,
    sharePercent: r.share_percent,
    confirmations: r.confirmations,
  };
  if (r.percent !== null) spec.percent = r.percent;
  if (r.price !== null) spec.price = r.price;
  if (r.minutes !== null) spec.minutes = r.minutes;
  return {
    id: r.id,
    accountId: r.account_id,
    contractId: r.contract_id,
    outcome: r.outcome,
    spec,
    state: r.state,
    armedAt: r.armed_at,
    stateAt: r.state_at,
    reason: r.reason,
    best: r.best,
    streak: r.streak,
    observedAt: r.observed_at,
    positionSeen: r.position_seen === 1,
    hold: r.hold,
    clientOrderId: r.client_order_id,
    orderId: r.order_id,
    contracts: r.contracts,
    stakeMicros: r.stake_micros,
    firedAt: r.fired_at,
    observation: r.observation === null ? null : (JSON.parse(r.observation) as GuardObservation),
  };
}

function toLog(r: LogRow): GuardLogEntry {
  return {
    id: r.id,
    accountId: r.account_id,
    ruleId: r.rule_id,
    at: r.at,
    kind: r.kind,
    contractId: r.contract_id,
    outcome: r.outcome,
    event: r.event,
    hold: r.hold,
    message: r.message,
    observation: r.observation === null ? null : (JSON.parse(r.observation) as GuardObservation),
    contracts: r.contracts,
    clientOrderId: r.client_order_id,
    orderId: r.order_id,
    errorCode: r.error_code,
  };
}

export class GuardsRepo {
  readonly #sql: StatementCache;

  constructor(db: Db) {
    this.#sql = new StatementCache(db);
  }

  // ------------------------------------------------------------------ rules

  /** Stores a rule as armed; returns it. */
  arm(
    accountId: number,
    contractId: string,
    outcome: string,
    spec: GuardSpec,
    at: number,
  ): GuardRule {
    const row = this.#sql
      .get(
        `INSERT INTO guard_rules (account_id, contract_id, outcome, kind, percent, price, minutes,
           share_percent, confirmations, state, armed_at, state_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'armed', ?, ?) RETURNING *`,
      )
      .get(
        accountId,
        contractId,
        outcome,
        spec.kind,
        orNull(spec.percent),
        orNull(spec.price),
        orNull(spec.minutes),
        spec.sharePercent,
        spec.confirmations,
        at,
        at,
      ) as RuleRow;
    return toRule(row);
  }

  get(id: number): GuardRule | undefined {
    const row = this.#sql.get('SELECT * FROM guard_rules WHERE id = ?').get(id) as
      RuleRow | undefined;
    return row && toRule(row);
  }

  byClientOrderId(clientOrderId: string): GuardRule | undefined {
    const row = this.#sql
      .get('SELECT * FROM guard_rules WHERE client_order_id = ?')
      .get(clientOrderId) as RuleRow | undefined;
    return row && toRule(row);
  }

  /** The account's armed and firing rules, oldest first. */
  live(accountId: number): GuardRule[] {
    const rows = this.#sql
      .get(
        `SELECT * FROM guard_rules INDEXED BY guard_rules_by_state
         WHERE account_id = ? AND state IN ('armed', 'firing') ORDER BY id`,
      )
      .all(accountId) as RuleRow[];
    return rows.map(toRule);
  }

  /** The account's rules that ended (closed, failed, disarmed, ended), newest change first. */
  recent(accountId: number, limit: number): GuardRule[] {
    const rows = this.#sql
      .get(
        `SELECT * FROM guard_rules
         WHERE account_id = ? AND state NOT IN ('armed', 'firing')
         ORDER BY state_at DESC, id DESC LIMIT ?`,
      )
      .all(accountId, limit) as RuleRow[];
    return rows.map(toRule);
  }

  /**
   * The account's live rules as far as watching changes them: id, state and progress, oldest
   * first. The guardian keeps the rest of each rule (it never changes while the rule is
   * armed), so judging many rules reads a few columns, not every one.
   */
  liveProgress(accountId: number): LiveGuardProgress[] {
    const rows = this.#sql
      .get(
        `SELECT id, state, best, streak, observed_at, position_seen, hold
         FROM guard_rules INDEXED BY guard_rules_by_state
         WHERE account_id = ? AND state IN ('armed', 'firing') ORDER BY id`,
      )
      .raw()
      .all(accountId) as [
      number,
      GuardState,
      string | null,
      number,
      number | null,
      number,
      GuardHold | null,
    ][];
    return rows.map(([id, state, best, streak, observedAt, seen, hold]) => ({
      id,
      state,
      best,
      streak,
      observedAt,
      positionSeen: seen === 1,
      hold,
    }));
  }

  /** Every account's armed and firing rules (the CLI's `guard list --all`). */
  allLive(): GuardRule[] {
    const rows = this.#sql
      .get(`SELECT * FROM guard_rules WHERE state IN ('armed', 'firing') ORDER BY account_id, id`)
      .all() as RuleRow[];
    return rows.map(toRule);
  }

  /** Writes what an observation changed of an armed rule; false when it is no longer armed. */
  progress(id: number, p: GuardProgress): boolean {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (p.best !== undefined) {
      sets.push('best = ?');
      params.push(p.best);
    }
    if (p.streak !== undefined) {
      sets.push('streak = ?');
      params.push(p.streak);
    }
    if (p.observedAt !== undefined) {
      sets.push('observed_at = ?');
      params.push(p.observedAt);
    }
    if (p.positionSeen !== undefined) {
      sets.push('position_seen = ?');
      params.push(p.positionSeen ? 1 : 0);
    }
    if (p.hold !== undefined) {
      sets.push('hold = ?');
      params.push(p.hold);
    }
    if (sets.length === 0) return true;
    return (
      this.#sql
        .get(`UPDATE guard_rules SET ${sets.join(', ')} WHERE id = ? AND state = 'armed'`)
        .run(...params, id).changes === 1
    );
  }

  /**
   * Claims the rule's close: armed → firing with its clientOrderId, size and figures. True only
   * for the caller whose UPDATE changed the row (the write-ahead of docs/guardians.md).
   */
  claim(id: number, c: GuardClaim): boolean {
    return (
      this.#sql
        .get(
          `UPDATE guard_rules SET state = 'firing', state_at = ?, fired_at = ?, hold = NULL,
             client_order_id = ?, contracts = ?, stake_micros = ?, observation = ?
           WHERE id = ? AND state = 'armed'`,
        )
        .run(
          c.at,
          c.at,
          c.clientOrderId,
          c.contracts,
          c.stakeMicros,
          JSON.stringify(c.observation),
          id,
        ).changes === 1
    );
  }

  /** Records the exchange's order id of a firing rule's close. */
  setOrderId(id: number, orderId: string): void {
    this.#sql.get('UPDATE guard_rules SET order_id = ? WHERE id = ?').run(orderId, id);
  }

  /**
   * Moves a rule from one of `from` to `to` with its reason; false when it was in none of them
   * (another process or an earlier call moved it first).
   */
  finish(
    id: number,
    from: readonly GuardState[],
    to: GuardState,
    at: number,
    reason: string | null,
  ): boolean {
    const marks = from.map(() => '?').join(', ');
    return (
      this.#sql
        .get(
          `UPDATE guard_rules SET state = ?, state_at = ?, reason = ?, hold = NULL
           WHERE id = ? AND state IN (${marks})`,
        )
        .run(to, at, reason, id, ...from).changes === 1
    );
  }

  /**
   * Automatic closes since `since` that sold, or may still sell: count, contracts and stake
   * (micros) of rules claimed since then that closed or are closing. A close that sold nothing
   * (refused, not filled) is not counted (docs/guardians.md, "Daily limits").
   */
  usedSince(
    accountId: number,
    since: number,
  ): { closes: number; contracts: number; stakeMicros: number } {
    const row = this.#sql
      .get(
        `SELECT count(*) AS closes, coalesce(sum(contracts), 0) AS contracts,
           coalesce(sum(stake_micros), 0) AS stake
         FROM guard_rules
         WHERE account_id = ? AND fired_at >= ? AND state IN ('firing', 'closed')`,
      )
      .get(accountId, since) as { closes: number; contracts: number; stake: number };
    return { closes: row.closes, contracts: row.contracts, stakeMicros: row.stake };
  }

  // ------------------------------------------------------------------ the log

  log(e: NewGuardLog): GuardLogEntry {
    const row = this.#sql
      .get(
        `INSERT INTO guard_log (account_id, rule_id, at, kind, contract_id, outcome, event, hold,
           message, observation, contracts, client_order_id, order_id, error_code)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        e.accountId,
        e.ruleId,
        e.at,
        e.kind,
        e.contractId,
        e.outcome,
        e.event,
        orNull(e.hold ?? undefined),
        e.message,
        e.observation == null ? null : JSON.stringify(e.observation),
        orNull(e.contracts ?? undefined),
        orNull(e.clientOrderId ?? undefined),
        orNull(e.orderId ?? undefined),
        orNull(e.errorCode ?? undefined),
      ) as LogRow;
    return toLog(row);
  }

  /** The account's log, newest first, filtered. */
  logPage(
    accountId: number,
    scope: GuardLogScope & PageRequest = {},
  ): { rows: GuardLogEntry[]; total: number } {
    const { limit, offset } = normalizePage(scope);
    const { where, params } = logWhere(accountId, scope);
    const total = this.#sql
      .get(`SELECT count(*) FROM guard_log WHERE ${where}`)
      .pluck()
      .get(...params) as number;
    const rows = this.#sql
      .get(`SELECT * FROM guard_log WHERE ${where} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, limit, offset) as LogRow[];
    return { rows: rows.map(toLog), total };
  }

  /** Every matching row, oldest first, one at a time (the CSV export). */
  *logRows(accountId: number, scope: GuardLogScope = {}): IterableIterator<GuardLogEntry> {
    const { where, params } = logWhere(accountId, scope);
    const stmt = this.#sql.get(`SELECT * FROM guard_log WHERE ${where} ORDER BY at, id`);
    for (const r of stmt.iterate(...params) as IterableIterator<LogRow>) yield toLog(r);
  }

  logCount(accountId: number, scope: GuardLogScope = {}): number {
    const { where, params } = logWhere(accountId, scope);
    return this.#sql
      .get(`SELECT count(*) FROM guard_log WHERE ${where}`)
      .pluck()
      .get(...params) as number;
  }
}

function logWhere(accountId: number, s: GuardLogScope): { where: string; params: unknown[] } {
  const terms = ['account_id = ?'];
  const params: unknown[] = [accountId];
  if (s.event !== undefined) {
    terms.push('event = ?');
    params.push(s.event);
  }
  if (s.kind !== undefined) {
    terms.push('kind = ?');
    params.push(s.kind);
  }
  if (s.ruleId !== undefined) {
    terms.push('rule_id = ?');
    params.push(s.ruleId);
  }
  if (s.contractId !== undefined) {
    terms.push('contract_id = ?');
    params.push(s.contractId);
  }
  if (s.from !== undefined) {
    terms.push('at >= ?');
    params.push(s.from);
  }
  if (s.to !== undefined) {
    terms.push('at < ?');
    params.push(s.to);
  }
  return { where: terms.join(' AND '), params };
}
