/**
 * `npm run bench:export`: main stays responsive while the app exports 1,000,000 settlements.
 *
 * A store is filled with 1,000,000 settlements (a year, ~40 fixtures a day, bets around
 * kick-off). The app's export service (src/main/export/feature.ts) then exports all of them, as the
 * History screen's Export CSV… does:
 *
 *   download  through the browser host's download route over real HTTP (startHost), fetched by
 *             a separate process, as a browser would
 *   file      to a file, as the desktop app does after its save dialog
 *
 * While each runs, a timer stands in for sync (a small store write and a page read every 50 ms)
 * and perf_hooks.monitorEventLoopDelay (1 ms resolution; its figures include that 1 ms) samples
 * main's event loop. Printed: event-loop delay p50/p99/max (target p99 <= 50 ms), the sync
 * stand-in's lateness, rows/s, and peak RSS growth.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AccountSession } from '../src/main/root/session.js';
import { exportFeature } from '../src/main/export/feature.js';
import { ExportDownloads } from '../src/main/export/index.js';
import { startHost } from '../src/main/host/server.js';
import { openStore, type Store } from '../src/main/store/index.js';
import type { Fixture } from '../src/shared/api/schemas.js';
import type { ExportProgress, ExportRequest } from '../src/shared/ipc/contract.js';
import { memoryServices } from '../test/main/ipc/memory-services.js';

const ROWS = 1_000_000;
const DAYS = 365;
const FIXTURES_PER_DAY = 40;
const FIXTURES = DAYS * FIXTURES_PER_DAY;
const START = Date.UTC(2024, 0, 1);
const LEAGUES = ['Premier League', 'La Liga', 'Serie A', 'Bundesliga'];
const TEAMS = Array.from({ length: 80 }, (_, i) => `T${String.fromCharCode(65 + (i % 26))}${i}`);
const TARGET_P99_MS = 50;
const SYNC_EVERY_MS = 50;

const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'betdesk-bench-export-'));
process.on('exit', () => fs.rmSync(tempRoot, { recursive: true, force: true }));

function fixtureOf(k: number): Fixture {
  const day = Math.floor(k / FIXTURES_PER_DAY);
  // Kick-offs from 12:00 to 21:45 UTC, every quarter hour across the day's fixtures.
  const kickOff = START + day * 86_400_000 + (12 * 60 + (k % FIXTURES_PER_DAY) * 15) * 60_000;
  const home = TEAMS[k % TEAMS.length]!;
  const away = TEAMS[(k * 7 + 3) % TEAMS.length]!;
  return {
    contractId: `FX-${String(k).padStart(6, '0')}`,
    league: LEAGUES[k % LEAGUES.length]!,
    homeTeam: home,
    awayTeam: away === home ? TEAMS[(k + 1) % TEAMS.length]! : away,
    startsAt: kickOff,
    bettingOpen: false,
    status: 'RESOLVED',
    homePrice: '1.0000',
    awayPrice: '0.0000',
    winner: home,
    lotSize: 1,
    minContracts: 1,
  };
}

/**
 * One INSERT ... SELECT over a recursive CTE (the store's triggers keep their counts as for any
 * insert). Each fixture gets ~68 settlements within three hours of its kick-off. Amounts are
 * written as strings and, when the schema has them, as micros beside them.
 */
function seed(store: Store, accountId: number): number {
  const t0 = performance.now();
  const fixtures = Array.from({ length: FIXTURES }, (_, k) => fixtureOf(k));
  store.fixtures.upsertMany(accountId, fixtures, START);
  store.db.exec(
    `CREATE TEMP TABLE bench_fixture (k INTEGER PRIMARY KEY, contract_id TEXT, home TEXT,
       away TEXT, starts INTEGER)`,
  );
  const ins = store.db.prepare('INSERT INTO bench_fixture VALUES (?, ?, ?, ?, ?)');
  store.transaction(() =>
    fixtures.forEach((f, k) => ins.run(k, f.contractId, f.homeTeam, f.awayTeam, f.startsAt)),
  );
  const columns = (store.db.pragma('table_info(settlements)') as { name: string }[]).map(
    (c) => c.name,
  );
  const micros = columns.includes('pnl_micros');
  // Integers spliced in as literals: better-sqlite3 binds JS numbers as REAL.
  const int = (n: number) => String(Math.trunc(n));
  store.transaction(() =>
    store.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${int(ROWS - 1)}),
         g AS (
           SELECT i, (i * 2654435761) % 100 AS r, i * ${int(FIXTURES)} / ${int(ROWS)} AS k,
             (i * 40503) % 10800000 AS after FROM n),
         v AS (
           SELECT g.i, g.r, f.contract_id, f.home, f.away, f.starts + g.after AS ms,
             CASE WHEN g.r < 50 THEN 'CLOSED' WHEN g.r < 65 THEN 'KNOCKED_OUT' ELSE 'SETTLEMENT' END
               AS type,
             CASE WHEN g.r % 3 = 0 THEN -1 ELSE 1 END AS sign
           FROM g JOIN bench_fixture f ON f.k = g.k)
         INSERT INTO settlements (account_id, dedup_key, type, contract_id, outcome, contracts,
           price, pnl, payout, tx, timestamp, timestamp_ms
           ${micros ? ', pnl_micros, payout_micros' : ''})
         SELECT ${int(accountId)}, unhex(printf('%032x', v.i)), v.type, v.contract_id,
           CASE WHEN v.r % 2 = 0 THEN v.home ELSE v.away END, 1 + v.r * 7,
           CASE WHEN v.r < 65 THEN printf('0.%04d', 500 + v.r * 91) END,
           CASE WHEN v.r < 65 THEN printf('%s%d.%02d', CASE WHEN v.sign < 0 THEN '-' ELSE '' END,
             v.r, v.i % 100) END,
           CASE WHEN v.r >= 65 THEN printf('%d.00', (v.r % 2) * v.r * 7) END,
           printf('0x%064x', v.i * 40503 + 17),
           strftime('%Y-%m-%dT%H:%M:%fZ', v.ms / 1000.0, 'unixepoch'), v.ms
           ${
             micros
               ? `, CASE WHEN v.r < 65 THEN v.sign * (v.r * 1000000 + (v.i % 100) * 10000) END,
                  CASE WHEN v.r >= 65 THEN (v.r % 2) * v.r * 7 * 1000000 END`
               : ''
           }
         FROM v`,
      )
      .run(),
  );
  store.db.exec('DROP TABLE bench_fixture; ANALYZE');
  // Copy the seeding's WAL back now: otherwise the first write measured below would (seconds).
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  return performance.now() - t0;
}

interface Measured {
  name: string;
  rows: number;
  bytes: number;
  ms: number;
  loop: { p50: number; p99: number; max: number };
  sync: { ticks: number; over50: number; max: number };
  rssGrowthMb: number;
  progressEvents: number;
}

/** Runs `work` while the loop monitor, the sync stand-in and the RSS sampler watch. */
async function watch(
  name: string,
  store: Store,
  accountId: number,
  work: () => Promise<{ rows: number; bytes: number; progressEvents: number }>,
): Promise<Measured> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseRss = process.memoryUsage.rss();
  let peakRss = baseRss;
  const rss = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const lateness: number[] = [];
  let expected = performance.now() + SYNC_EVERY_MS;
  const sync = setInterval(() => {
    const now = performance.now();
    lateness.push(Math.max(0, now - expected));
    expected = now + SYNC_EVERY_MS;
    // What a sync pass does to the store between requests: a write and a read.
    store.settings.set('bench-sync', String(now));
    store.settlements.query(accountId, { limit: 50, offset: 0 });
  }, SYNC_EVERY_MS);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  // The monitor keeps no sample from before its first tick: let it start, so a stall at the
  // very start of the export (opening its read) is counted too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const t0 = performance.now();
  try {
    const r = await work();
    const ms = performance.now() - t0;
    loop.disable();
    lateness.sort((a, b) => a - b);
    return {
      name,
      ...r,
      ms,
      loop: {
        p50: loop.percentile(50) / 1e6,
        p99: loop.percentile(99) / 1e6,
        max: loop.max / 1e6,
      },
      sync: {
        ticks: lateness.length,
        over50: lateness.filter((ms) => ms > 50).length,
        max: lateness[lateness.length - 1] ?? 0,
      },
      rssGrowthMb: (Math.max(peakRss, process.memoryUsage.rss()) - baseRss) / 1024 / 1024,
    };
  } finally {
    loop.disable();
    clearInterval(sync);
    clearInterval(rss);
  }
}

/** Fetches a URL in a separate process, as a browser would, and counts what arrived. */
function fetchElsewhere(url: string): Promise<{ status: number; bytes: number }> {
  const script = `
    const res = await fetch(process.argv[1]);
    let bytes = 0;
    for await (const chunk of res.body) bytes += chunk.length;
    console.log(JSON.stringify({ status: res.status, bytes }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`the fetching process exited with ${code}`));
      else resolve(JSON.parse(out) as { status: number; bytes: number });
    });
  });
}

function line(m: Measured): string {
  const ok = m.loop.p99 <= TARGET_P99_MS;
  const f = (n: number) => n.toFixed(1);
  return [
    `${m.name}: event-loop delay p50 ${f(m.loop.p50)} ms, p99 ${f(m.loop.p99)} ms, ` +
      `max ${f(m.loop.max)} ms (target p99 <= ${TARGET_P99_MS} ms)${ok ? '' : '  MISSED'}`,
    `  - ${m.rows.toLocaleString('en-US')} rows, ${(m.bytes / 1024 / 1024).toFixed(1)} MB in ` +
      `${(m.ms / 1000).toFixed(2)} s: ${Math.round(m.rows / (m.ms / 1000)).toLocaleString('en-US')} rows/s`,
    `  - sync stand-in (every ${SYNC_EVERY_MS} ms): ${m.sync.ticks} ticks, ` +
      `${m.sync.over50} more than 50 ms late, latest by ${f(m.sync.max)} ms`,
    `  - peak RSS growth ${f(m.rssGrowthMb)} MB; ${m.progressEvents} progress events`,
  ].join('\n');
}

async function main(): Promise<void> {
  const store = openStore(path.join(tempRoot, 'betdesk.sqlite'));
  const accountId = store.accounts.create({ label: 'bench', baseUrl: 'http://x', apiKey: 'k' }).id;
  const seedMs = seed(store, accountId);
  const count = store.settlements.count(accountId);
  if (count !== ROWS) throw new Error(`seeded ${count} settlements, not ${ROWS}`);

  const progress: ExportProgress[] = [];
  const downloads = new ExportDownloads();
  const session = { accountId } as AccountSession;
  const service = (destination: Parameters<typeof exportFeature>[0]['destination']) =>
    exportFeature({
      store,
      started: () => Promise.resolve(session),
      emit: (_event, payload) => progress.push(payload as ExportProgress),
      destination,
    });
  const request: ExportRequest = {
    kind: 'settlements',
    filter: {},
    options: { bom: false, formulaGuard: true },
  };
  const host = await startHost({
    services: memoryServices(),
    rendererDir: tempRoot,
    downloads,
    log: () => {},
  });

  const ended = (exportId: string) =>
    progress.find((p) => p.exportId === exportId && p.state !== 'running' && p.state !== 'waiting');
  const results: Measured[] = [];
  try {
    const browser = service({ kind: 'download', downloads });
    results.push(
      await watch('download over HTTP (browser host)', store, accountId, async () => {
        const { export: started } = await browser['export:start'](request);
        if (!started?.download) throw new Error('no download address');
        const got = await fetchElsewhere(`${host.origin}${started.download}`);
        if (got.status !== 200) throw new Error(`the download answered ${got.status}`);
        const last = ended(started.exportId);
        if (last?.state !== 'done') throw new Error(`the export ended ${last?.state ?? 'never'}`);
        return {
          rows: last.rows,
          bytes: got.bytes,
          progressEvents: progress.filter((p) => p.exportId === started.exportId).length,
        };
      }),
    );

    const file = path.join(tempRoot, 'chosen.csv');
    const desktop = service({ kind: 'file', chooseFile: () => Promise.resolve(file) });
    results.push(
      await watch('file (desktop, after the save dialog)', store, accountId, async () => {
        const { export: started } = await desktop['export:start'](request);
        if (!started) throw new Error('no export');
        while (!ended(started.exportId)) await new Promise((r) => setTimeout(r, 20));
        const last = ended(started.exportId)!;
        if (last.state !== 'done') throw new Error(`the export ended ${last.state}`);
        const bytes = fs.statSync(file).size;
        fs.rmSync(file);
        return {
          rows: last.rows,
          bytes,
          progressEvents: progress.filter((p) => p.exportId === started.exportId).length,
        };
      }),
    );
  } finally {
    await host.close();
    store.close();
  }

  console.log('# export: main process responsiveness during a 1,000,000-row export');
  for (const m of results) console.log(line(m));
  console.log(
    `  - seeded ${ROWS.toLocaleString('en-US')} settlements in ${(seedMs / 1000).toFixed(1)} s ` +
      `(not measured); Node ${process.versions.node}, ${os.cpus().length} cores, ` +
      `load ${os.loadavg()[0]!.toFixed(1)}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
