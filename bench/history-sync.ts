/**
 * The first sync of a long history (`npm run bench:sync`; issue 8, "Keeping the history whole"):
 * a wallet holding 10,000 orders, a fresh store, and the app's own parts — the exchange client,
 * the RateGovernor and the SyncEngine on its default intervals, every stream running — against
 * the sandbox over HTTP with its rate limits on. Measures the time from engine.start() to the
 * first-sync sweep's `done`, and compares it with the lower bound the exchange's limits allow:
 * the sweep needs 1 + ceil(settlements / 100) reads (docs/api.md 4.7, 4.9), the reads
 * bucket gives its burst at once and then one a second (8.1), so no client can finish before
 * (reads - burst) seconds. Target: <= 1.1x that bound, and not one 429.
 *
 * The history is made in milliseconds through the sandbox's domain (no HTTP, no limits;
 * test/main/sync/history-maker.ts); the same domain is then served with the limits on.
 * `npx tsx bench/history-sync.ts [orders]` runs it with another number of orders.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startExchange } from '../src/exchange/app.js';
import { createDomain } from '../src/exchange/domain/index.js';
import type { HistorySweepProgress } from '../src/main/sync/index.js';
import { GROUP_LIMITS, ROUTE_GROUPS } from '../src/shared/api/limits.js';
import { makeHistory } from '../test/main/sync/history-maker.js';
import type { BenchReport } from './core-store.js';
import { openSyncParts } from './sync-parts.js';

const TARGET_RATIO = 1.1;
const PAGE = 100;

export async function benchHistorySync(orders = 10_000): Promise<BenchReport> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'betdesk-bench-history-'));
  const made0 = performance.now();
  const domain = await createDomain({ seed: 1, blockMs: 0 });
  const wallet = domain.createWallet();
  const key = domain.createKey({ wallet, permission: 'read' });
  const made = await makeHistory(domain, wallet, orders);
  const settlements = domain.settlements(wallet, { limit: 1 }).total;
  const madeMs = performance.now() - made0;

  // The same domain served with the rate limits of docs/api.md 8.1 on.
  const exchange = await startExchange({ domain, port: 0, rateLimits: true });
  const answers = new Map<string, number>();
  exchange.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const route = `${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}`;
    res.on('finish', () => {
      const k = `${route} ${res.statusCode}`;
      answers.set(k, (answers.get(k) ?? 0) + 1);
    });
  });

  const { governor, client, store, accountId, engine } = openSyncParts(
    exchange.url,
    key,
    wallet,
    dir,
  );

  let progress: HistorySweepProgress | null = null;
  let firstRowsMs: number | null = null;
  let started = 0;
  const done = new Promise<void>((resolve, reject) => {
    engine.on('history:progress', (p) => {
      progress = p;
      if (firstRowsMs === null && p.pages >= 2) firstRowsMs = performance.now() - started;
      if (p.state === 'done') resolve();
      else if (p.state !== 'running') reject(new Error(`the first sync ended ${p.state}`));
    });
  });
  let elapsedMs: number;
  let storedOrders: number;
  let storedSettlements: number;
  try {
    started = performance.now();
    engine.start();
    await done;
    elapsedMs = performance.now() - started;
    storedOrders = store.orders.list(accountId, { limit: 1 }).total;
    storedSettlements = store.settlements.count(accountId);
  } finally {
    await engine.stop();
    await client.close();
    governor.close();
    store.close();
    await exchange.close();
    await domain.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const count = (pred: (route: string, status: number) => boolean): number => {
    let n = 0;
    for (const [k, v] of answers) {
      const i = k.lastIndexOf(' ');
      if (pred(k.slice(0, i), Number(k.slice(i + 1)))) n += v;
    }
    return n;
  };
  const reads = count((route) => ROUTE_GROUPS[route] === 'reads');
  const tooMany = count((_r, status) => status === 429);
  const needed = 1 + Math.max(1, Math.ceil(settlements / PAGE));
  const { burst, perMinute } = GROUP_LIMITS.reads;
  const boundMs = (Math.max(0, needed - burst) / (perMinute / 60)) * 1000;
  const ratio = elapsedMs / boundMs;
  const final = progress as HistorySweepProgress | null;
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const whole = storedOrders === made.orders && storedSettlements === settlements;

  return {
    title: `first sync of ${made.orders.toLocaleString('en')} orders (rate limits on, default intervals)`,
    lines: [
      {
        name: 'first sync, time against the lower bound',
        value: `${s(elapsedMs)} / ${s(boundMs)} = ${ratio.toFixed(3)}x`,
        target: `<= ${TARGET_RATIO}x`,
        ok: ratio <= TARGET_RATIO,
      },
      {
        name: 'first sync 429 answers',
        value: String(tooMany),
        target: '0',
        ok: tooMany === 0,
      },
      {
        name: 'first sync stored the whole history',
        value: `${storedOrders} orders, ${storedSettlements} settlements`,
        target: `${made.orders} and ${settlements}`,
        ok: whole,
      },
    ],
    notes: [
      `history: ${made.orders} orders on ${made.fixtures} fixtures, ${settlements} settlements ` +
        `(made in ${s(madeMs)})`,
      `reads needed ${needed} (1 GET /orders/updates + ${needed - 1} GET /settlements pages), ` +
        `reads made ${reads}; bound = (${needed} - burst ${burst}) at ${perMinute}/min`,
      `progress: ${final?.pages ?? 0} of ${final?.estimatedPages ?? 0} pages, ` +
        `${final?.added ?? 0} records added; first settlements page stored after ` +
        `${firstRowsMs === null ? '-' : s(firstRowsMs)}`,
      `answers: ${[...answers]
        .sort()
        .map(([k, n]) => `${k} x${n}`)
        .join(', ')}`,
      `[load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores]`,
    ],
  };
}

async function main(): Promise<void> {
  const { formatReport } = await import('./core-store.js');
  const orders = Number(process.argv[2] ?? 10_000);
  const report = await benchHistorySync(orders);
  console.log(formatReport(report));
  if (report.lines.some((l) => !l.ok)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
