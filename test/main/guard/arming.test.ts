/**
 * Arming never sells by surprise (docs/guardians.md, "Arming"): a rule whose condition already
 * holds is judged before it is armed and refused unless the user says they mean it, and then it
 * fires only on figures read after it was armed; a time exit whose minutes have begun is
 * refused; the same rule twice is refused; a figure out of its kind's range is refused in the
 * words the app's dialog uses. The sandbox over HTTP, a real store file, the app's guardian.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FiresNowRefusal } from '../../../src/main/guard/index.js';
import type { Fixture } from '../../../src/shared/api/schemas.js';
import type { GuardSpec } from '../../../src/shared/ipc/contract.js';
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
  dir = tempDir('betdesk-guard-arming-');
});

afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

const rule = (s: Partial<GuardSpec> & Pick<GuardSpec, 'kind'>): GuardSpec => ({
  sharePercent: 100,
  confirmations: 1,
  ...s,
});

interface Scene {
  key: Credentials;
  fixture: Fixture;
  desk: GuardDesk;
}

/** A fresh wallet holding `qty` contracts of a new fixture at index 0.50 (boosted or not). */
async function holding(qty: number, boost = 0): Promise<Scene> {
  const key = await sandbox.newAccount('trade');
  const fixture = await sandbox.admin<Fixture>('POST', '/fixtures', {
    homeTeam: 'HOM',
    awayTeam: 'AWY',
    league: 'Arming League',
  });
  await sandbox.admin('POST', `/fixtures/${fixture.contractId}/price`, {
    outcome: fixture.homeTeam,
    indexPrice: '0.50',
  });
  desk = openGuardDesk({
    baseUrl: sandbox.url,
    apiKey: key.apiKey,
    secret: key.secret,
    db: path.join(dir.dir, `arming-${++n}.sqlite`),
  });
  const bought = await desk.trading.trade({
    contractId: fixture.contractId,
    outcome: fixture.homeTeam,
    side: 'BUY',
    qty: String(qty),
    unit: 'BASE',
    ...(boost > 0 ? { boost } : {}),
  });
  expect(bought.status).toBe('FILLED');
  await desk.engine.syncNow('orders', 'positions', 'fixtures', 'prices');
  return { key, fixture, desk };
}

async function sells(s: Scene): Promise<string[]> {
  const { ExchangeClient } = await import('../../../src/main/client/index.js');
  const client = new ExchangeClient({ baseUrl: sandbox.url, credentials: s.key });
  try {
    return (await allExchangeOrders(client))
      .filter((o) => o.side === 'SELL' && o.contractId === s.fixture.contractId)
      .map((o) => o.clientOrderId);
  } finally {
    await client.close();
  }
}

const where = (s: Scene) => ({ contractId: s.fixture.contractId, outcome: s.fixture.homeTeam });

describe('a rule whose condition already holds', () => {
  it('is judged before arming, refused without fireNow, and sells nothing', async () => {
    const s = await holding(10, 50);
    const ko = rule({ kind: 'knockout', percent: '99.99' });
    const check = s.desk.book.check(s.desk.accountId, { ...where(s), rules: [ko] });
    expect(check.problem).toBeNull();
    expect(check.rules[0]).toMatchObject({ firesNow: true, contracts: 10 });
    expect(check.rules[0]!.distance).toMatch(/^knockout [0-9.]+ % away, within 99\.99 %$/);

    expect(() => s.desk.book.arm(s.desk.accountId, { ...where(s), rules: [ko] })).toThrow(
      FiresNowRefusal,
    );
    expect(() => s.desk.book.arm(s.desk.accountId, { ...where(s), rules: [ko] })).toThrow(
      /would fire at once \(knockout [0-9.]+ % away, within 99\.99 %\) and sell 10 contracts/,
    );
    s.desk.engine.start();
    s.desk.guardian.start();
    await s.desk.engine.syncNow('positions', 'prices');
    expect(s.desk.store.guards.live(s.desk.accountId)).toEqual([]);
    expect(await sells(s)).toEqual([]);
  });

  it('armed with fireNow, fires once, on figures read after it was armed', async () => {
    const s = await holding(10);
    const stop = rule({ kind: 'stop_loss', price: '0.9999' });
    s.desk.guardian.start();
    // The store's figures (read before the rule) already say it holds: judging now on them
    // must not fire it.
    const [armed] = s.desk.book.arm(s.desk.accountId, {
      ...where(s),
      rules: [stop],
      fireNow: true,
    });
    s.desk.guardian.evaluate();
    expect(s.desk.store.guards.get(armed!.id)?.state).toBe('armed');
    expect(await sells(s)).toEqual([]);

    s.desk.engine.start();
    await until('the rule closed', () => s.desk.store.guards.get(armed!.id)?.state === 'closed');
    await s.desk.guardian.idle();
    const fired = s.desk.store.guards.logPage(s.desk.accountId, {
      ruleId: armed!.id,
      event: 'fired',
      limit: 5,
    }).rows;
    expect(fired).toHaveLength(1);
    expect(fired[0]!.observation!.at).toBeGreaterThan(armed!.armedAt);
    expect(await sells(s)).toEqual([s.desk.store.guards.get(armed!.id)!.clientOrderId]);
  });
});

describe('what arming refuses, in words', () => {
  it('a time exit whose minutes have begun (kick-off sooner than its minutes)', async () => {
    const s = await holding(4);
    await sandbox.admin('POST', `/fixtures/${s.fixture.contractId}/kickoff`, {
      startsAt: Date.now() + 10 * 60_000,
    });
    await s.desk.engine.syncNow('fixtures');
    const exit = rule({ kind: 'time_exit', minutes: 30 });
    expect(() => s.desk.book.arm(s.desk.accountId, { ...where(s), rules: [exit] })).toThrow(
      /HOM v AWY kicks off in (9|10) min, sooner than this time exit’s 30 min: it would close at once/,
    );
    expect(s.desk.book.check(s.desk.accountId, { ...where(s), rules: [exit] }).problem).toMatch(
      /sooner than this time exit’s 30 min/,
    );
    // Fewer minutes than are left: armed, and it waits.
    const [ok] = s.desk.book.arm(s.desk.accountId, {
      ...where(s),
      rules: [rule({ kind: 'time_exit', minutes: 5 })],
    });
    expect(ok!.state).toBe('armed');
    expect(await sells(s)).toEqual([]);
  });

  it('the same rule twice on one position, armed together or one after the other', async () => {
    const s = await holding(4, 50);
    const ko = rule({ kind: 'knockout', percent: '5' });
    s.desk.book.arm(s.desk.accountId, { ...where(s), rules: [ko] });
    const again = () =>
      s.desk.book.arm(s.desk.accountId, {
        ...where(s),
        rules: [{ ...ko, percent: '5.00', confirmations: 3 }],
      });
    expect(again).toThrow(/A knockout guard within 5 % of the knockout is already armed on HOM/);
    const twice = () =>
      s.desk.book.arm(s.desk.accountId, {
        ...where(s),
        rules: [
          rule({ kind: 'stop_loss', percent: '20' }),
          rule({ kind: 'stop_loss', percent: '20' }),
        ],
      });
    expect(twice).toThrow(/stop loss at −20 % is already armed/);
    // Another figure or another share is another rule.
    s.desk.book.arm(s.desk.accountId, {
      ...where(s),
      rules: [
        { ...ko, percent: '3' },
        { ...ko, sharePercent: 50 },
      ],
    });
    expect(s.desk.store.guards.live(s.desk.accountId)).toHaveLength(3);
  });

  it('a figure outside its kind’s range, as the app’s dialog words it', async () => {
    const s = await holding(2, 50);
    const cases: [GuardSpec, RegExp][] = [
      [rule({ kind: 'stop_loss', percent: '150' }), /A loss is a % above 0 and at most 100/],
      [rule({ kind: 'knockout', percent: '100' }), /above 0 and below 100/],
      [rule({ kind: 'trailing_stop', percent: '0' }), /above 0 and below 100/],
      [rule({ kind: 'take_profit', price: '0.00' }), /A closing price is between 0 and 1/],
    ];
    for (const [spec, words] of cases) {
      expect(() => s.desk.book.arm(s.desk.accountId, { ...where(s), rules: [spec] })).toThrow(
        words,
      );
    }
    expect(s.desk.store.guards.live(s.desk.accountId)).toEqual([]);
  });
});
