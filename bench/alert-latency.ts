/**
 * Knockout alert latency: from a price move across a boosted position's knockout (the sandbox
 * control API, over HTTP) to the `alert:knockout` event of the knockout watch, with the sync
 * engine on its DEFAULT intervals, the exchange's rate limits on and every request going
 * through the rate governor. Target: p95 <= 3.5 s over 20 trials, without a single 429.
 *
 * Each trial opens a fresh boosted position (its own fixture), waits until the engine holds it,
 * waits a random 0-4 s so the move lands at a random point of the polling cycle, moves the
 * price below the knockout and times the alert. `npx tsx bench/alert-latency.ts [trials]`
 * runs it alone; bench/core.ts runs it with the store benchmarks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { startExchange } from '../src/exchange/app.js';
import { KnockoutWatch, type KnockoutAlertEvent } from '../src/main/alerts/index.js';
import { dec } from '../src/shared/money.js';
import type { BenchReport } from './core-store.js';
import { openSyncParts } from './sync-parts.js';

const ADMIN = 'bench-admin-token';
const TARGET_P95_MS = 3500;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function benchAlertLatency(trials = 20): Promise<BenchReport> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'betdesk-bench-alerts-'));
  // The sandbox as the app meets it: default block time, price budget and rate limits.
  const exchange = await startExchange({ port: 0, adminToken: ADMIN });
  const answers = new Map<number, number>();
  const routes429 = new Map<string, number>();
  exchange.app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    res.on('finish', () => {
      answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 429) {
        const route = `${req.method ?? ''} ${(req.url ?? '').split('?')[0] ?? ''}`;
        routes429.set(route, (routes429.get(route) ?? 0) + 1);
      }
    });
  });
  const control = async <T>(p: string, body: unknown): Promise<T> => {
    const res = await request(`${exchange.url}/sandbox${p}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.body.json()) as T;
    if (res.statusCode >= 300)
      throw new Error(`control ${p}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };

  const { wallet } = await control<{ wallet: string }>('/wallets', {});
  const key = await control<{ apiKey: string; secret: string }>('/keys', {
    wallet,
    permission: 'trade',
    expiresAt: exchange.domain.now() + 86_400_000,
  });
  const { governor, client, store, accountId, engine } = openSyncParts(
    exchange.url,
    key,
    wallet,
    dir,
  );
  const watch = new KnockoutWatch({ engine, store, accountId });
  const alerts: { event: KnockoutAlertEvent; at: number }[] = [];
  watch.on('alert:knockout', (event) => alerts.push({ event, at: performance.now() }));
  watch.start();
  engine.start();

  const latencies: number[] = [];
  let missed = 0;
  const t0 = performance.now();
  try {
    for (let i = 0; i < trials; i++) {
      const letters = String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26));
      const f = await control<{ contractId: string; homeTeam: string }>('/fixtures', {
        homeTeam: `KO${letters}`,
        awayTeam: `OK${letters}`,
        league: 'BENCH',
      });
      await client.placeOrder({
        orderType: 'MARKET',
        legs: [
          {
            contractId: f.contractId,
            outcome: f.homeTeam,
            side: 'BUY',
            market: 'DRAW_NO_BET',
            boost: 50,
          },
        ],
        qty: '50',
        marketUnit: 'BASE',
      });
      engine.requestSync('orders');
      const held = async (): Promise<string> => {
        for (;;) {
          const p = store.positions.list(accountId, { contractId: f.contractId })[0];
          if (p?.knockout !== undefined) return p.knockout;
          await sleep(50);
        }
      };
      const knockout = await held();
      await sleep(Math.random() * 4000);

      const moved = performance.now();
      await control(`/fixtures/${f.contractId}/price`, {
        outcome: f.homeTeam,
        indexPrice: dec(knockout).minus('0.02').toFixed(4),
      });
      const deadline = moved + 15_000;
      let hit: number | undefined;
      while (performance.now() < deadline) {
        const a = alerts.find(
          (x) => x.event.kind === 'knocked_out' && x.event.contractId === f.contractId,
        );
        if (a) {
          hit = a.at - moved;
          break;
        }
        await sleep(5);
      }
      if (hit === undefined) missed += 1;
      else latencies.push(hit);
    }
  } finally {
    await engine.stop();
    await watch.stop();
    await client.close();
    governor.close();
    store.close();
    await exchange.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = missed > 0 ? Infinity : percentile(sorted, 95);
  const tooMany = answers.get(429) ?? 0;
  const fmt = (ms: number): string =>
    Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'missed';
  return {
    title: 'knockout alert latency (default intervals, rate limits on)',
    lines: [
      {
        name: 'knockout alert latency p95',
        value: fmt(p95),
        target: `<= ${TARGET_P95_MS / 1000} s`,
        ok: p95 <= TARGET_P95_MS,
      },
      {
        name: 'knockout alert 429 answers',
        value: String(tooMany),
        target: '0',
        ok: tooMany === 0,
      },
    ],
    notes: [
      `p50 ${fmt(percentile(sorted, 50))}, max ${fmt(sorted[sorted.length - 1] ?? NaN)} over ${trials} trials` +
        (missed > 0 ? `, ${missed} with no alert within 15 s` : ''),
      `answers by status: ${[...answers].map(([s, n]) => `${s}: ${n}`).join(', ')}` +
        (routes429.size > 0
          ? `; 429 on ${[...routes429].map(([r, n]) => `${r} x${n}`).join(', ')}`
          : ''),
      `${((performance.now() - t0) / 1000).toFixed(0)} s in all [load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores]`,
    ],
  };
}

async function main(): Promise<void> {
  const { formatReport } = await import('./core-store.js');
  const trials = Number(process.argv[2] ?? 20);
  console.log(formatReport(await benchAlertLatency(trials)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
