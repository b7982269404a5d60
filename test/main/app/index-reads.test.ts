/**
 * Positions never calls stale an index price the alerts and the guardians judge fresh
 * (issue 27, item 9): every read of a boosted position's index, its price changed or not,
 * reaches the windows with its new read time. Paper mode over HTTP, the app's services.
 */
import { afterEach, expect, it } from 'vitest';
import type { PositionsChanged } from '../../../src/shared/ipc/contract.js';
import { AppHarness, marketBet } from './support.js';

const app = new AppHarness('index-reads');
afterEach(() => app.cleanup());

it('pushes the positions on every index read, so its age never lapses between reads', async () => {
  const { services, seen } = await app.start();
  const all = { openOnly: true, limit: 100, offset: 0 };
  await expect
    .poll(async () => (await services.call('fixtures:list', all)).total, { timeout: 30_000 })
    .toBeGreaterThan(0);
  const f = (await services.call('fixtures:list', all)).fixtures[0]!;
  await services.call(
    'order:place',
    marketBet(f, { clientOrderId: 'bd-index-reads-1', qty: '10', boost: 50 }),
  );
  const reads = () => {
    const byTime = new Map<number, number>();
    for (const s of seen) {
      if (s.event !== 'positions:changed') continue;
      const p = (s.payload as PositionsChanged).view.positions[0];
      if (p?.boosted && p.indexReadAt !== null && p.indexStaleAfterMs !== null) {
        byTime.set(p.indexReadAt, p.indexStaleAfterMs);
      }
    }
    return [...byTime].sort((a, b) => a[0] - b[0]);
  };
  // The price does not move. Each read reaches the window before the one before it lapses:
  // between two reads the screen never holds a read older than its stale limit. (A busy
  // machine may delay one read; before the fix, reads reached it only with each positions
  // pass, later than twice the price watch's interval every time.)
  await expect.poll(() => reads().length, { timeout: 30_000, interval: 200 }).toBeGreaterThan(6);
  const r = reads();
  const lapses = r.slice(1).filter(([at], i) => at - r[i]![0] > r[i]![1]);
  expect(lapses.length, JSON.stringify(r)).toBeLessThanOrEqual(1);
});
