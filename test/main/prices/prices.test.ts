/**
 * Prices over time with the real parts: paper mode (the sandbox in process, over HTTP), the
 * store in a temp dir, the sync engine. The sync records the index prices it reads, and a
 * practice price move shows on the bridge's 24 h line and in the outcome's series.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../../../src/shared/ipc/contract.js';
import { AppHarness } from '../app/support.js';

const app = new AppHarness('prices');
/** The paper exchange starts and syncs in the background: give it time on a busy machine. */
const WAIT = { timeout: 30_000, interval: 100 };
afterEach(app.cleanup);

describe('prices over time on the bridge', () => {
  it(
    'records what the sync reads and shows a practice move on the line and the series',
    { timeout: 120_000 },
    async () => {
      const { services } = await app.start();
      const all = { openOnly: true, limit: 100, offset: 0 };
      await expect
        .poll(async () => (await services.call('fixtures:list', all)).total, WAIT)
        .toBeGreaterThan(0);
      const f: Fixture = (await services.call('fixtures:list', all)).fixtures[0]!;
      const line = async (outcome: string) =>
        (await services.call('prices:lines', { contractIds: [f.contractId] })).lines.find(
          (l) => l.outcome === outcome,
        );

      // The first fixtures sync recorded both outcomes at the prices it listed.
      await expect.poll(() => line(f.homeTeam), WAIT).toMatchObject({ last: f.homePrice });
      await expect.poll(() => line(f.awayTeam), WAIT).toMatchObject({ last: f.awayPrice });
      const moveTo = f.homePrice === '0.0700' ? '0.0800' : '0.0700';
      await services.call('practice:price', {
        contractId: f.contractId,
        outcome: f.homeTeam,
        indexPrice: moveTo,
      });

      await expect.poll(() => line(f.homeTeam), WAIT).toMatchObject({ last: moveTo });
      const moved = (await line(f.homeTeam))!;
      expect(moved.first).toBe(f.homePrice);
      expect(moved.points.map((p) => p.price)).toEqual([f.homePrice, moveTo]);
      expect(moved.points[1]!.at).toBeGreaterThan(moved.points[0]!.at);

      const series = await services.call('prices:series', {
        contractId: f.contractId,
        outcome: f.homeTeam,
      });
      expect(series.points.map((p) => [p.resolution, p.close])).toEqual([
        ['raw', f.homePrice],
        ['raw', moveTo],
      ]);
      expect(series.points[1]!.at).toBeGreaterThan(series.points[0]!.at);
    },
  );
});
