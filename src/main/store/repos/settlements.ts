/**
 * Finished bets (GET /settlements), kept so the history works offline and exports fast.
 *
 * Rows are deduplicated by settlementKey(): the exchange gives settlements no id and the sync
 * engine re-reads pages, so inserting is insert-or-ignore. Pages are ordered newest first by
 * (timestamp_ms, id), both descending, which is stable and keyset-friendly.
 *
 * A long history must page fast. Counting matches and skipping to a deep offset both cost one
 * step per row in SQLite, so for the filters that can match most of the history (none, a date
 * range, a type) the repository uses settlement_day_counts, kept by triggers: the total is a sum
 * over days, and a deep offset first finds the day it falls in, then skips only inside that day.
 * The selective filters (contract, team) read their own index directly.
 */
import type { Settlement, SettlementType } from '../../../shared/api/schemas.js';
import type { Db, Statement } from '../connection.js';
import { StatementCache } from '../connection.js';
import { StoreError } from '../errors.js';
import { settlementKey } from '../keys.js';
import { normalizePage, orNull, type PageRequest } from '../paging.js';

export const DAY_MS = 86_400_000;

export interface SettlementFilter {
  /** Settled at or after this time (ms since epoch). */
  from?: number;
  /** Settled before this time (ms since epoch, exclusive). */
  to?: number;
  type?: SettlementType;
  contractId?: string;
  /** The team the bet was on (its outcome). */
  team?: string;
}

/** A settlement as stored: the exchange's fields plus the local row id. */
export interface StoredSettlement extends Settlement {
  id: number;
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
}

function toSettlement(r: SettlementRow): StoredSettlement {
  const s: StoredSettlement = {
    id: r.id,
    type: r.type,
    contractId: r.contract_id,
    outcome: r.outcome,
    contracts: r.contracts,
    tx: r.tx,
    timestamp: r.timestamp,
  };
  if (r.payout !== null) s.payout = r.payout;
  if (r.price !== null) s.price = r.price;
  if (r.pnl !== null) s.pnl = r.pnl;
  return s;
}

/**
 * Parses the exchange's ISO 8601 time. A time without a zone is read as UTC (the spec's zone),
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

interface Where {
  sql: string;
  params: unknown[];
  index: string;
  /** True when the day counts can answer for this filter (no contract, no team). */
  byDays: boolean;
}

function settlementWhere(accountId: number, f: SettlementFilter, t = ''): Where {
  const terms = [`${t}account_id = ?`];
  const params: unknown[] = [accountId];
  let index = 'settlements_by_time';
  if (f.contractId !== undefined) {
    terms.push(`${t}contract_id = ?`);
    params.push(f.contractId.toUpperCase());
    index = 'settlements_by_contract';
  }
  if (f.team !== undefined) {
    terms.push(`${t}outcome = ?`);
    params.push(f.team.toUpperCase());
    if (f.contractId === undefined) index = 'settlements_by_outcome';
  }
  if (f.type !== undefined) {
    terms.push(`${t}type = ?`);
    params.push(f.type);
    if (index === 'settlements_by_time') index = 'settlements_by_type';
    if (index === 'settlements_by_outcome') index = 'settlements_by_outcome_type';
  }
  if (f.from !== undefined) {
    terms.push(`${t}timestamp_ms >= ?`);
    params.push(f.from);
  }
  if (f.to !== undefined) {
    terms.push(`${t}timestamp_ms < ?`);
    params.push(f.to);
  }
  return {
    sql: terms.join(' AND '),
    params,
    index,
    byDays: f.contractId === undefined && f.team === undefined,
  };
}

/** Index of the first UTC day wholly inside [from, ...) and one past the last inside [..., to). */
function fullDays(from: number, to: number): { first: number; end: number } {
  return { first: Math.ceil(from / DAY_MS), end: Math.floor(to / DAY_MS) };
}

const NO_END = Number.MAX_SAFE_INTEGER;
/** Days per step of the first, coarse walk that locates a deep offset. */
const LOCATE_BLOCK_DAYS = 32;

export class SettlementsRepo {
  readonly #db: Db;
  readonly #sql: StatementCache;
  readonly #deepOffsetFrom: number;
  #insert: Statement | undefined;

  constructor(db: Db, options: SettlementsRepoOptions = {}) {
    this.#db = db;
    this.#sql = new StatementCache(db);
    this.#deepOffsetFrom = options.deepOffsetFrom ?? 1000;
  }

  /**
   * Inserts the settlement unless the same one is stored already. Returns true when it was new.
   * Not a transaction by itself; Store.applySettlements wraps a batch in one.
   * @throws StoreError when the timestamp is not a time.
   */
  insert(accountId: number, s: Settlement): boolean {
    const ms = parseTimestamp(s.timestamp);
    this.#insert ??= this.#sql.get(
      `INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
         price, pnl, payout, tx, timestamp, timestamp_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, dedup_key) DO NOTHING`,
    );
    return (
      this.#insert.run(
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
      ).changes === 1
    );
  }

  /** Matching settlements, newest first, with the number of all matches. */
  query(accountId: number, filter: SettlementFilter & PageRequest = {}): SettlementPage {
    const { limit, offset } = normalizePage(filter);
    const f = clampRange(filter);
    const total = this.count(accountId, f);
    if (offset >= total) return { settlements: [], total, limit, offset };

    let pageFilter = f;
    let skip = offset;
    if (offset >= this.#deepOffsetFrom && settlementWhere(accountId, f).byDays) {
      const at = this.#locate(accountId, f, offset);
      pageFilter = { ...f, to: at.before };
      skip = at.skip;
    }
    const w = settlementWhere(accountId, pageFilter);
    // Page the ids on the index alone, then read just those rows: skipped entries never cost
    // a table lookup (each index holds its filter's columns; a contract has few rows anyway).
    const rows = this.#sql
      .get(
        `SELECT id, type, contract_id, outcome, contracts, price, pnl, payout, tx, timestamp
         FROM settlements WHERE id IN (
           SELECT id FROM settlements INDEXED BY ${w.index} WHERE ${w.sql}
           ORDER BY timestamp_ms DESC, id DESC LIMIT ? OFFSET ?)
         ORDER BY timestamp_ms DESC, id DESC`,
      )
      .all(...w.params, limit, skip) as SettlementRow[];
    return { settlements: rows.map(toSettlement), total, limit, offset };
  }

  /** The number of settlements matching the filter. */
  count(accountId: number, filter: SettlementFilter = {}): number {
    const f = clampRange(filter);
    if (f.from !== undefined && f.to !== undefined && f.to <= f.from) return 0;
    const w = settlementWhere(accountId, f);
    if (!w.byDays) return this.#countRows(w);

    const from = f.from ?? 0;
    const to = f.to ?? NO_END;
    const days = fullDays(from, to);
    if (days.first >= days.end) return this.#countRows(w); // within two days: count them
    let n = this.#countDays(accountId, f.type, days.first, days.end);
    if (f.to !== undefined && f.to > days.end * DAY_MS) {
      n += this.#countRange(accountId, f.type, days.end * DAY_MS, f.to);
    }
    if (f.from !== undefined && f.from < days.first * DAY_MS) {
      n += this.#countRange(accountId, f.type, f.from, days.first * DAY_MS);
    }
    return n;
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
        `SELECT contract_id, league, home_team, away_team FROM fixtures
         WHERE contract_id IN (
           SELECT contract_id FROM settlements INDEXED BY settlements_by_contract
           WHERE account_id = ?)`,
      )
      .raw(true)
      .all(accountId) as [string, ...unknown[]][];
    for (const [contractId, ...names] of fixtureRows) fixtures.set(contractId, names);

    const w = settlementWhere(accountId, clampRange(filter));
    const rows = this.#sql
      .get(
        `SELECT timestamp, type, contract_id, outcome, contracts, price, pnl, payout, tx
         FROM settlements INDEXED BY ${w.index}
         WHERE ${w.sql} ORDER BY timestamp_ms, id`,
      )
      .raw(true)
      .iterate(...w.params) as IterableIterator<unknown[]>;
    return withFixtures(rows, fixtures);
  }

  /**
   * Where the row at `offset` (newest first) lies: every row before it is at or after
   * `before`, except `skip` of them. Walks the head partial day, then whole days by their
   * counts, then the tail partial day.
   */
  #locate(
    accountId: number,
    f: SettlementFilter,
    offset: number,
  ): { before?: number; skip: number } {
    const from = f.from ?? 0;
    const to = f.to ?? NO_END;
    const days = fullDays(from, to);
    if (days.first >= days.end) return { before: f.to, skip: offset };

    let skip = offset;
    if (f.to !== undefined && f.to > days.end * DAY_MS) {
      const head = this.#countRange(accountId, f.type, days.end * DAY_MS, f.to);
      if (skip < head) return { before: f.to, skip };
      skip -= head;
    }
    // Newest first: the block of LOCATE_BLOCK_DAYS days the offset falls in, then its day.
    // A window function over every day (or a walk over them in JS) measured several times this.
    const typeTerm = f.type === undefined ? '' : 'AND type = ?';
    const params = typeParams(accountId, f.type);
    const blocks = this.#sql
      .get(
        `SELECT day / ${LOCATE_BLOCK_DAYS} AS block, sum(n) FROM settlement_day_counts
         WHERE account_id = ? ${typeTerm} AND day >= ? AND day < ?
         GROUP BY block ORDER BY block DESC`,
      )
      .raw(true)
      .iterate(...params, days.first, days.end) as IterableIterator<[number, number]>;
    let seen = 0; // rows on the days newer than the one looked at
    let hit: number | undefined;
    for (const [block, n] of blocks) {
      if (seen + n > skip) {
        hit = block;
        break;
      }
      seen += n;
    }
    if (hit !== undefined) {
      const dayRows = this.#sql
        .get(
          `SELECT day, sum(n) FROM settlement_day_counts
           WHERE account_id = ? ${typeTerm} AND day >= ? AND day < ?
           GROUP BY day ORDER BY day DESC`,
        )
        .raw(true)
        .iterate(
          ...params,
          Math.max(days.first, hit * LOCATE_BLOCK_DAYS),
          Math.min(days.end, (hit + 1) * LOCATE_BLOCK_DAYS),
        ) as IterableIterator<[number, number]>;
      for (const [day, n] of dayRows) {
        if (seen + n > skip) {
          dayRows.return?.();
          return { before: (day + 1) * DAY_MS, skip: skip - seen };
        }
        seen += n;
      }
    }
    return { before: days.first * DAY_MS, skip: skip - seen };
  }

  #countRows(w: Where): number {
    return this.#sql
      .get(`SELECT count(*) FROM settlements INDEXED BY ${w.index} WHERE ${w.sql}`)
      .pluck()
      .get(...w.params) as number;
  }

  #countRange(
    accountId: number,
    type: SettlementType | undefined,
    from: number,
    to: number,
  ): number {
    return this.#countRows(settlementWhere(accountId, { type, from, to }));
  }

  #countDays(
    accountId: number,
    type: SettlementType | undefined,
    first: number,
    end: number,
  ): number {
    const typeTerm = type === undefined ? '' : 'AND type = ?';
    return this.#sql
      .get(
        `SELECT coalesce(sum(n), 0) FROM settlement_day_counts
         WHERE account_id = ? ${typeTerm} AND day >= ? AND day < ?`,
      )
      .pluck()
      .get(...typeParams(accountId, type), first, end) as number;
  }
}

const NO_FIXTURE: readonly unknown[] = [null, null, null];

/** Settlement rows (export order without the fixture columns) with the fixture's put in. */
function* withFixtures(
  rows: IterableIterator<unknown[]>,
  fixtures: ReadonlyMap<string, readonly unknown[]>,
): Generator<unknown[], void, undefined> {
  try {
    for (const r of rows) {
      const f = fixtures.get(r[2] as string) ?? NO_FIXTURE;
      yield [r[0], r[1], r[2], f[0], f[1], f[2], r[3], r[4], r[5], r[6], r[7], r[8]];
    }
  } finally {
    rows.return?.(); // frees the statement when the caller stops early
  }
}

function typeParams(accountId: number, type: SettlementType | undefined): unknown[] {
  return type === undefined ? [accountId] : [accountId, type];
}

/** Times before 1970 match nothing stored; dropping them keeps the day arithmetic simple. */
function clampRange<F extends SettlementFilter>(f: F): F {
  if (f.from === undefined || f.from >= 0) return f;
  return { ...f, from: 0 };
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
] as const;
export type ExportSettlementColumn = (typeof EXPORT_SETTLEMENT_COLUMNS)[number];
