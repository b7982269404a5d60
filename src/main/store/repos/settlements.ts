/**
 * Finished bets (GET /settlements), kept so the history works offline and exports fast.
 *
 * Rows are deduplicated by settlementKey(): the exchange gives settlements no id and the sync
 * engine re-reads pages, so inserting is insert-or-ignore. Pages are ordered newest first by
 * (timestamp_ms, id), both descending, which is stable and keyset-friendly.
 *
 * A long history must page fast. Counting matches and skipping to a deep offset both cost one
 * step per row in SQLite, so for the filters that can match most of the history (none, a date
 * range, a type, a league) the repository uses rollups kept by triggers (settlement-counts.ts):
 * the total is a sum over days, and a deep offset first finds the day it falls in, then skips
 * only inside that day. The selective filters (contract, team) read their own index directly.
 *
 * Each row also keeps its P&L and payout in whole micro-dollars (migration 004), so totals are
 * exact integer sums in SQLite and the P&L sort reads an index in order.
 */
import type { Settlement, SettlementType } from '../../../shared/api/schemas.js';
import { toMicros } from '../../../shared/money.js';
import { moneyText } from '../../pnl/amounts.js';
import type { PnlSource } from '../../pnl/types.js';
import type { Db, Statement } from '../connection.js';
import { StatementCache } from '../connection.js';
import { StoreError } from '../errors.js';
import { settlementKey } from '../keys.js';
import { normalizePage, orNull, type PageRequest } from '../paging.js';
import { settlementChoices, type SettlementChoices } from './settlement-choices.js';
import { SettlementCounts } from './settlement-counts.js';
import {
  clampRange,
  filteredSettlements,
  isEmptyRange,
  PNL_ORDER,
  PNL_ORDER_REVERSED,
  pnlIndex,
  settlementWhere,
  TIME_ORDER,
  timeIndex,
  type SettlementFilter,
  type SettlementSort,
} from './settlement-filter.js';
import { slotTotals, type SlotTotals } from './settlement-slots.js';

export { DAY_MS, type SettlementFilter, type SettlementSort } from './settlement-filter.js';
export { SLOT_MS, type SlotTotals } from './settlement-slots.js';
export type { SettlementChoices } from './settlement-choices.js';

/**
 * A settlement as stored: the exchange's fields, the local row id and time in ms, and its
 * realized P&L (migration 006, docs/pnl.md).
 */
export interface StoredSettlement extends Settlement {
  id: number;
  /** The timestamp in ms since epoch: what the history orders and filters by. */
  settledAt: number;
  /** Realized P&L in micro-dollars; null while unknown. */
  realizedMicros: number | null;
  /** SETTLEMENT: the cost basis of the settled contracts; null otherwise or when unknown. */
  basisMicros: number | null;
  pnlSource: PnlSource;
  /** Why it is unknown, or the disagreement with the exchange's last costBasis. */
  pnlNote: string | null;
}

export interface SettlementQuery extends SettlementFilter, PageRequest {
  /** Default 'time'. */
  sort?: SettlementSort;
}

export interface SettlementPage {
  settlements: StoredSettlement[];
  total: number;
  limit: number;
  offset: number;
}

export interface SettlementsRepoOptions {
  /** Offsets from this one on are located through the day counts. Tests lower it to 0. */
  deepOffsetFrom?: number;
}

interface SettlementRow {
  id: number;
  type: SettlementType;
  contract_id: string;
  outcome: string;
  contracts: number;
  price: string | null;
  pnl: string | null;
  payout: string | null;
  tx: string;
  timestamp: string;
  timestamp_ms: number;
  realized_micros: number | null;
  basis_micros: number | null;
  pnl_source: PnlSource;
  pnl_note: string | null;
}

const ROW_COLUMNS = `id, type, contract_id, outcome, contracts, price, pnl, payout, tx, timestamp,
  timestamp_ms, realized_micros, basis_micros, pnl_source, pnl_note`;

function toSettlement(r: SettlementRow): StoredSettlement {
  const s: StoredSettlement = {
    id: r.id,
    type: r.type,
    contractId: r.contract_id,
    outcome: r.outcome,
    contracts: r.contracts,
    tx: r.tx,
    timestamp: r.timestamp,
    settledAt: r.timestamp_ms,
    realizedMicros: r.realized_micros,
    basisMicros: r.basis_micros,
    pnlSource: r.pnl_source,
    pnlNote: r.pnl_note,
  };
  if (r.payout !== null) s.payout = r.payout;
  if (r.price !== null) s.price = r.price;
  if (r.pnl !== null) s.pnl = r.pnl;
  return s;
}

/**
 * Parses the exchange's ISO 8601 time. A time without a zone is read as UTC (docs/api.md 2.7),
 * not as local time the way Date.parse would.
 */
export function parseTimestamp(iso: string): number {
  const hasZone = /(Z|[+-]\d\d:?\d\d)$/i.test(iso) || !iso.includes('T');
  const ms = Date.parse(hasZone ? iso : `${iso}Z`);
  if (!Number.isFinite(ms) || ms < 0) {
    throw new StoreError(`Settlement timestamp "${iso}" is not an ISO 8601 time.`);
  }
  return ms;
}

export class SettlementsRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;
  readonly #counts: SettlementCounts;
  readonly #deepOffsetFrom: number;
  #insert: Statement | undefined;

  constructor(db: Db, options: SettlementsRepoOptions = {}) {
    this.#db = db;
    this.#sql = new StatementCache(db);
    this.#counts = new SettlementCounts(this.#sql);
    this.#deepOffsetFrom = options.deepOffsetFrom ?? 1000;
  }

  /**
   * Inserts the settlement unless the same one is stored already. Returns true when it was new.
   * Not a transaction by itself; Store.applySettlements wraps a batch in one.
   * @throws StoreError when the timestamp is not a time or an amount is not a decimal string.
   */
  insert(accountId: number, s: Settlement): boolean {
    return this.insertedAt(accountId, s) !== null;
  }

  /**
   * insert(), returning the new row's time in ms (null when it was stored already). A CLOSED
   * or KNOCKED_OUT row's realized P&L is the exchange's own and is written with it; a
   * SETTLEMENT's is worked out from the orders after (Store.applySettlements).
   */
  insertedAt(accountId: number, s: Settlement): number | null {
    const ms = parseTimestamp(s.timestamp);
    this.#insert ??= this.#sql.get(
      `INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
         price, pnl, payout, tx, timestamp, timestamp_ms, pnl_micros, payout_micros,
         realized_micros, pnl_source, pnl_note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, dedup_key) DO NOTHING`,
    );
    const pnlMicros = microsOf('pnl', s.pnl);
    const reported = s.type !== 'SETTLEMENT' && pnlMicros !== null;
    const result = this.#insert.run(
      accountId,
      settlementKey(s, ms),
      s.type,
      s.contractId,
      s.outcome,
      s.contracts,
      orNull(s.price),
      orNull(s.pnl),
      orNull(s.payout),
      s.tx,
      new Date(ms).toISOString(),
      ms,
      pnlMicros,
      microsOf('payout', s.payout),
      reported ? pnlMicros : null,
      reported ? 'exchange' : 'unknown',
      s.type === 'SETTLEMENT' || reported ? null : NO_REPORTED_PNL,
    );
    return result.changes === 1 ? ms : null;
  }

  /** One settlement of the account by its local id. */
  get(accountId: number, id: number): StoredSettlement | undefined {
    const row = this.#sql
      .get(`SELECT ${ROW_COLUMNS} FROM settlements WHERE id = ? AND account_id = ?`)
      .get(id, accountId) as SettlementRow | undefined;
    return row && toSettlement(row);
  }

  /**
   * Matching settlements, newest first (or largest P&L first, rows without a P&L last), with
   * the number of all matches.
   */
  query(accountId: number, filter: SettlementQuery = {}): SettlementPage {
    const { limit, offset } = normalizePage(filter);
    const f = clampRange(filterOf(filter));
    const total = this.count(accountId, f);
    if (offset >= total) return { settlements: [], total, limit, offset };
    const page =
      filter.sort === 'pnl'
        ? this.#pnlPage(accountId, f, limit, offset, total)
        : this.#timePage(accountId, f, limit, offset);
    // Page the ids on the index alone, then read just those rows: skipped entries never cost
    // a table lookup where the index holds the filter's columns.
    const rows = this.#sql
      .get(
        `SELECT ${ROW_COLUMNS} FROM settlements WHERE id IN (${page.sql}) ORDER BY ${page.order}`,
      )
      .all(...page.params) as SettlementRow[];
    return { settlements: rows.map(toSettlement), total, limit, offset };
  }

  /** The number of settlements matching the filter. */
  count(accountId: number, filter: SettlementFilter = {}): number {
    const f = clampRange(filterOf(filter));
    return isEmptyRange(f) ? 0 : this.#counts.count(accountId, f);
  }

  /**
   * Sums per 15-minute slot and type, ascending: what totals and P&L over time are folded from.
   * See settlement-slots.ts.
   */
  slotTotals(accountId: number, filter: SettlementFilter = {}): SlotTotals[] {
    return slotTotals(this.#sql, accountId, filterOf(filter));
  }

  /** The leagues, teams and fixtures the account's settlements hold, and their time span. */
  choices(accountId: number): SettlementChoices {
    return settlementChoices(this.#sql, accountId);
  }

  /**
   * When the settlement before `s` (by time, then id) on the same contract and outcome
   * settled, or null when `s` is the first: the orders after that built the position `s`
   * closed.
   */
  previousOnOutcome(
    accountId: number,
    s: Pick<StoredSettlement, 'id' | 'contractId' | 'outcome' | 'settledAt'>,
  ): number | null {
    const ms = this.#sql
      .get(
        `SELECT timestamp_ms FROM settlements INDEXED BY settlements_by_contract
         WHERE account_id = ? AND contract_id = ? AND outcome = ?
           AND (timestamp_ms < ? OR (timestamp_ms = ? AND id < ?))
         ORDER BY ${TIME_ORDER} LIMIT 1`,
      )
      .pluck()
      .get(accountId, s.contractId, s.outcome, s.settledAt, s.settledAt, s.id) as
      number | undefined;
    return ms ?? null;
  }

  /**
   * Streams matching settlements oldest first as raw rows in EXPORT_SETTLEMENT_COLUMNS order,
   * with the fixture's league and teams when known. Meant for a reader connection
   * (Store.openReader): the statement stays busy until the iterator finishes or is returned.
   *
   * The fixtures are looked up in a map read first (those of the account's settlements: a few
   * thousand at most) rather than joined row by row, which measured a fifth of the export's
   * reading time. On a read-only connection a read transaction makes both reads one snapshot;
   * it ends when the connection closes.
   */
  iterateForExport(accountId: number, filter: SettlementFilter = {}): IterableIterator<unknown[]> {
    if (this.#db.readonly && !this.#db.inTransaction) this.#db.exec('BEGIN');
    const fixtures = new Map<string, readonly unknown[]>();
    const fixtureRows = this.#sql
      .get(
        // One index probe per known fixture: the IN (SELECT ...) form read the account's whole
        // contract index first, a 120-150 ms stall of main at a million rows.
        `SELECT contract_id, league, home_team, away_team FROM fixtures f
         WHERE f.account_id = ? AND EXISTS (
           SELECT 1 FROM settlements s INDEXED BY settlements_by_contract
           WHERE s.account_id = f.account_id AND s.contract_id = f.contract_id)`,
      )
      .raw(true)
      .all(accountId) as [string, ...unknown[]][];
    for (const [contractId, ...names] of fixtureRows) fixtures.set(contractId, names);

    const f = clampRange(filterOf(filter));
    const matched = filteredSettlements(accountId, f);
    const rows = this.#sql
      .get(
        `SELECT timestamp, type, contract_id, outcome, contracts, price, pnl, payout, tx,
           basis_micros, realized_micros, pnl_source
         FROM ${matched.sql} ORDER BY timestamp_ms, id`,
      )
      .raw(true)
      .iterate(...matched.params) as IterableIterator<unknown[]>;
    return withFixtures(rows, fixtures);
  }

  /** The ids of a page newest first; a deep offset is located through the rollups first. */
  #timePage(accountId: number, f: SettlementFilter, limit: number, offset: number): PageIds {
    let pageFilter = f;
    let skip = offset;
    const at = offset >= this.#deepOffsetFrom ? this.#counts.locate(accountId, f, offset) : null;
    if (at !== null) {
      pageFilter = { ...f, to: at.before };
      skip = at.skip;
    }
    const rows = filteredSettlements(accountId, pageFilter);
    return {
      sql: `SELECT id FROM ${rows.sql}
            ORDER BY ${TIME_ORDER} LIMIT ? OFFSET ?`,
      params: [...rows.params, limit, skip],
      order: TIME_ORDER,
    };
  }

  /**
   * The ids of a page largest P&L first, read in order from a P&L index (a contract's or a
   * team's few rows are sorted instead). An offset past the middle is read from the other end,
   * so no page steps over more than half the matches; bench/core-store.ts prints what a deep
   * page costs.
   */
  #pnlPage(
    accountId: number,
    f: SettlementFilter,
    limit: number,
    offset: number,
    total: number,
  ): PageIds {
    const w = settlementWhere(accountId, f, '', '+timestamp_ms');
    const end = Math.min(total, offset + limit);
    const fromEnd = offset > total - end;
    return {
      sql: `SELECT id FROM settlements INDEXED BY ${pnlIndex(f) ?? timeIndex(f)} WHERE ${w.sql}
            ORDER BY ${fromEnd ? PNL_ORDER_REVERSED : PNL_ORDER} LIMIT ? OFFSET ?`,
      params: [...w.params, end - offset, fromEnd ? total - end : offset],
      order: PNL_ORDER,
    };
  }
}

/** The inner query of a page: the ids in order, and that order for the outer query. */
interface PageIds {
  sql: string;
  params: unknown[];
  order: string;
}

/** The filter's own fields only: a query's sort and page do not reach the WHERE clause. */
function filterOf(q: SettlementFilter): SettlementFilter {
  const f: SettlementFilter = {};
  if (q.from !== undefined) f.from = q.from;
  if (q.to !== undefined) f.to = q.to;
  if (q.type !== undefined) f.type = q.type;
  if (q.contractId !== undefined) f.contractId = q.contractId;
  if (q.team !== undefined) f.team = q.team;
  if (q.league !== undefined) f.league = q.league;
  return f;
}

/** The note of a CLOSED or KNOCKED_OUT row that came without its pnl (as migration 006 says). */
const NO_REPORTED_PNL = 'The exchange reported no P&L for this row.';

/** An amount's micros for its column; null when the exchange sent no such field. */
function microsOf(field: string, amount: string | undefined): number | null {
  if (amount === undefined) return null;
  try {
    return toMicros(amount);
  } catch (err) {
    throw new StoreError(`Settlement ${field} "${amount}" is not an amount: ${String(err)}`);
  }
}

const NO_FIXTURE: readonly unknown[] = [null, null, null];

/**
 * Settlement rows (export order without the fixture columns) with the fixture's put in, and the
 * realized P&L columns written as the bridge writes them (the exchange's own pnl string where
 * the figure is its pnl).
 */
function* withFixtures(
  rows: IterableIterator<unknown[]>,
  fixtures: ReadonlyMap<string, readonly unknown[]>,
): Generator<unknown[], void, undefined> {
  try {
    for (const r of rows) {
      const f = fixtures.get(r[2] as string) ?? NO_FIXTURE;
      const [basis, realized, source] = [r[9], r[10], r[11]] as [
        number | null,
        number | null,
        string,
      ];
      const realizedText =
        realized === null
          ? null
          : source === 'exchange' && r[6] !== null
            ? r[6]
            : moneyText(realized);
      yield [
        ...[r[0], r[1], r[2], f[0], f[1], f[2], r[3], r[4], r[5], r[6], r[7], r[8]],
        basis === null ? null : moneyText(basis),
        realizedText,
        source,
      ];
    }
  } finally {
    rows.return?.(); // frees the statement when the caller stops early
  }
}

/** What a settlement export row holds, in this order. */
export const EXPORT_SETTLEMENT_COLUMNS = [
  'timestamp',
  'type',
  'contract_id',
  'league',
  'home_team',
  'away_team',
  'outcome',
  'contracts',
  'price',
  'pnl',
  'payout',
  'tx',
  // Appended by issue 18 (docs/pnl.md), after the columns existing spreadsheets read.
  'cost_basis',
  'realized_pnl',
  'pnl_source',
] as const;
export type ExportSettlementColumn = (typeof EXPORT_SETTLEMENT_COLUMNS)[number];
