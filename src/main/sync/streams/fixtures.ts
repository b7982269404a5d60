/**
 * Fixtures: every page of GET /fixtures, open for betting or not (no filter), upserted into
 * the store so the history shows teams and leagues offline and the knockout watch has prices.
 */
import type { Fixture } from '../../../shared/api/schemas.js';
import { recordFixturePrices } from '../../prices/record.js';
import type { Store } from '../../store/index.js';
import { PAGE_LIMIT, readAllPages, type StreamContext } from './context.js';
import { markIndexRead } from './index-reads.js';

export interface FixturesPass {
  /** Fixtures new to the store or different from the stored ones. */
  changed: Fixture[];
  total: number;
  /** Prices not recorded, as not exact in micros (prices/record.ts). */
  refusedPrices: string[];
}

/** One full refresh; `fixturesMs` is the stream's interval between two refreshes. */
export async function syncFixtures(ctx: StreamContext, fixturesMs: number): Promise<FixturesPass> {
  const { items, total } = await readAllPages<Fixture>(async (offset) => {
    const p = await ctx.client.fixtures({ limit: PAGE_LIMIT, offset }, { signal: ctx.signal });
    return { items: p.fixtures, total: p.total };
  });
  const changed = storeFixtures(ctx.store, ctx.accountId, items, ctx.now());
  const prices = recordFixturePrices(ctx.store, ctx.accountId, items, exchangeNow(ctx));
  ctx.store.cursors.set(ctx.accountId, 'fixtures', total, ctx.now());
  // The index prices of boosted positions were read too (index-reads.ts).
  const read = new Set(items.map((f) => f.contractId));
  const boosted = ctx.store.positions
    .list(ctx.accountId)
    .filter((p) => p.boosted && read.has(p.contractId))
    .map((p) => p.contractId);
  markIndexRead(ctx, boosted, fixturesMs);
  return { changed, total, refusedPrices: prices.refused };
}

/**
 * The exchange's time now, for the prices history: a fixture carries no time of its own, so
 * local time plus the clock offset the client measured (docs/prices.md).
 */
export function exchangeNow(ctx: Pick<StreamContext, 'client' | 'now'>): number {
  return ctx.now() + ctx.client.clockOffsetMs;
}

/** Upserts the account's fixtures and returns those that were new or different. */
export function storeFixtures(
  store: Store,
  accountId: number,
  fixtures: readonly Fixture[],
  at: number,
): Fixture[] {
  const changed = fixtures.filter(
    (f) => !sameFixture(store.fixtures.get(accountId, f.contractId), f),
  );
  if (changed.length > 0) store.fixtures.upsertMany(accountId, changed, at);
  return changed;
}

function sameFixture(a: Fixture | undefined, b: Fixture): boolean {
  if (a === undefined) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Fixture>;
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}
