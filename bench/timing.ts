/**
 * The wall-clock figures the tests used to assert (`npm run bench:timing`). The tests now check
 * what happens and in what order; how long it takes is measured here, printed, and judged by a
 * reader, not by a pass/fail on a loaded machine.
 *
 *   exchange CLI: SIGTERM to exit, and SIGINT to exit with a keep-alive connection open
 *     (docs/sandbox.md promises a stop within 2 s)
 *   a 300 ms latency fault: how long the route really takes
 *   SyncEngine.stop() while a poll waits in the governor for a token a minute away
 *   GET /positions answered in 1.5 s, with and without a boosted position open
 *     (positionsBoostedMs 100, positionsIdleMs 60 s)
 *
 *   npx tsx bench/timing.ts [rounds, default 3]
 */
import { ExchangeClient } from '../src/main/client/index.js';
import { SyncEngine } from '../src/main/sync/index.js';
import { startSandbox } from '../test/exchange/harness.js';
import { positionsStarvedGovernor } from '../test/harness/governor.js';
import { spawnProgram, untilListening } from '../test/harness/processes.js';
import { sleep } from '../test/harness/wait.js';
import { buy, newFixture, sell, startWorld, untilFinal } from '../test/main/sync/helpers.js';

function summary(name: string, ms: number[]): void {
  const sorted = ms.slice().sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  console.log(
    `${name}: median ${median.toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms ` +
      `(${ms.map((m) => m.toFixed(0)).join(', ')})`,
  );
}

async function exchangeStop(signal: 'SIGTERM' | 'SIGINT', keepAlive: boolean): Promise<number> {
  const p = spawnProgram(process.execPath, [
    '--import',
    'tsx',
    'src/exchange/cli.ts',
    '--port',
    '0',
    '--no-rate-limits',
  ]);
  const s = await untilListening(p, 'exchange', 30_000);
  if (keepAlive)
    await (await fetch(`${s.url}/time`, { headers: { connection: 'keep-alive' } })).text();
  const t0 = performance.now();
  s.signal(signal);
  await s.exited;
  return performance.now() - t0;
}

async function latencyFault(): Promise<number> {
  const sb = await startSandbox({ rateLimits: false });
  try {
    await sb.control('POST', '/sandbox/faults', {
      route: 'GET /time',
      mode: 'latency',
      count: 1,
      ms: 300,
    });
    const t0 = performance.now();
    await sb.get('/time');
    return performance.now() - t0;
  } finally {
    await sb.close();
  }
}

async function engineStop(): Promise<number> {
  const world = await startWorld({ rateLimits: false, blockMs: 20 });
  const governor = positionsStarvedGovernor();
  const client = new ExchangeClient({
    baseUrl: world.sandbox.url,
    credentials: world.account,
    account: world.account.wallet,
    governor,
  });
  try {
    const { db } = world;
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      streams: ['positions'],
    });
    await engine.syncNow('positions');
    engine.start();
    const waiting = engine.syncNow('positions').catch(() => undefined);
    while (governor.snapshot().queued === 0) await sleep(5);
    const t0 = performance.now();
    await engine.stop();
    const ms = performance.now() - t0;
    await waiting;
    return ms;
  } finally {
    await client.close();
    governor.close();
    await world.close();
  }
}

async function positionsPolling(): Promise<{ idle: number; boosted: number; closed: number }> {
  const world = await startWorld({ rateLimits: false, blockMs: 20 });
  const { db, client, requests } = world;
  try {
    const engine = new SyncEngine({
      client,
      store: db.store,
      accountId: db.accountId,
      streams: ['positions'],
      intervals: { positionsBoostedMs: 100, positionsIdleMs: 60_000 },
    });
    const window = async (): Promise<number> => {
      await engine.syncNow('positions');
      await sleep(150); // a pass already scheduled on the old interval may still start
      requests.reset();
      await sleep(1500);
      return requests.count('GET /positions');
    };
    const f = await newFixture(world.sandbox);
    engine.start();
    const idle = await window();
    let placed = await client.placeOrder(buy(f, 10, 30));
    await untilFinal(client, placed.order.orderId);
    const boosted = await window();
    placed = await client.placeOrder(sell(f, 10));
    await untilFinal(client, placed.order.orderId);
    const closed = await window();
    await engine.stop();
    return { idle, boosted, closed };
  } finally {
    await world.close();
  }
}

async function main(rounds: number): Promise<void> {
  console.log(`# timing, ${rounds} rounds each`);
  const term: number[] = [];
  const int: number[] = [];
  const latency: number[] = [];
  const stop: number[] = [];
  for (let i = 0; i < rounds; i++) {
    term.push(await exchangeStop('SIGTERM', false));
    int.push(await exchangeStop('SIGINT', true));
    latency.push(await latencyFault());
    stop.push(await engineStop());
  }
  summary('exchange CLI, SIGTERM to exit', term);
  summary('exchange CLI, SIGINT to exit with a keep-alive connection', int);
  summary('GET /time under a 300 ms latency fault', latency);
  summary('SyncEngine.stop() with a poll waiting in the governor', stop);
  for (let i = 0; i < rounds; i++) {
    const p = await positionsPolling();
    console.log(
      `GET /positions in 1.5 s: idle ${p.idle}, boosted open ${p.boosted}, after closing it ${p.closed}`,
    );
  }
}

main(Number(process.argv[2] ?? 3)).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
