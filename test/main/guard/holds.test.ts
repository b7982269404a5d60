/**
 * What holds a guardian back, and what stops it, through the app's services with their real
 * parts (docs/guardians.md): paper mode (the sandbox exchange in process, over HTTP) for the
 * practice controls, a live account on a sandbox over HTTP where the test must reach the
 * exchange's control API (a stale feed, a read-only key), the store in a temp dir and the
 * system keychain (run with `bash build/test.sh test/main/guard/holds.test.ts`).
 *
 * - a stale feed holds a rule ("waiting for fresh prices"), and fresh figures release it;
 * - Pause guardians holds every rule, and resuming lets it fire;
 * - the daily limit on automatic closes holds the close past it;
 * - a read-only key cannot arm a rule, in words;
 * - nothing to sell (-2029) and betting closed are reported in the log as failed, not retried:
 *   POST /order is counted on the way to the exchange.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppServices } from '../../../src/main/root/services.js';
import { inlineOrderRequest, validateBet } from '../../../src/main/trading/bet.js';
import type {
  Fixture,
  GuardLogRow,
  GuardRuleView,
  GuardSpec,
  PositionRow,
} from '../../../src/shared/ipc/contract.js';
import { nearKnockoutPrice } from '../../../src/shared/rules/knockout.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { addLiveAccount, AppHarness, marketBet } from '../app/support.js';

const app = new AppHarness('guard-holds');
const sandboxes: Sandbox[] = [];

afterEach(async () => {
  await app.cleanup();
  for (const s of sandboxes.splice(0)) await s.close();
});

const STOP_LOSS: GuardSpec = {
  kind: 'stop_loss',
  percent: '10',
  sharePercent: 100,
  confirmations: 1,
};
const KNOCKOUT: GuardSpec = { kind: 'knockout', percent: '5', sharePercent: 100, confirmations: 1 };

let bets = 0;
const nextId = () => `bd-guard-${Date.now().toString(36)}-${++bets}`;

/** Fixtures open for betting whose home team trades between 0.30 and 0.90 (room to fall). */
async function openFixtures(services: AppServices): Promise<Fixture[]> {
  const all = { openOnly: true, limit: 100, offset: 0 };
  await expect
    .poll(async () => (await services.call('fixtures:list', all)).total, { timeout: 20_000 })
    .toBeGreaterThan(2);
  const { fixtures } = await services.call('fixtures:list', all);
  return fixtures.filter((f) => Number(f.homePrice) >= 0.3 && Number(f.homePrice) <= 0.9);
}

/** Contracts to buy: at least 10 and the fixture's minimum, in whole lots. */
function sizeOf(f: Fixture): string {
  const want = Math.max(10, f.minContracts);
  return String(Math.ceil(want / f.lotSize) * f.lotSize);
}

/** Buys `f`'s home team with the active account and waits until its position is stored. */
async function hold(services: AppServices, f: Fixture, boost = 0): Promise<PositionRow> {
  const placed = await services.call(
    'order:place',
    marketBet(f, { clientOrderId: nextId(), qty: sizeOf(f), boost }),
  );
  expect(placed).toBeDefined();
  const session = services.session()!;
  let row: PositionRow | undefined;
  await expect
    .poll(
      async () => {
        await session.engine.syncNow('orders', 'positions');
        const view = await services.call('positions:list', {});
        row = view.positions.find((p) => p.contractId === f.contractId);
        return row !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return row!;
}

async function arm(services: AppServices, f: Fixture, spec: GuardSpec): Promise<GuardRuleView> {
  const view = await services.call('guards:arm', {
    contractId: f.contractId,
    outcome: f.homeTeam,
    rules: [spec],
  });
  const rule = view.rules.find((r) => r.contractId === f.contractId && r.state === 'armed');
  expect(rule).toBeDefined();
  return rule!;
}

async function ruleOf(services: AppServices, id: number): Promise<GuardRuleView | undefined> {
  return (await services.call('guards:list', {})).rules.find((r) => r.id === id);
}

async function logOf(services: AppServices, ruleId: number): Promise<GuardLogRow[]> {
  return (await services.call('guards:log', { ruleId, limit: 100, offset: 0 })).rows;
}

/** The practice controls' fall: the home team's index price to 0.10 (a loss well past 10 %). */
async function fall(services: AppServices, f: Fixture, to = '0.10'): Promise<void> {
  await services.call('practice:price', {
    contractId: f.contractId,
    outcome: f.homeTeam,
    indexPrice: to,
  });
}

/**
 * Counts POST /order on its way from the active session to the exchange (every send and
 * resend goes through the client's placeOrder); `raw` sends without being counted.
 */
function countOrders(services: AppServices): {
  count(): number;
  raw: (f: Fixture, contracts: number) => Promise<void>;
} {
  const client = services.session()!.client;
  const raw = rawSender(services);
  let n = 0;
  const send = client.placeOrder.bind(client);
  client.placeOrder = (req, o) => {
    n += 1;
    return send(req, o);
  };
  return { count: () => n, raw };
}

/** A SELL sent straight to the exchange with the session's key, as if by hand elsewhere. */
function rawSender(services: AppServices): (f: Fixture, contracts: number) => Promise<void> {
  const client = services.session()!.client;
  const send = client.placeOrder.bind(client);
  return async (f: Fixture, contracts: number) => {
    const bet = validateBet({
      contractId: f.contractId,
      outcome: f.homeTeam,
      side: 'SELL',
      qty: String(contracts),
      unit: 'BASE',
    });
    const placed = await send(inlineOrderRequest(bet, nextId()));
    await expect
      .poll(async () => (await client.getOrder({ orderId: placed.order.orderId })).status, {
        timeout: 20_000,
      })
      .toBe('FILLED');
  };
}

/** Lets the guardian see a few more fresh updates: a rule that stopped must stay stopped. */
async function moreFreshUpdates(services: AppServices, f: Fixture): Promise<void> {
  const session = services.session()!;
  for (const p of ['0.09', '0.08', '0.07']) {
    await fall(services, f, p);
    await session.engine.syncNow('positions', 'orders');
  }
}

describe('guardians held back', () => {
  it('a stale feed holds a rule, waiting for fresh prices, until fresh figures come', async () => {
    const sandbox = await startSandbox({ blockMs: 50, rateLimits: false });
    sandboxes.push(sandbox);
    let sent = 0;
    const place = sandbox.domain.placeOrder.bind(sandbox.domain);
    sandbox.domain.placeOrder = (...args) => {
      if (args[1].legs?.[0]?.side === 'SELL') sent += 1;
      return place(...args);
    };
    const { services } = await app.start();
    await services.call('status:get', {});
    const live = await addLiveAccount(services, sandbox, 'Guarded desk');
    await services.call('accounts:switch', { accountId: live.id });
    const fixture = await fixtureOf(services, (await sandbox.openFixture()).contractId);
    const row = await hold(services, fixture, 50);
    expect(row.boosted).toBe(true);
    const rule = await arm(services, fixture, KNOCKOUT);

    // Every figure fresh first: the positions read and the index price the price watch reads.
    await expect
      .poll(async () => (await ruleOf(services, rule.id))?.hold ?? null, { timeout: 20_000 })
      .toBeNull();

    // Positions can no longer be read: past twice the polling interval the figures are stale.
    await sandbox.admin('POST', '/faults', {
      route: 'GET /positions',
      mode: 'error',
      code: -5002,
      count: 1_000_000,
    });
    await expect
      .poll(async () => (await ruleOf(services, rule.id))?.hold, { timeout: 30_000 })
      .toBe('stale');
    const held = await ruleOf(services, rule.id);
    expect(held?.state).toBe('armed');
    expect(held?.holdMessage).toMatch(/waiting for fresh prices/i);

    // The index falls near the knockout (the price watch still reads it): the rule would fire,
    // and is held instead.
    await sandbox.admin('POST', `/fixtures/${fixture.contractId}/price`, {
      outcome: fixture.homeTeam,
      indexPrice: nearKnockoutPrice(row.knockout!),
    });
    await expect
      .poll(async () => (await logOf(services, rule.id)).some((r) => r.hold === 'stale'), {
        timeout: 30_000,
      })
      .toBe(true);
    const staleRow = (await logOf(services, rule.id)).find((r) => r.hold === 'stale')!;
    expect(staleRow.event).toBe('held');
    expect(staleRow.message).toMatch(/fresh prices/i);
    expect(sent).toBe(0);

    // Fresh figures again: the rule fires and closes the position, once.
    await sandbox.admin('DELETE', '/faults');
    await expect
      .poll(async () => (await ruleOf(services, rule.id))?.state, { timeout: 30_000 })
      .toBe('closed');
    expect(sent).toBe(1);
  }, 120_000);

  it('Pause guardians holds every rule; resuming lets it fire', async () => {
    const { services } = await app.start();
    const [f] = await openFixtures(services);
    await hold(services, f!);
    const rule = await arm(services, f!, STOP_LOSS);
    const orders = countOrders(services);

    const paused = await services.call('guards:pause', { paused: true });
    expect(paused.paused).toBe(true);
    expect(paused.pausedAt).not.toBeNull();
    await fall(services, f!);
    await expect
      .poll(async () => (await logOf(services, rule.id)).some((r) => r.hold === 'paused'), {
        timeout: 20_000,
      })
      .toBe(true);
    const held = (await logOf(services, rule.id)).find((r) => r.hold === 'paused')!;
    expect(held.event).toBe('held');
    expect(held.observation?.closingPrice).toBeTruthy();
    expect((await ruleOf(services, rule.id))?.state).toBe('armed');
    expect(orders.count()).toBe(0);

    // A restart keeps the pause: guardians stay held until the user resumes them.
    await app.stop(services);
    const again = (await app.start()).services;
    expect((await again.call('guards:list', {})).paused).toBe(true);
    await again.call('guards:pause', { paused: false });
    await fall(again, f!, '0.09');
    await expect
      .poll(async () => (await ruleOf(again, rule.id))?.state, { timeout: 30_000 })
      .toBe('closed');
    const log = await logOf(again, rule.id);
    expect(log.filter((r) => r.event === 'fired')).toHaveLength(1);
    expect(log.filter((r) => r.event === 'filled')).toHaveLength(1);
  }, 120_000);

  it('the daily limit on automatic closes holds the close past it', async () => {
    const { services } = await app.start();
    const [one, two] = await openFixtures(services);
    await hold(services, one!);
    await hold(services, two!);
    const settings = await services.call('guards:settings', {});
    await services.call('guards:configure', {
      ...settings,
      limits: { closes: 1, contracts: null, stake: null },
    });
    const first = await arm(services, one!, STOP_LOSS);
    const second = await arm(services, two!, STOP_LOSS);
    const orders = countOrders(services);

    await fall(services, one!);
    await expect
      .poll(async () => (await ruleOf(services, first.id))?.state, { timeout: 30_000 })
      .toBe('closed');
    const view = await services.call('guards:list', {});
    expect(view.usedToday.closes).toBe(1);
    expect(view.limits.closes).toBe(1);

    await fall(services, two!);
    await expect
      .poll(async () => (await logOf(services, second.id)).some((r) => r.hold === 'limit'), {
        timeout: 20_000,
      })
      .toBe(true);
    const held = await ruleOf(services, second.id);
    expect(held?.state).toBe('armed');
    expect(held?.hold).toBe('limit');
    expect(held?.holdMessage).toBeTruthy();
    await moreFreshUpdates(services, two!);
    expect((await ruleOf(services, second.id))?.state).toBe('armed');
    // One close sent; nothing for the second while the limit is reached.
    expect(orders.count()).toBe(1);
  }, 120_000);

  it('a read-only key cannot arm a rule, and says why', async () => {
    const sandbox = await startSandbox({ blockMs: 50, rateLimits: false });
    sandboxes.push(sandbox);
    // The wallet holds a position (bought with a trade key); Betdesk has its read key only.
    const trade = await sandbox.newAccount('trade');
    const opened = await sandbox.admin<Fixture>('POST', '/fixtures', {
      homeTeam: 'HOM',
      awayTeam: 'AWY',
      league: 'Guard League',
    });
    const request = inlineOrderRequest(
      validateBet({
        contractId: opened.contractId,
        outcome: opened.homeTeam,
        side: 'BUY',
        qty: '10',
        unit: 'BASE',
      }),
      nextId(),
    );
    const bought = await sandbox.signed(trade, 'POST', '/order', { body: request });
    expect(bought.status).toBe(202);
    const read = await sandbox.newKey({ wallet: trade.wallet, permission: 'read' });
    const { services } = await app.start();
    await services.call('status:get', {});
    const account = await services.call('accounts:add', {
      label: 'Read only',
      baseUrl: sandbox.url,
      apiKey: read.apiKey,
      secret: read.secret,
    });
    await services.call('accounts:switch', { accountId: account.id });
    await expect
      .poll(
        async () => {
          await services.session()!.engine.syncNow('positions');
          return (await services.call('positions:list', {})).positions.length;
        },
        { timeout: 20_000 },
      )
      .toBe(1);

    expect((await services.call('guards:list', {})).readOnly).toBe(true);
    const refused = services.call('guards:arm', {
      contractId: opened.contractId,
      outcome: opened.homeTeam,
      rules: [STOP_LOSS],
    });
    await expect(refused).rejects.toThrow(/read/i);
    expect((await services.call('guards:list', {})).rules).toEqual([]);
  }, 120_000);
});

describe('guardians refused by the exchange', () => {
  it('nothing to sell (-2029): reported in the log as failed, not retried', async () => {
    const { services } = await app.start();
    const [f] = await openFixtures(services);
    const row = await hold(services, f!);
    const rule = await arm(services, f!, STOP_LOSS);
    const orders = countOrders(services);

    // The figures say the rule should fire, while Pause guardians holds it.
    await services.call('guards:pause', { paused: true });
    await fall(services, f!);
    await expect
      .poll(async () => (await logOf(services, rule.id)).some((r) => r.hold === 'paused'), {
        timeout: 20_000,
      })
      .toBe(true);
    // The position is sold by hand elsewhere; Betdesk has not read it since.
    await services.call('sync:pause', {});
    await orders.raw(f!, row.contracts);
    // Resuming judges the rules at once, on the figures read before the sale.
    await services.call('guards:pause', { paused: false });

    await expect
      .poll(async () => (await ruleOf(services, rule.id))?.state, { timeout: 30_000 })
      .toBe('failed');
    const failed = await ruleOf(services, rule.id);
    expect(failed?.reason).toBeTruthy();
    const log = await logOf(services, rule.id);
    const failure = log.filter((r) => r.event === 'failed');
    expect(failure).toHaveLength(1);
    expect(failure[0]?.errorCode).toBe(-2029);
    expect(failure[0]?.message).toBeTruthy();
    expect(orders.count()).toBe(1);

    await services.call('sync:resume', {});
    await moreFreshUpdates(services, f!);
    expect((await ruleOf(services, rule.id))?.state).toBe('failed');
    expect((await logOf(services, rule.id)).filter((r) => r.event === 'fired')).toHaveLength(1);
    expect(orders.count()).toBe(1);
  }, 120_000);

  it('betting closed (practice:close): reported in the log as failed, not retried', async () => {
    const { services } = await app.start();
    const [f] = await openFixtures(services);
    await hold(services, f!);
    const rule = await arm(services, f!, STOP_LOSS);
    const orders = countOrders(services);

    await services.call('practice:close', { contractId: f!.contractId });
    await fall(services, f!);
    await expect
      .poll(async () => (await ruleOf(services, rule.id))?.state, { timeout: 30_000 })
      .toBe('failed');
    const failed = await ruleOf(services, rule.id);
    expect(failed?.reason).toMatch(/clos/i);
    const log = await logOf(services, rule.id);
    expect(log.filter((r) => r.event === 'failed')).toHaveLength(1);
    // Sent once and refused (-2019), or refused before sending: never more.
    const sentBefore = orders.count();
    expect(sentBefore).toBeLessThanOrEqual(1);

    await moreFreshUpdates(services, f!);
    expect((await ruleOf(services, rule.id))?.state).toBe('failed');
    expect((await logOf(services, rule.id)).filter((r) => r.event === 'failed')).toHaveLength(1);
    expect(orders.count()).toBe(sentBefore);
  }, 120_000);
});

/** The fixture as the store has it, once the first sync brought it. */
async function fixtureOf(services: AppServices, contractId: string): Promise<Fixture> {
  let found: Fixture | undefined;
  await expect
    .poll(
      async () => {
        const page = await services.call('fixtures:list', {
          openOnly: true,
          limit: 100,
          offset: 0,
        });
        found = page.fixtures.find((x) => x.contractId === contractId);
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}
