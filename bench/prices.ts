/**
 * Prices over time (docs/prices.md), on a year of prices for 300 fixtures (two outcomes each)
 * with a new price every fixtures poll (60 s), the worst case: rows and bytes on disk per day
 * and after a year, `prices:lines` for 200 fixtures, `prices:series` for a year, recording one
 * poll of 300 fixtures, and the longest ageing step. `npm run bench:prices` runs it alone; the
 * integrator folds benchPrices() into bench:portfolio.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { agePrices } from '../src/main/prices/ageing.js';
import { priceLines, priceSeries } from '../src/main/prices/reads.js';
import { recordFixturePrices } from '../src/main/prices/record.js';
import { openStore, type Store } from '../src/main/store/index.js';
import type { Fixture } from '../src/shared/api/schemas.js';
import { fromMicros } from '../src/shared/money.js';
import type { BenchLine, BenchReport } from './core-store.js';
import { seedPrices } from './price-seed.js';

const FIXTURES = 300;
const DAYS = 365;
const STEP_MS = 60_000;
const DAY = 86_400_000;
const MB = 1024 * 1024;

const TARGETS = {
  diskMb: 200,
  linesMs: 200,
  seriesMs: 100,
  recordMs: 50,
  ageStepMs: 50,
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** Bytes of each table and index (dbstat), and how many rows each table holds. */
function sizes(store: Store): { table: string; rows: number; bytes: number }[] {
  return ['price_points', 'price_buckets', 'price_series'].map((table) => {
    const bytes = store.db
      .prepare(
        `SELECT coalesce(sum(pgsize), 0) FROM dbstat
         WHERE name = @t OR name LIKE 'sqlite_autoindex_' || @t || '%' OR name LIKE @t || '_by_%'`,
      )
      .pluck()
      .get({ t: table }) as number;
    const rows = store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return { table, rows, bytes };
  });
}

export async function benchPrices(): Promise<BenchReport> {
  await Promise.resolve();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'betdesk-bench-prices-'));
  const store = openStore(path.join(dir, 'betdesk.sqlite'));
  try {
    const accountId = store.accounts.create({
      label: 'bench',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'bench',
    }).id;
    const seeded = seedPrices(store, accountId, {
      fixtures: FIXTURES,
      days: DAYS,
      stepMs: STEP_MS,
    });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const now = seeded.end;
    const [raw, buckets, series] = sizes(store);
    const file = fs.statSync(store.file).size;
    const priceBytes = raw!.bytes + buckets!.bytes + series!.bytes;
    const rawPerDay = (FIXTURES * 2 * DAY) / STEP_MS;
    const bytesPerRaw = raw!.bytes / raw!.rows;
    const bytesPerBucket = buckets!.bytes / buckets!.rows;
    const dailyPerYear = FIXTURES * 2 * 365;

    // prices:lines for 200 fixtures: the first call (cold statement) and the median of 5.
    const ids = seeded.contractIds.slice(0, 200);
    const linesRuns = Array.from({ length: 6 }, () =>
      time(() => priceLines(store, { accountId, contractIds: ids }, now)),
    );
    const lines = priceLines(store, { accountId, contractIds: ids }, now);
    const seriesRuns = Array.from({ length: 6 }, () =>
      time(() =>
        priceSeries(
          store,
          { accountId, contractId: ids[0]!, outcome: lines.lines[0]!.outcome },
          now,
        ),
      ),
    );
    const yearSeries = priceSeries(
      store,
      { accountId, contractId: ids[0]!, outcome: lines.lines[0]!.outcome },
      now,
    );

    // One poll of all 300 fixtures, every price changed (the worst case), 20 times.
    const recordRuns: number[] = [];
    for (let poll = 1; poll <= 20; poll++) {
      const fixtures = seeded.contractIds.map((contractId, i): Fixture => {
        const home = 300_000 + ((i * 7919 + poll * 104_729) % 400_000);
        return {
          contractId,
          league: 'Bench',
          homeTeam: `H${i % 1000}`,
          awayTeam: `A${i % 1000}`,
          startsAt: now,
          bettingOpen: true,
          status: 'OPEN',
          homePrice: fromMicros(home - (home % 100)),
          awayPrice: fromMicros(1_000_000 - (home - (home % 100))),
          lotSize: 1,
          minContracts: 1,
        };
      });
      recordRuns.push(
        time(() => recordFixturePrices(store, accountId, fixtures, now + poll * STEP_MS)),
      );
    }

    // Ageing an hour later: each series has an hour of raw points to fold.
    const ageRuns: number[] = [];
    let rows = 0;
    for (;;) {
      let step = { rows: 0, done: true };
      ageRuns.push(time(() => (step = agePrices(store, now + 2 * 3_600_000))));
      rows += step.rows;
      if (step.done) break;
    }

    const out: BenchLine[] = [
      {
        name: 'price history on disk after a year, 300 fixtures',
        value: `${(priceBytes / MB).toFixed(1)} MB (the whole file ${(file / MB).toFixed(1)} MB)`,
        target: `stated; <= ${TARGETS.diskMb} MB`,
        ok: priceBytes / MB <= TARGETS.diskMb,
      },
      {
        name: 'growth per day, worst case (new price every poll)',
        value:
          `${rawPerDay.toLocaleString('en-US')} raw rows, ` +
          `${((rawPerDay * bytesPerRaw) / MB).toFixed(1)} MB, + ${(FIXTURES * 2 * 96).toLocaleString('en-US')} ` +
          `quarter hours ${((FIXTURES * 2 * 96 * bytesPerBucket) / MB).toFixed(1)} MB ` +
          `(raw kept 7 days)`,
        target: 'stated',
        ok: true,
      },
      {
        name: 'growth per year once the tiers are full (daily buckets)',
        value:
          `${dailyPerYear.toLocaleString('en-US')} rows, ` +
          `${((dailyPerYear * bytesPerBucket) / MB).toFixed(1)} MB`,
        target: 'stated',
        ok: true,
      },
      {
        name: 'prices:lines, 200 fixtures (first / median of 5)',
        value: `${linesRuns[0]!.toFixed(1)} / ${median(linesRuns.slice(1)).toFixed(1)} ms`,
        target: `<= ${TARGETS.linesMs} ms`,
        ok: Math.max(linesRuns[0]!, median(linesRuns.slice(1))) <= TARGETS.linesMs,
      },
      {
        name: 'prices:series, a year of one outcome (first / median of 5)',
        value: `${seriesRuns[0]!.toFixed(1)} / ${median(seriesRuns.slice(1)).toFixed(1)} ms`,
        target: `<= ${TARGETS.seriesMs} ms`,
        ok: Math.max(seriesRuns[0]!, median(seriesRuns.slice(1))) <= TARGETS.seriesMs,
      },
      {
        name: 'recording one poll of 300 fixtures, every price changed (median / max of 20)',
        value: `${median(recordRuns).toFixed(2)} / ${Math.max(...recordRuns).toFixed(2)} ms`,
        target: `<= ${TARGETS.recordMs} ms`,
        ok: Math.max(...recordRuns) <= TARGETS.recordMs,
      },
      {
        name: 'ageing step (median / max)',
        value: `${median(ageRuns).toFixed(1)} / ${Math.max(...ageRuns).toFixed(1)} ms`,
        target: `<= ${TARGETS.ageStepMs} ms`,
        ok: Math.max(...ageRuns) <= TARGETS.ageStepMs,
      },
    ];
    return {
      title: 'prices over time: a year of 300 fixtures, a new price every 60 s',
      lines: out,
      notes: [
        `raw points ${raw!.rows.toLocaleString('en-US')} (${bytesPerRaw.toFixed(1)} B each), ` +
          `buckets ${buckets!.rows.toLocaleString('en-US')} (${bytesPerBucket.toFixed(1)} B each), ` +
          `series ${series!.rows}`,
        `lines: ${lines.lines.length} lines, ${lines.lines.reduce((n, l) => n + l.points.length, 0)} points; ` +
          `series of a year: ${yearSeries.points.length} candles`,
        `ageing an hour later: ${rows.toLocaleString('en-US')} rows in ${ageRuns.length} steps`,
        `seeded in ${(seeded.ms / 1000).toFixed(1)} s (not measured); Node ${process.versions.node}, ` +
          `${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
      ],
    };
  } finally {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const { formatReport } = await import('./core-store.js');
  benchPrices()
    .then((r) => console.log(formatReport(r)))
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
