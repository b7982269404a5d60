/**
 * The price watch: while boosted positions are open, read the index price of their fixtures
 * often and cheaply, one GET /fixtures per tick. GET /fixtures costs nothing of the
 * wallet's buckets or the price-feed budget (only the per-IP fixtures bucket), whereas
 * GET /positions costs a token of a 20/min bucket and 28 price units. When an index price has
 * reached a position's knockout, the exchange has knocked it out (the knockout is "the index
 * price at which the position is knocked out", 2.4), so the engine reads settlements and
 * positions at once instead of waiting for the next positions poll.
 *
 * Each tick reads whichever is fewer requests for a full round: with few boosted fixtures,
 * one of them, round-robin, looked up with the `team` (and, when known, `league`) filters the
 * sandbox documents; with more boosted fixtures than the whole list has pages, the next page
 * of the whole list (whose size the last full fixtures refresh stored as the `fixtures`
 * cursor). docs/api.md 4.2 names only `bettingOpen`, `limit` and `offset` for GET /fixtures: an
 * exchange that ignores `team` answers with other teams' fixtures, and from then on the watch
 * reads pages of the whole list.
 *
 * Every boosted fixture read is recorded with the time it will take to read it again (a round:
 * `pricesMs` times the requests a round takes), so a price read too long ago is known as stale
 * (index-reads.ts).
 */
import type { Fixture, FixturesQuery } from '../../../shared/api/schemas.js';
import { cmp } from '../../../shared/money.js';
import type { StoredPosition } from '../../store/index.js';
import { PAGE_LIMIT, type StreamContext } from './context.js';
import { recordFixturePrices } from '../../prices/record.js';
import { exchangeNow, storeFixtures } from './fixtures.js';
import { markIndexRead } from './index-reads.js';

export interface PricesPass {
  /** False when no boosted position is open: nothing was asked. */
  asked: boolean;
  /** The fixtures of boosted positions read this tick. */
  fixtures: Fixture[];
  /** Those that differ from the stored ones. */
  changed: Fixture[];
  /** Boosted positions on them whose knockout the index price has reached (or that resolved). */
  reached: StoredPosition[];
  /** Prices not recorded, as not exact in micros (prices/record.ts). */
  refusedPrices: string[];
}

export interface PricesMemory {
  /** Round-robin position over the boosted fixtures, or over the list's pages. */
  turn: number;
  /** The exchange answered a `team` lookup with other teams: read whole pages instead. */
  teamFilterIgnored?: boolean;
}

export function boostedPositions(
  ctx: Pick<StreamContext, 'store' | 'accountId'>,
): StoredPosition[] {
  return ctx.store.positions
    .list(ctx.accountId)
    .filter((p) => p.boosted && p.knockout !== undefined);
}

/** One tick of the price watch; `pricesMs` is the watch's interval between two ticks. */
export async function watchPrices(
  ctx: StreamContext,
  memory: PricesMemory,
  pricesMs: number,
): Promise<PricesPass> {
  const boosted = boostedPositions(ctx);
  const contracts = [...new Set(boosted.map((p) => p.contractId))];
  if (contracts.length === 0) {
    return { asked: false, fixtures: [], changed: [], reached: [], refusedPrices: [] };
  }
  const turn = memory.turn;
  memory.turn = (memory.turn + 1) % Number.MAX_SAFE_INTEGER;

  const listed = ctx.store.cursors.get(ctx.accountId, 'fixtures')?.cursor ?? 0;
  const pages = Math.ceil(listed / PAGE_LIMIT);
  let query: FixturesQuery;
  let team: string | undefined;
  const byPages = memory.teamFilterIgnored === true || (pages > 0 && pages < contracts.length);
  if (byPages) {
    query = { limit: PAGE_LIMIT, offset: (turn % Math.max(1, pages)) * PAGE_LIMIT };
  } else {
    const contractId = contracts[turn % contracts.length]!;
    team = boosted.find((p) => p.contractId === contractId)!.outcome;
    const league = ctx.store.fixtures.get(ctx.accountId, contractId)?.league;
    query = { team, ...(league !== undefined ? { league } : {}), limit: PAGE_LIMIT };
  }
  const page = await ctx.client.fixtures(query, { signal: ctx.signal });
  if (team !== undefined && page.fixtures.some((f) => f.homeTeam !== team && f.awayTeam !== team)) {
    memory.teamFilterIgnored = true;
  }
  const wanted = new Set(contracts);
  const fixtures = page.fixtures.filter((f) => wanted.has(f.contractId));
  const changed = storeFixtures(ctx.store, ctx.accountId, fixtures, ctx.now());
  const prices = recordFixturePrices(ctx.store, ctx.accountId, fixtures, exchangeNow(ctx));
  const round = byPages ? Math.max(1, pages) : contracts.length;
  markIndexRead(
    ctx,
    fixtures.map((f) => f.contractId),
    pricesMs * round,
  );
  const byId = new Map(fixtures.map((f) => [f.contractId, f]));
  const reached = boosted.filter((p) => {
    const f = byId.get(p.contractId);
    if (f === undefined) return false;
    if (f.status === 'RESOLVED') return true;
    const index = indexPrice(f, p.outcome);
    return index !== undefined && cmp(index, p.knockout!) <= 0;
  });
  return { asked: true, fixtures, changed, reached, refusedPrices: prices.refused };
}

/** The index price of one outcome of the fixture. */
export function indexPrice(f: Fixture, outcome: string): string | undefined {
  if (outcome === f.homeTeam) return f.homePrice;
  if (outcome === f.awayTeam) return f.awayPrice;
  return undefined;
}
