/**
 * The Portfolio's reads (docs/portfolio.md): pure, synchronous functions of the store, so they
 * answer offline, with no active exchange, and can run on a read connection in a worker thread.
 * Amounts are whole micro-dollars until they leave as decimal strings.
 *
 * Scopes: `live` adds up every exchange account, `paper` is paper mode alone, `account` is one
 * (its bridge id, or "paper"). Paper money is never added to real money.
 */
import type {
  EquityPeriod,
  EquityPoint,
  EquityQuery,
  EquitySeries,
  PortfolioPosition,
  PortfolioQuery,
  PortfolioScope,
  PortfolioView,
} from '../../shared/ipc/contract.js';
import { fromMicros, toMicros, type Dec } from '../../shared/money.js';
import { unrealizedMicros, unrealizedPnl } from '../../shared/rules/unrealized.js';
import { knockoutDistance, readIndex } from '../alerts/index.js';
import { fixtureLookup } from '../desk/rows.js';
import { settlementRow } from '../history/rows.js';
import { Refusal } from '../refusal.js';
import type { ReadableStore, StoredPosition } from '../store/index.js';
import { exposureOf, NEAR_KNOCKOUT, type ExposedPosition } from './exposure.js';

/** How the portfolio names paper mode's account. */
export const PAPER_ID = 'paper';
export const BEST_WORST = 5;
export const LATEST_SETTLEMENTS = 10;
/** The most points an equity series holds. */
export const MAX_EQUITY_POINTS = 2000;

const DAY_MS = 86_400_000;
/** The span each period looks back from now ("all": from the first point or settlement). */
export const PERIOD_MS: Record<Exclude<EquityPeriod, 'all'>, number> = {
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};

/** A store account in a scope, with how the bridge names it. */
export interface ScopeAccount {
  id: number;
  bridgeId: string;
  label: string;
}

/**
 * The accounts a scope adds up. An unknown account is refused; paper never set up is empty. In
 * `live`, accounts that read one wallet (store/repos/wallets.ts) count once: the one whose
 * positions were read last, the first added on a tie (docs/portfolio.md).
 */
export function scopeAccounts(store: ReadableStore, scope: PortfolioScope): ScopeAccount[] {
  return scopeOf(store, scope).counted;
}

/** A wallet several accounts of a scope read: counted once, from `counted`. */
export interface SharedWallet {
  counted: ScopeAccount;
  others: ScopeAccount[];
}

function scopeOf(
  store: ReadableStore,
  scope: PortfolioScope,
): { counted: ScopeAccount[]; shared: SharedWallet[] } {
  const all = store.accounts.list().map((a) => ({
    id: a.id,
    bridgeId: a.isPaper ? PAPER_ID : String(a.id),
    label: a.label,
    isPaper: a.isPaper,
  }));
  const strip = ({ id, bridgeId, label }: ScopeAccount): ScopeAccount => ({ id, bridgeId, label });
  switch (scope.kind) {
    case 'live':
      return countOnce(store, all.filter((a) => !a.isPaper).map(strip));
    case 'paper':
      return { counted: all.filter((a) => a.isPaper).map(strip), shared: [] };
    case 'account': {
      const wanted = scope.accountId;
      const found = all.filter((a) => a.bridgeId === wanted || String(a.id) === wanted);
      if (found.length === 0 && wanted !== PAPER_ID) {
        throw new Refusal('not-found', 'There is no such account.');
      }
      return { counted: found.slice(0, 1).map(strip), shared: [] };
    }
  }
}

/** One account per wallet: of those reading one, the one whose positions were read last. */
function countOnce(
  store: ReadableStore,
  accounts: ScopeAccount[],
): { counted: ScopeAccount[]; shared: SharedWallet[] } {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const readAt = (a: ScopeAccount) => store.cursors.get(a.id, 'positions')?.lastSyncAt ?? -1;
  const left = new Set<number>();
  const shared: SharedWallet[] = [];
  for (const group of store.wallets.groups()) {
    const members = group.map((id) => byId.get(id)).filter((a) => a !== undefined);
    if (members.length < 2) continue;
    // Ascending ids: the first added wins a tie.
    const counted = members.reduce((best, a) => (readAt(a) > readAt(best) ? a : best));
    const others = members.filter((a) => a !== counted);
    for (const a of others) left.add(a.id);
    shared.push({ counted, others });
  }
  return { counted: accounts.filter((a) => !left.has(a.id)), shared };
}

/** Equity, exposure, the best and worst open positions and the latest settlements. */
export function portfolioView(
  store: ReadableStore,
  { scope }: PortfolioQuery,
  _now: number,
): PortfolioView {
  const { counted: accounts, shared } = scopeOf(store, scope);
  let realized = 0;
  let unknown = 0;
  const open: Open[] = [];
  const latest: PortfolioView['latest'] = [];
  for (const a of accounts) {
    realized += store.equity.realizedMicros(a.id);
    unknown += store.equity.unknownCount(a.id);
    open.push(...openPositions(store, a));
    const fixture = fixtureLookup(store, a.id);
    const page = store.settlements.query(a.id, { sort: 'time', limit: LATEST_SETTLEMENTS });
    for (const s of page.settlements) {
      latest.push({ accountId: a.bridgeId, accountLabel: a.label, row: settlementRow(s, fixture) });
    }
  }
  const unrealized = open.reduce((sum, o) => sum + o.exposed.pnlMicros, 0);
  const byPnl = [...open].sort((x, y) => y.exposed.pnlMicros - x.exposed.pnlMicros);
  return {
    scope,
    accounts: accounts.map((a) => ({
      accountId: a.bridgeId,
      label: a.label,
      positionsAt: store.cursors.get(a.id, 'positions')?.lastSyncAt ?? null,
    })),
    sharedWallets: shared.map(({ counted, others }) => ({
      counted: { accountId: counted.bridgeId, label: counted.label },
      others: others.map((a) => ({ accountId: a.bridgeId, label: a.label })),
    })),
    realized: money(realized),
    unknownSettlements: unknown,
    unrealized: money(unrealized),
    equity: money(realized + unrealized),
    openPositions: open.length,
    exposure: exposureOf(open.map((o) => o.exposed)),
    best: byPnl.slice(0, BEST_WORST).map((o) => o.row),
    worst: byPnl
      .reverse()
      .slice(0, BEST_WORST)
      .map((o) => o.row),
    latest: latest
      .sort((x, y) => y.row.settledAt - x.row.settledAt || y.row.id - x.row.id)
      .slice(0, LATEST_SETTLEMENTS),
  };
}

/**
 * Equity over the period (from the accounts' first record when that is later): at each step,
 * realized P&L to date (the settlement slots that ended by then) + the unrealized P&L of the
 * snapshot in force then (0 before the first one). The last point is now, with the same
 * figures as portfolio:view.
 */
export function equitySeries(
  store: ReadableStore,
  { scope, period }: EquityQuery,
  now: number,
): EquitySeries {
  const accounts = scopeAccounts(store, scope);
  // A period longer than the accounts' life starts at their first point or settlement: before
  // it nothing was recorded, and a flat line at 0 there would read as a month of nothing.
  const first = firstOf(store, accounts, now);
  const from = period === 'all' ? first : Math.max(now - PERIOD_MS[period], first);
  const to = Math.max(now, from);
  const span = to - from;
  const stepMs = Math.max(1, Math.ceil(span / (MAX_EQUITY_POINTS - 1)));
  // Step ends from + k·stepMs before `to`, for k = 0..last; then `to` itself.
  const last = Math.max(0, Math.ceil(span / stepMs) - 1);
  const realized = new Array<number>(last + 1).fill(0);
  const unrealized = new Array<number>(last + 1).fill(0);
  let realizedNow = 0;
  let unrealizedNow = 0;
  for (const a of accounts) {
    const r = store.equity.realizedSteps(a.id, from, stepMs);
    realized[0]! += r.beforeMicros;
    for (const s of r.steps) if (s.k <= last) realized[s.k]! += s.micros;
    realizedNow += store.equity.realizedMicros(a.id);

    store.equity.unrealizedAt(a.id, from, stepMs, last + 1).forEach((micros, k) => {
      unrealized[k]! += micros;
    });
    unrealizedNow += store.positions.list(a.id).reduce((sum, p) => sum + unrealizedMicros(p), 0);
  }
  const points: EquityPoint[] = [];
  let running = 0;
  for (let k = 0; k <= last && from + k * stepMs < to; k++) {
    running += realized[k]!;
    points.push(point(from + k * stepMs, running, unrealized[k]!));
  }
  points.push(point(to, realizedNow, unrealizedNow));
  return { scope, period, from, to, stepMs, points };
}

/** The earliest equity point or settlement of the accounts; `now` when there is none. */
function firstOf(store: ReadableStore, accounts: readonly ScopeAccount[], now: number): number {
  let first = now;
  for (const a of accounts) {
    for (const at of [store.equity.firstAt(a.id), store.equity.firstSettledAt(a.id)]) {
      if (at !== null && at < first) first = at;
    }
  }
  return first;
}

function point(at: number, realized: number, unrealized: number): EquityPoint {
  return {
    at,
    realized: money(realized),
    unrealized: money(unrealized),
    equity: money(realized + unrealized),
  };
}

interface Open {
  exposed: ExposedPosition;
  row: PortfolioPosition;
}

function openPositions(store: ReadableStore, account: ScopeAccount): Open[] {
  const fixture = fixtureLookup(store, account.id);
  return store.positions.list(account.id).map((p) => {
    const ref = fixture(p.contractId);
    const name = ref === null ? p.contractId : `${ref.homeTeam} v ${ref.awayTeam}`;
    const distance = knockoutDistanceOf(store, account.id, p);
    const fraction = distance === null ? null : distance.toFixed(4);
    return {
      exposed: {
        contractId: p.contractId,
        outcome: p.outcome,
        league: ref?.league ?? null,
        fixtureName: name,
        costMicros: toMicros(p.costBasis),
        maxPayoutMicros: toMicros(p.maxPayout),
        pnlMicros: unrealizedMicros(p),
        nearKnockout: distance !== null && distance.lte(NEAR_KNOCKOUT),
      },
      row: {
        accountId: account.bridgeId,
        accountLabel: account.label,
        contractId: p.contractId,
        outcome: p.outcome,
        fixture: ref,
        contracts: p.contracts,
        costBasis: p.costBasis,
        pnl: unrealizedPnl(p),
        value: p.value,
        maxPayout: p.maxPayout,
        boosted: p.boosted,
        knockout: p.boosted ? (p.knockout ?? null) : null,
        knockoutFraction: fraction,
      },
    };
  });
}

/** (index − knockout) / index, as Positions measures it; null when unboosted or unread. */
function knockoutDistanceOf(
  store: ReadableStore,
  accountId: number,
  p: StoredPosition,
): Dec | null {
  if (!p.boosted || p.knockout === undefined) return null;
  const index = readIndex(store, accountId, p);
  return index === undefined ? null : knockoutDistance(index.price, p.knockout);
}

/** Micro-dollars as a decimal string; a sum too large to be exact is refused, not rounded. */
function money(micros: number): string {
  if (!Number.isSafeInteger(micros)) {
    throw new RangeError('A portfolio total is too large to add up exactly.');
  }
  return fromMicros(micros);
}
