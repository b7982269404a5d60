/**
 * The composition root with its real parts: the store in a temp dir, the sandbox exchange in
 * paper mode, the sync engine, the knockout watch and the trading service.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixturesFilter } from '../../../src/shared/ipc/contract.js';
import { AppHarness } from './support.js';

const ALL: FixturesFilter = { openOnly: false, limit: 100, offset: 0 };
const app = new AppHarness('app');

afterEach(app.cleanup);

const start = async () => (await app.start()).services;

function storedFixtures(): number {
  const db = new Database(join(app.dir, 'betdesk.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM fixtures').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Sockets, servers and timers the process holds (vitest's own are in the baseline). */
function handles(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) {
    if (/TCP|Timeout|Immediate/.test(r)) out[r] = (out[r] ?? 0) + 1;
  }
  return out;
}

describe('createServices', () => {
  it('starts in paper mode and lists the fixtures the first sync put in the store', async () => {
    const { services, seen } = await app.start();
    expect(await services.call('app:info', {})).toMatchObject({
      mode: 'paper',
      activeAccountId: null,
      accountLabel: 'Paper',
    });
    expect(await services.call('accounts:list', {}).then((r) => r.accounts)).toEqual([]);

    await expect
      .poll(() => seen.some((e) => e.event === 'fixtures:changed'), { timeout: 20_000 })
      .toBe(true);
    const page = await services.call('fixtures:list', ALL);
    expect(page.total).toBeGreaterThan(0);
    expect(page.total).toBe(storedFixtures());
    expect(page.syncedAt).not.toBeNull();
    expect(page.leagues.length).toBeGreaterThan(0);
    const leagues = page.fixtures.map((f) => f.league);
    expect(leagues).toEqual([...leagues].sort((a, b) => a.localeCompare(b)));

    const status = await services.call('status:get', {});
    expect(status.mode).toBe('paper');
    expect(status.rateBudget.map((b) => b.group)).toContain('quotes');
    expect((await services.call('sync:pause', {})).sync.state).toBe('paused');
    expect((await services.call('sync:resume', {})).sync.state).not.toBe('paused');
  });

  it('quotes through the trading service with the exchange clock offset', async () => {
    const services = await start();
    await expect
      .poll(async () => (await services.call('fixtures:list', ALL)).total)
      .toBeGreaterThan(0);
    const open = (await services.call('fixtures:list', { ...ALL, openOnly: true })).fixtures[0]!;
    const result = await services.call('quote:request', {
      contractId: open.contractId,
      outcome: open.homeTeam,
      side: 'BUY',
      qty: '10',
      unit: 'BASE',
      boost: 50,
    });
    expect(result.quote.rfqId).toMatch(/\S/);
    expect(result.quote.knockout).toMatch(/^0\.\d+$/);
    expect(Number.isInteger(result.clockOffsetMs)).toBe(true);
    expect(result.quote.expiresAt).toBeGreaterThan(Date.now() + result.clockOffsetMs);
  });

  it('stops everything once, and a restart on the same directory keeps the paper history', async () => {
    const before = handles();
    const first = await start();
    await expect
      .poll(async () => (await first.call('fixtures:list', ALL)).total)
      .toBeGreaterThan(0);
    const session = first.session()!;
    const paperUrl = session.client.baseUrl;
    const open = (await first.call('fixtures:list', { ...ALL, openOnly: true })).fixtures[0]!;
    const placed = await session.trading.placeOrder({
      contractId: open.contractId,
      outcome: open.homeTeam,
      side: 'BUY',
      qty: '2',
      unit: 'BASE',
    });
    expect(placed.status).toBe('SUBMITTED');
    const orderId = placed.order!.orderId;
    const final = await session.trading.waitForFinal(orderId);
    expect(final.status).toBe('FILLED');
    const paperId = session.accountId;

    const stopping = first.stop();
    expect(first.stop()).toBe(stopping);
    await app.stop(first);
    await expect(fetch(`${paperUrl}/health`)).rejects.toThrow();
    // Nothing of this run is left: no more sockets, servers or timers than before it started.
    await expect
      .poll(() => Object.entries(handles()).filter(([k, n]) => n > (before[k] ?? 0)), {
        timeout: 5000,
      })
      .toEqual([]);

    const second = await start();
    // Straight from the store: the paper exchange of this run may not even be listening yet.
    expect((await second.call('fixtures:list', ALL)).total).toBe(storedFixtures());
    expect((await second.call('fixtures:list', ALL)).syncedAt).not.toBeNull();
    expect((await second.call('app:info', {})).mode).toBe('paper');
    const again = second.session()!;
    expect(again.accountId).toBe(paperId);
    expect(second.store.orders.getByOrderId(paperId, orderId)?.orderId).toBe(orderId);
    expect((await again.client.getOrder({ orderId })).orderId).toBe(orderId);
  });
});
