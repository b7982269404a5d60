/**
 * Issue 27 item 8, in the app's services over the paper exchange (HTTP): an order placed outside
 * the desk (the guardian's and the CLI's path, the trading service itself) and an order another
 * process writes to the same store file both reach the open screens, without a reload.
 */
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { STORE_FILE } from '../../../src/main/data/store-file.js';
import { openStore } from '../../../src/main/store/index.js';
import type { Fixture, OrdersChanged } from '../../../src/shared/ipc/contract.js';
import { order } from '../store/support.js';
import { AppHarness, type Seen } from './support.js';

const app = new AppHarness('orders-news');
afterAll(() => app.cleanup());

const pushes = (seen: Seen[]) =>
  seen.filter((s) => s.event === 'orders:changed').map((s) => s.payload as OrdersChanged);

it('an order placed by the trading service itself (a guardian close) reaches the screens, to FILLED', async () => {
  const { services, seen } = await app.start();
  await expect
    .poll(
      async () =>
        (await services.call('fixtures:list', { openOnly: true, limit: 5, offset: 0 })).total,
      {
        timeout: 20_000,
      },
    )
    .toBeGreaterThan(0);
  const [f] = (await services.call('fixtures:list', { openOnly: true, limit: 5, offset: 0 }))
    .fixtures as [Fixture];
  const session = services.session();
  if (!session) throw new Error('no session');
  const outcome = await session.trading.trade({
    contractId: f.contractId,
    outcome: f.homeTeam,
    side: 'BUY',
    qty: '10',
    unit: 'BASE',
    boost: 0,
    clientOrderId: 'bdg-28-news',
  });
  expect(outcome.order?.status).toBe('FILLED');
  await expect
    .poll(
      () =>
        pushes(seen)
          .flatMap((p) => p.rows)
          .filter((r) => r.clientOrderId === 'bdg-28-news')
          .map((r) => r.status)
          .at(-1),
      { timeout: 5_000, interval: 20 },
    )
    .toBe('FILLED');
  expect(pushes(seen).every((p) => p.accountId === null)).toBe(true);

  // Another process (the CLI) writes the same file: the screens are told to read again.
  const before = pushes(seen).length;
  const cli = openStore(path.join(app.dir, STORE_FILE));
  try {
    cli.orders.upsert(session.accountId, order(77, { clientOrderId: 'cli-77', status: 'FILLED' }));
  } finally {
    cli.close();
  }
  await expect
    .poll(
      () =>
        pushes(seen)
          .slice(before)
          .some((p) => p.more),
      { timeout: 10_000, interval: 50 },
    )
    .toBe(true);
  const page = await services.call('orders:list', { limit: 100, offset: 0 });
  expect(page.rows.map((r) => r.clientOrderId)).toContain('cli-77');
}, 60_000);
