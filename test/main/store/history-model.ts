/**
 * The history's answers computed the slow, obvious way from every stored row, for tests that
 * compare the store's fast paths (day counts, slots, league rollup, index walks) against them.
 */
import type { Store } from '../../../src/main/store/index.js';
import type {
  SettlementFilter,
  SettlementSort,
  SlotTotals,
} from '../../../src/main/store/repos/settlements.js';
import { SLOT_MS } from '../../../src/main/store/repos/settlements.js';
import type { SettlementType } from '../../../src/shared/api/schemas.js';
import { toMicros } from '../../../src/shared/money.js';
import { fixture } from './support.js';

export interface ModelRow {
  id: number;
  type: SettlementType;
  contract_id: string;
  outcome: string;
  timestamp_ms: number;
  pnl: string | null;
  payout: string | null;
  /** The realized P&L the store keeps (docs/pnl.md): what the slots and the P&L sort add up. */
  realized_micros: number | null;
}

/**
 * The slot columns (n, wins, pnl_sum, payout_sum, pnl_max, pnl_min, unknown) of a GROUP BY's
 * rows, summed the obvious way from each row's realized P&L (docs/pnl.md).
 */
export const REALIZED_SLOT_SUMS = `count(*), count(*) FILTER (WHERE realized_micros > 0),
  coalesce(sum(realized_micros), 0), coalesce(sum(payout_micros), 0),
  max(realized_micros), min(realized_micros), count(*) FILTER (WHERE realized_micros IS NULL)`;

/** Leagues of the sample contracts EPL-0..EPL-10 (support.ts); EPL-9 and EPL-10 have no fixture. */
export const LEAGUE_OF: Record<string, string> = {
  'EPL-0': 'Premier League',
  'EPL-1': 'Premier League',
  'EPL-2': 'Premier League',
  'EPL-3': 'Premier League',
  'EPL-4': 'La Liga',
  'EPL-5': 'La Liga',
  'EPL-6': 'La Liga',
  'EPL-7': 'Serie A',
  'EPL-8': 'Serie A',
};
/** League filter values to try: other letter cases, and one no fixture has. */
export const LEAGUE_FILTERS = ['premier LEAGUE', 'La Liga', 'Serie A', 'Nowhere'];

/** Stores the account's fixtures of LEAGUE_OF whose contract `pick` accepts. */
export function storeFixtures(
  store: Store,
  accountId: number,
  pick: (contractId: string) => boolean = () => true,
) {
  const fixtures = Object.entries(LEAGUE_OF)
    .filter(([c]) => pick(c))
    .map(([contractId, league]) => fixture(contractId, { league }));
  store.fixtures.upsertMany(accountId, fixtures, 1);
}

export function modelRows(store: Store, accountId: number): ModelRow[] {
  return store.db
    .prepare(
      `SELECT id, type, contract_id, outcome, timestamp_ms, pnl, payout, realized_micros
       FROM settlements WHERE account_id = ?`,
    )
    .all(accountId) as ModelRow[];
}

export function matches(r: ModelRow, f: SettlementFilter, leagueOf = LEAGUE_OF): boolean {
  const league = leagueOf[r.contract_id];
  return (
    (f.from === undefined || r.timestamp_ms >= f.from) &&
    (f.to === undefined || r.timestamp_ms < f.to) &&
    (f.type === undefined || r.type === f.type) &&
    (f.contractId === undefined || r.contract_id === f.contractId.toUpperCase()) &&
    (f.team === undefined || r.outcome === f.team.toUpperCase()) &&
    (f.league === undefined ||
      (league !== undefined && league.toLowerCase() === f.league.toLowerCase()))
  );
}

const pnlOf = (r: ModelRow): number | null => r.realized_micros;

/** Newest first, or largest P&L first with rows without one last, then newest first. */
export function referencePage(
  all: ModelRow[],
  f: SettlementFilter & { limit: number; offset: number; sort?: SettlementSort },
  leagueOf = LEAGUE_OF,
): { total: number; ids: number[] } {
  const byTime = (a: ModelRow, b: ModelRow) => b.timestamp_ms - a.timestamp_ms || b.id - a.id;
  const byPnl = (a: ModelRow, b: ModelRow) => {
    const pa = pnlOf(a);
    const pb = pnlOf(b);
    if (pa !== pb) {
      if (pa === null) return 1;
      if (pb === null) return -1;
      return pb - pa;
    }
    return byTime(a, b);
  };
  const found = all.filter((r) => matches(r, f, leagueOf)).sort(f.sort === 'pnl' ? byPnl : byTime);
  return {
    total: found.length,
    ids: found.slice(f.offset, f.offset + f.limit).map((r) => r.id),
  };
}

/** Per slot and type, ascending, from the rows that match. */
export function referenceSlots(
  all: ModelRow[],
  f: SettlementFilter,
  leagueOf = LEAGUE_OF,
): SlotTotals[] {
  const slots = new Map<string, SlotTotals>();
  for (const r of all.filter((row) => matches(row, f, leagueOf))) {
    const slot = Math.floor(r.timestamp_ms / SLOT_MS);
    const key = `${String(slot).padStart(12, '0')}|${r.type}`;
    let s = slots.get(key);
    if (s === undefined) {
      s = {
        slot,
        type: r.type,
        count: 0,
        wins: 0,
        pnlMicros: 0,
        payoutMicros: 0,
        maxPnlMicros: null,
        minPnlMicros: null,
        unknown: 0,
      };
      slots.set(key, s);
    }
    const pnl = pnlOf(r);
    const payout = r.payout === null ? null : toMicros(r.payout);
    s.count++;
    if ((pnl ?? 0) > 0) s.wins++;
    if (pnl === null) s.unknown++;
    s.pnlMicros += pnl ?? 0;
    s.payoutMicros += payout ?? 0;
    if (pnl !== null) {
      s.maxPnlMicros = s.maxPnlMicros === null ? pnl : Math.max(s.maxPnlMicros, pnl);
      s.minPnlMicros = s.minPnlMicros === null ? pnl : Math.min(s.minPnlMicros, pnl);
    }
  }
  return [...slots.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, s]) => s);
}
