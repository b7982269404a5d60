/**
 * The rate budget over time (`npm run bench:rate-budget`): two minutes of a busy account against
 * the sandbox with its rate limits on (test/harness/busy-account.ts: the sync engine and
 * knockout watch on their default intervals, three quote loops through the governor, orders
 * placed and followed, prices moving, a knockout halfway). Quotes run 15 s before the window
 * opens, so the bucket's burst is spent. Prints the requests the exchange answered in the
 * window by route, the 429s and 503s, and the quotes answered against their bucket's rate
 * (docs/api.md 8.1; the old test's bar was 95 %). A measurement: it passes or fails nothing.
 *
 *   npx tsx bench/rate-budget.ts [window seconds, default 120]
 */
import { RateGovernor } from '../src/main/governor/index.js';
import { GROUP_LIMITS } from '../src/shared/api/limits.js';
import { startBusyAccount } from '../test/harness/busy-account.js';
import { sleep } from '../test/harness/wait.js';
import { startWorld } from '../test/main/sync/helpers.js';

const WARM_UP_MS = 15_000;

async function main(windowMs: number): Promise<void> {
  const governor = new RateGovernor();
  const world = await startWorld({ governor, blockMs: 500 });
  try {
    const busy = await startBusyAccount(world, { tradeEveryMs: 6000, priceEveryMs: 9000 });
    await sleep(WARM_UP_MS);
    const { requests } = world;
    requests.reset();
    const start = Date.now();
    await sleep(windowMs / 2);
    await busy.knockOut();
    await sleep(windowMs / 2);
    const end = Date.now();
    const counts = {
      positions: requests.count('GET /positions'),
      updates: requests.count('GET /orders/updates'),
      settlements: requests.count('GET /settlements'),
      orderStatus: requests.count('GET /order'),
      orders: requests.count('POST /order'),
      quotes: requests.count('POST /order/rfq'),
      fixtures: requests.count('GET /fixtures'),
    };
    const tooMany = requests.withStatus(429);
    const shed = requests.withStatus(503);
    await busy.stop();

    const quotes = busy.quotedAt.filter((t) => t >= start && t <= end).length;
    const allowed = (GROUP_LIMITS.quotes.perMinute / 60) * ((end - start) / 1000);
    console.log(`# rate budget, ${((end - start) / 1000).toFixed(1)} s window`);
    console.log(`requests answered in the window: ${JSON.stringify(counts)}`);
    console.log(`429 answers: ${tooMany}, 503 answers: ${shed}`);
    console.log(
      `quotes answered: ${quotes} of ${allowed.toFixed(1)} the bucket allows ` +
        `(${((100 * quotes) / allowed).toFixed(1)} %)`,
    );
    console.log(
      `knockout alerts: ${JSON.stringify(busy.alerts)}; sync error: ${busy.engine.status().lastError ?? 'none'}`,
    );
  } finally {
    await world.close();
    governor.close();
  }
}

const seconds = Number(process.argv[2] ?? 120);
main(seconds * 1000).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
