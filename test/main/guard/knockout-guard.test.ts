/**
 * A knockout guard protects boosted contracts, and only those (docs/guardians.md, "Knockout
 * guard"): after a knockout it never sells what was never boosted, it ends with the reason and
 * sends nothing, and its share is of the boosted contracts, sold the way the exchange sells
 * (oldest lots first). The sandbox over HTTP, a real store file, the app's guardian; what was
 * sold is read from the sandbox's own signed GET /orders.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../../src/main/client/index.js';
import type { Fixture, Order } from '../../../src/shared/api/schemas.js';
import { dec, price } from '../../../src/shared/money.js';
import { startSandbox, type Credentials, type Sandbox } from '../../exchange/harness.js';
import { until } from '../../harness/wait.js';
import { allExchangeOrders } from '../trading/converge.js';
import { tempDir } from '../trading/support.js';
import { openGuardDesk, type GuardDesk } from './crash-desk.js';

let sandbox: Sandbox;
let dir: { dir: string; cleanup: () => void };
let desk: GuardDesk | undefined;
let n = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  dir = tempDir('betdesk-guard-knockout-');
});

afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

interface Scene {
  key: Credentials;
  fixture: Fixture;
  desk: GuardDesk;
  knockout: string;
}

/** A fresh wallet buying, in order, `unboosted` contracts and then `boosted` at boost 50. */
async function bought(unboosted: number, boosted: number): Promise<Scene> {
  const key = await sandbox.newAccount('trade');
  const fixture = await sandbox.admin<Fixture>('POST', '/fixtures', {
    homeTeam: 'HOM',
    awayTeam: 'AWY',
    league: 'Knockout League',
  });
  await setIndex(fixture, '0.58');
  desk = openGuardDesk({
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: key.secret,
    db: path.join(dir.dir, `knockout-${++n}.sqlite`),
  });
  const buy = async (qty: number, boost: number) => {
    if (qty === 0) return;
    const o = await desk!.trading.trade({
      contractId: fixture.contractId,
      outcome: fixture.homeTeam,
      side: 'BUY',
      qty: String(qty),
      unit: 'BASE',
      boost,
    });
    expect(o.status).toBe('FILLED');
  };
  await buy(unboosted, 0);
  await buy(boosted, 50);
  await desk.engine.syncNow('orders', 'positions', 'fixtures', 'prices');
  const p = desk.store.positions.list(desk.accountId)[0]!;
  expect(p).toMatchObject({ contracts: unboosted + boosted, boosted: true });
  return { key, fixture, desk, knockout: p.knockout! };
}

function setIndex(fixture: Fixture, indexPrice: string): Promise<unknown> {
  return sandbox.admin('POST', `/fixtures/${fixture.contractId}/price`, {
    outcome: fixture.homeTeam,
    indexPrice,
  });
}

async function sells(s: Scene): Promise<Order[]> {
  const client = new ExchangeClient({ baseUrl: sandbox.url, credentials: s.key });
  try {
    return (await allExchangeOrders(client)).filter(
      (o) => o.side === 'SELL' && o.contractId === s.fixture.contractId,
    );
  } finally {
    await client.close();
  }
}

function armGuard(s: Scene, sharePercent = 100): number {
  return s.desk.book.arm(s.desk.accountId, {
    contractId: s.fixture.contractId,
    outcome: s.fixture.homeTeam,
    rules: [{ kind: 'knockout', percent: '10', sharePercent, confirmations: 1 }],
  })[0]!.id;
}

async function watch(s: Scene): Promise<void> {
  s.desk.engine.start();
  s.desk.guardian.start();
  await s.desk.engine.syncNow('positions', 'prices');
}

describe('a knockout guard', () => {
  it('after a knockout, ends and never sells the unboosted contracts left', async () => {
    const s = await bought(3, 2);
    const id = armGuard(s);
    await watch(s);
    // The index jumps past the knockout between two reads: the exchange knocks out the 2.
    await setIndex(s.fixture, '0.20');
    await until('the rule ended', () => s.desk.store.guards.get(id)?.state !== 'armed');
    await s.desk.guardian.idle();
    const ended = s.desk.store.guards.get(id)!;
    expect(ended.state).toBe('ended');
    expect(ended.reason).toMatch(/^the boosted contracts it guarded are gone/);
    expect(await sells(s)).toEqual([]);
    expect(s.desk.store.positions.list(s.desk.accountId)[0]?.contracts).toBe(3);
  });

  it('on a position knocked out whole, ends with the knockout and sends nothing', async () => {
    const s = await bought(0, 5);
    const id = armGuard(s);
    await watch(s);
    await setIndex(s.fixture, '0.20');
    await until('the rule ended', () => s.desk.store.guards.get(id)?.state !== 'armed');
    await s.desk.guardian.idle();
    expect(s.desk.store.guards.get(id)?.state).toBe('ended');
    expect(await sells(s)).toEqual([]);
    const log = s.desk.store.guards.logPage(s.desk.accountId, { ruleId: id, limit: 10 }).rows;
    expect(log.map((r) => r.message).join(' ')).not.toMatch(/arm it again/);
  });

  it('closes its share of the boosted contracts, selling the older lots before them', async () => {
    const s = await bought(3, 2);
    // Half of the 2 boosted: the exchange sells the 3 older unboosted first, then 1 boosted.
    const id = armGuard(s, 50);
    await watch(s);
    await setIndex(s.fixture, price(dec(s.knockout).times('1.05')));
    await until('the rule closed', () => s.desk.store.guards.get(id)?.state === 'closed');
    await s.desk.guardian.idle();
    const sold = await sells(s);
    expect(sold.map((o) => [o.clientOrderId.slice(0, 4), o.contracts])).toEqual([['bdg-', 4]]);
  });
});
