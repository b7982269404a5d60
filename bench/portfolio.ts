/**
 * The money story's numbers (issue 18, `npm run bench:portfolio`, one run): a store with a year
 * of betting (1,000,000 settlements, bench/settlement-seed.ts), 100,000 orders on its fixtures,
 * 300 live fixtures and 200 open positions on them. Prices over time and equity points come
 * from the seeders of those parts (the HOOKs below).
 *
 *   every heavy read, run as the app runs it (StoreReads: the store's read worker):
 *     the action's time, and the main thread's event-loop delay max while it ran
 *     (perf_hooks.monitorEventLoopDelay, 1 ms resolution)             loop max <= 50 ms
 *   the same reads in this thread, for comparison (what main paid before issue 18)
 *
 * Under tsx the worker runs the sources through tsx's loader; its first start is printed apart.
 * The seeded store is kept under the OS temp folder, named by a hash of the seed's version and
 * the store's migrations, so a rerun starts at once; `--fresh` seeds it again.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openStore, type Store } from '../src/main/store/index.js';
import { migrations } from '../src/main/store/migrations/index.js';
import { StoreReads } from '../src/main/store/read-worker.js';
import {
  STORE_READS,
  type StoreReadInput,
  type StoreReadName,
} from '../src/main/store/read-worker-table.js';
import type { Fixture, Order, Position } from '../src/shared/api/schemas.js';
import { dec, fromMicros } from '../src/shared/money.js';
import { EQUITY_PERIODS } from '../src/shared/ipc/contract.js';
import { formatReport, type BenchLine } from './core-store.js';
import { buildRenderer } from './desk.js';
import { benchScreens } from './portfolio-ui.js';
import { seedEquity } from './equity-seed.js';
import { seedPrices } from './price-seed.js';
import { SEED_LEAGUES, SEED_START, seedSettlements, seedTeam } from './settlement-seed.js';

/** Bump when what is seeded here changes: the cached store is then seeded again. */
const SEED_VERSION = 1;
const ORDERS = 100_000;
const LIVE_FIXTURES = 300;
const OPEN_POSITIONS = 200;
const TARGET_LOOP_MAX_MS = 50;
/** Runs of each action (after one to warm up): the median time and the worst loop delay. */
const RUNS = 3;
const DAY = 86_400_000;
/**
 * The bench's "now": the start of today (UTC). The settlements stay in their seeded year
 * (bench/settlement-seed.ts); prices, equity points, live fixtures and positions end now, so the
 * app, which reads against the clock, shows them (the cached store is seeded again each day).
 */
const NOW = Math.floor(Date.now() / DAY) * DAY;

/** What the seeders share: the account, the seeded fixtures, and the live ones. */
export interface BenchWorld {
  store: Store;
  accountId: number;
  /** Fixtures of the seeded year (all resolved). */
  fixtures: readonly Fixture[];
  /** Fixtures open now; the first OPEN_POSITIONS hold a position. */
  live: readonly Fixture[];
  now: number;
}

/**
 * The other parts' seeders, run once when the cached store is built (in this order, after the
 * settlements, orders, live fixtures and positions). A change to one: bump SEED_VERSION.
 */
const SEEDERS: { name: string; seed: (world: BenchWorld) => void }[] = [
  { name: 'prices', seed: seedLivePrices },
  // The points a year of positions reads leaves after thinning (30 s: no boosted position).
  {
    name: 'equity',
    seed: (w) => seedEquity(w.store, w.accountId, { days: 365, everyMs: 30_000, now: w.now }),
  },
];

/**
 * A year of index prices, a new one every fixtures poll (60 s), for the 300 live fixtures
 * (bench/price-seed.ts), its series then named after those fixtures and their teams so that
 * Markets and the positions find them.
 */
function seedLivePrices(w: BenchWorld): void {
  const seeded = seedPrices(w.store, w.accountId, {
    fixtures: w.live.length,
    days: 365,
    stepMs: 60_000,
    end: w.now,
  });
  const rename = w.store.db.prepare(
    `UPDATE price_series SET contract_id = ?, outcome = ?
     WHERE account_id = ? AND contract_id = ? AND outcome = ?`,
  );
  w.store.transaction(() => {
    for (const [i, f] of w.live.entries()) {
      const from = seeded.contractIds[i]!;
      rename.run(f.contractId, f.homeTeam, w.accountId, from, `H${i % 1000}`);
      rename.run(f.contractId, f.awayTeam, w.accountId, from, `A${i % 1000}`);
    }
  });
}

/** One action of the screens: a read of the table with its input. */
type Action = {
  [K in StoreReadName]: {
    name: string;
    read: K;
    input: (w: BenchWorld) => StoreReadInput<K>;
    /** The target for the read's own time through the worker, when it has one. */
    targetMs?: number;
  };
}[StoreReadName];

const summary = (filter: StoreReadInput<'historySummary'>['filter']) => (w: BenchWorld) => ({
  accountId: w.accountId,
  filter,
  timeZone: 'Europe/London',
  now: w.now,
});

const ACTIONS: Action[] = [
  { name: 'History summary, all', read: 'historySummary', input: summary({}) },
  {
    name: 'History summary, a year',
    read: 'historySummary',
    input: summary({ from: SEED_START, to: SEED_START + 365 * DAY }),
  },
  {
    name: 'History summary, a league',
    read: 'historySummary',
    input: summary({ league: SEED_LEAGUES[0][0] }),
  },
  {
    name: 'History choices',
    read: 'historyChoices',
    input: (w) => ({ accountId: w.accountId }),
  },
  {
    name: 'Portfolio view (exposure by league), all accounts',
    read: 'portfolioView',
    input: (w) => ({ query: { scope: { kind: 'live' } }, now: w.now }),
    targetMs: 50,
  },
  {
    name: 'Portfolio view, one account',
    read: 'portfolioView',
    input: (w) => ({
      query: { scope: { kind: 'account', accountId: String(w.accountId) } },
      now: w.now,
    }),
  },
  ...EQUITY_PERIODS.map((period): Action => ({
    name: `Equity series, ${period}`,
    read: 'equitySeries',
    input: (w) => ({ query: { scope: { kind: 'live' }, period }, now: w.now }),
    ...(period === 'all' ? { targetMs: 100 } : {}),
  })),
  {
    name: 'Price lines, 200 fixtures',
    read: 'priceLines',
    input: (w) => ({
      query: { accountId: w.accountId, contractIds: w.live.slice(0, 200).map((f) => f.contractId) },
      now: w.now,
    }),
  },
  {
    name: 'Price series, a year of one outcome',
    read: 'priceSeries',
    input: (w) => ({
      query: {
        accountId: w.accountId,
        contractId: w.live[0]!.contractId,
        outcome: w.live[0]!.homeTeam,
      },
      now: w.now,
    }),
  },
];

// ---------------------------------------------------------------- the seeded store

/** The cached store's name: changes with the seed and with any migration. */
function cacheKey(): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ SEED_VERSION, NOW, ORDERS, LIVE_FIXTURES, OPEN_POSITIONS }));
  for (const m of migrations) hash.update(`${m.version}:${m.up.toString()}`);
  for (const s of SEEDERS) hash.update(`${s.name}:${s.seed.toString()}`);
  return hash.digest('hex').slice(0, 16);
}

/** 100,000 filled orders on the seeded fixtures, spread over the year, oldest first. */
function benchOrders(fixtures: readonly Fixture[]): Order[] {
  return Array.from({ length: ORDERS }, (_, i): Order => {
    const f = fixtures[Math.floor((i * fixtures.length) / ORDERS)]!;
    const createdAt = f.startsAt - 3_600_000 + (i % 60) * 60_000;
    const contracts = 1 + ((i * 7919) % 200);
    const bp = 2000 + ((i * 104_729) % 6000); // entry price in basis points
    const cost = fromMicros(contracts * bp * 100);
    return {
      clientOrderId: `bd-${createdAt.toString(36)}-${i.toString(36).padStart(8, '0')}`,
      orderId: `0x${(i + 1).toString(16).padStart(16, '0')}`,
      contractId: f.contractId,
      outcome: i % 2 === 0 ? f.homeTeam : f.awayTeam,
      side: i % 5 === 4 ? 'SELL' : 'BUY',
      status: 'FILLED',
      contracts,
      entryPrice: `0.${bp}`,
      cost,
      maxWin: fromMicros(contracts * (10_000 - bp) * 100),
      deadline: createdAt + 60_000,
      tx: `0x${(i * 40_503 + 17).toString(16).padStart(64, '0')}`,
      orderType: 'MARKET',
      marketUnit: 'BASE',
      qty: String(contracts),
      boost: 0,
      createdAt,
      updatedAt: createdAt + 1000,
    };
  });
}

/** 300 fixtures open now, kick-offs over the next two weeks. */
function liveFixtures(): Fixture[] {
  return Array.from({ length: LIVE_FIXTURES }, (_, k): Fixture => {
    const l = k % SEED_LEAGUES.length;
    const home = k % 20;
    const away = (home + 1 + (k % 19)) % 20;
    const bp = 2000 + ((k * 7919) % 6000);
    return {
      contractId: `FX-LIVE-${String(k).padStart(4, '0')}`,
      league: SEED_LEAGUES[l]![0],
      homeTeam: seedTeam(l, home),
      awayTeam: seedTeam(l, away),
      startsAt: NOW + (k % 14) * DAY + 19 * 3_600_000,
      bettingOpen: true,
      status: 'OPEN',
      homePrice: `0.${bp}`,
      awayPrice: `0.${10_000 - bp}`,
      lotSize: 1,
      minContracts: 1,
    };
  });
}

/** One position on the home team of each of the first 200 live fixtures; every 4th boosted. */
function openPositions(live: readonly Fixture[]): Position[] {
  return live.slice(0, OPEN_POSITIONS).map((f, i): Position => {
    const contracts = 10 + ((i * 37) % 190);
    const entryBp = 3000 + ((i * 131) % 4000);
    const nowBp = entryBp + (((i * 53) % 1200) - 600);
    const boosted = i % 4 === 0;
    const costMicros = contracts * entryBp * 100;
    const valueMicros = contracts * nowBp * 100;
    const pnlMicros = valueMicros - costMicros;
    return {
      contractId: f.contractId,
      outcome: f.homeTeam,
      contracts,
      entryPrice: `0.${entryBp}`,
      estimatedClosingPrice: `0.${nowBp}`,
      boosted,
      costBasis: fromMicros(costMicros),
      value: fromMicros(valueMicros),
      pnl: fromMicros(pnlMicros),
      pnlPercent: dec(pnlMicros).times(100).dividedBy(costMicros).toFixed(2),
      maxPayout: fromMicros(contracts * (boosted ? 2 : 1) * 1_000_000),
      ...(boosted ? { knockout: `0.${entryBp - 800}` } : {}),
      updatedAt: NOW,
    };
  });
}

/** Seeds `file` (a new store) with the bench's world; returns how long each part took. */
function seed(file: string): string[] {
  const notes: string[] = [];
  const store = openStore(file);
  try {
    const accountId = store.accounts.create({
      label: 'bench',
      baseUrl: 'http://x',
      apiKey: 'k',
    }).id;
    const history = seedSettlements(store, accountId);
    notes.push(`${history.rows} settlements seeded in ${(history.ms / 1000).toFixed(1)} s`);
    let t = performance.now();
    const orders = benchOrders(history.fixtures);
    for (let i = 0; i < orders.length; i += 1000) {
      store.applyOrderUpdates(accountId, orders.slice(i, i + 1000), i + 1000);
    }
    const live = liveFixtures();
    store.fixtures.upsertMany(accountId, live, NOW);
    store.replacePositions(accountId, openPositions(live), NOW);
    notes.push(
      `${ORDERS} orders, ${LIVE_FIXTURES} live fixtures, ${OPEN_POSITIONS} positions in ` +
        `${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const world: BenchWorld = { store, accountId, fixtures: history.fixtures, live, now: NOW };
    for (const s of SEEDERS) {
      t = performance.now();
      s.seed(world);
      notes.push(`${s.name} seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    store.db.exec('ANALYZE');
  } finally {
    store.close();
  }
  return notes;
}

/** The cached seeded store, made first when missing (or with --fresh). */
function cachedStore(fresh: boolean): { file: string; notes: string[] } {
  const dir = path.join(os.tmpdir(), 'betdesk-bench-portfolio');
  const file = path.join(dir, `store-${cacheKey()}.sqlite`);
  if (!fresh && fs.existsSync(file)) return { file, notes: [`cached store ${file}`] };
  // Another version's store is of no more use: one big file at a time under the temp folder.
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const partial = path.join(dir, 'seeding.sqlite');
  const notes = seed(partial);
  fs.renameSync(partial, file);
  return { file, notes: [...notes, `seeded store ${file}`] };
}

// ---------------------------------------------------------------- measuring

interface Measured {
  ms: number;
  loopMaxMs: number;
  /**
   * The time main's loop spent running code during the action (event-loop utilization, active):
   * a loop delay far above it is main waiting for a core, not main busy.
   */
  mainBusyMs: number;
}

/**
 * A delay is recorded when the loop comes round again, measured from the sampler's previous
 * tick (its first tick after enable() only sets the start): let the loop turn before and after
 * the action.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** `run`'s time, and the event loop's worst delay while it ran. */
async function measure(run: () => Promise<unknown>): Promise<Measured> {
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  await settle();
  const elu = performance.eventLoopUtilization();
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const mainBusyMs = performance.eventLoopUtilization(elu).active;
  await settle();
  lag.disable();
  return { ms, loopMaxMs: lag.max / 1e6, mainBusyMs };
}

/** RUNS runs of `run` after one to warm up: the median time and the worst loop delay. */
async function repeated(run: () => Promise<unknown>): Promise<Measured> {
  await run();
  const all: Measured[] = [];
  for (let i = 0; i < RUNS; i++) all.push(await measure(run));
  const times = all.map((m) => m.ms).sort((a, b) => a - b);
  return {
    ms: times[Math.floor(times.length / 2)]!,
    loopMaxMs: Math.max(...all.map((m) => m.loopMaxMs)),
    mainBusyMs: Math.max(...all.map((m) => m.mainBusyMs)),
  };
}

const f1 = (n: number) => n.toFixed(1);
const MB = 1024 * 1024;
const load = () =>
  `load ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ')} (1/5/15 min) on ${os.cpus().length} cores`;

/** The price history's bytes and rows on disk (dbstat), and what a day and a year add. */
function priceDisk(store: Store): BenchLine[] {
  const size = (table: string) => ({
    bytes: store.db
      .prepare(
        `SELECT coalesce(sum(pgsize), 0) FROM dbstat
         WHERE name = @t OR name LIKE 'sqlite_autoindex_' || @t || '%' OR name LIKE @t || '_by_%'`,
      )
      .pluck()
      .get({ t: table }) as number,
    rows: store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number,
  });
  const raw = size('price_points');
  const buckets = size('price_buckets');
  const series = size('price_series');
  const total = raw.bytes + buckets.bytes + series.bytes;
  const perRaw = raw.bytes / raw.rows;
  const perBucket = buckets.bytes / buckets.rows;
  // A new price of every outcome every fixtures poll (60 s), the seed's worst case.
  const rawPerDay = (series.rows * DAY) / 60_000;
  const quartersPerDay = series.rows * 96;
  const dailyPerYear = series.rows * 365;
  return [
    {
      name: `price history on disk, a year of ${series.rows / 2} fixtures`,
      value:
        `${f1(total / MB)} MB (raw ${raw.rows.toLocaleString('en-US')} rows ${f1(raw.bytes / MB)} MB, ` +
        `buckets ${buckets.rows.toLocaleString('en-US')} rows ${f1(buckets.bytes / MB)} MB)`,
      target: 'stated; <= 200 MB',
      ok: total / MB <= 200,
    },
    {
      name: 'price history growth per day (raw kept 7 days)',
      value:
        `${rawPerDay.toLocaleString('en-US')} raw rows ${f1((rawPerDay * perRaw) / MB)} MB + ` +
        `${quartersPerDay.toLocaleString('en-US')} quarter hours ${f1((quartersPerDay * perBucket) / MB)} MB`,
      target: 'stated',
      ok: true,
    },
    {
      name: 'price history growth per year once the tiers are full (daily buckets)',
      value: `${dailyPerYear.toLocaleString('en-US')} rows, ${f1((dailyPerYear * perBucket) / MB)} MB`,
      target: 'stated',
      ok: true,
    },
  ];
}

async function main(): Promise<void> {
  const loadAtStart = load();
  const build = !process.argv.includes('--no-build');
  if (build) buildRenderer();
  const { file, notes } = cachedStore(process.argv.includes('--fresh'));
  const store = openStore(file);
  const accountId = store.accounts.getByLabel('bench')!.id;
  const reads = new StoreReads({ file, fallback: store });
  const actions: BenchLine[] = [];
  const summary: BenchLine[] = [];
  const worker = new Map<string, Measured>();
  try {
    const world: BenchWorld = {
      store,
      accountId,
      fixtures: [],
      live: store.fixtures.list(accountId, { bettingOpen: true, limit: 1000 }).fixtures,
      now: NOW,
    };
    const idle = await measure(() => new Promise((resolve) => setTimeout(resolve, 500)));
    notes.push(`event loop delay max while idle for 0.5 s: ${f1(idle.loopMaxMs)} ms`);
    const started = await measure(() => reads.run('readerInfo', undefined));
    notes.push(
      `worker start and first read: ${f1(started.ms)} ms, loop max ${f1(started.loopMaxMs)} ms`,
    );

    // Every read on the worker first, then every read in this thread: the in-thread reads'
    // garbage is not collected on main while a worker read is measured.
    const idleAlike = new Map<string, Measured>();
    for (const action of ACTIONS) {
      const input = action.input(world) as never;
      const onWorker = await repeated(() => reads.run(action.read, input));
      worker.set(action.name, onWorker);
      // The same time spent idle: the delay other processes cause on a busy machine.
      idleAlike.set(
        action.name,
        await repeated(
          () => new Promise((resolve) => setTimeout(resolve, Math.max(1, onWorker.ms))),
        ),
      );
    }
    const inThread = new Map<string, Measured>();
    for (const action of ACTIONS) {
      const input = action.input(world) as never;
      const read = STORE_READS[action.read] as (s: Store, i: unknown) => unknown;
      inThread.set(
        action.name,
        await repeated(() => new Promise((resolve) => resolve(read(store, input)))),
      );
    }
    for (const action of ACTIONS) {
      const onWorker = worker.get(action.name)!;
      const here = inThread.get(action.name)!;
      const timeOk = action.targetMs === undefined || onWorker.ms <= action.targetMs;
      actions.push({
        name: `${action.name} (worker)`,
        value:
          `${f1(onWorker.ms)} ms, loop max ${f1(onWorker.loopMaxMs)} ms, main busy ` +
          `${f1(onWorker.mainBusyMs)} ms (idle as long: loop max ${f1(idleAlike.get(action.name)!.loopMaxMs)} ms)`,
        target:
          (action.targetMs === undefined ? '' : `<= ${action.targetMs} ms, `) +
          `loop max <= ${TARGET_LOOP_MAX_MS} ms`,
        ok: timeOk && onWorker.loopMaxMs <= TARGET_LOOP_MAX_MS,
      });
      actions.push({
        name: `${action.name} (in-thread, before)`,
        value:
          `${f1(here.ms)} ms, loop max ${f1(here.loopMaxMs)} ms, ` +
          `main busy ${f1(here.mainBusyMs)} ms`,
        target: 'for comparison',
        ok: true,
      });
    }
    summary.push(...priceDisk(store));
  } finally {
    await reads.close();
    store.close();
  }
  const ui = await benchScreens(file, 'bench');

  const equityAll = worker.get('Equity series, all')!;
  const exposure = worker.get('Portfolio view (exposure by league), all accounts')!;
  const worst = ACTIONS.map((a) => ({ name: a.name, ...worker.get(a.name)! })).reduce((a, b) =>
    b.loopMaxMs > a.loopMaxMs ? b : a,
  );
  const [portfolioScreen, marketsRows, marketsLines, marketsPage, bundle] = ui.lines;
  const table: BenchLine[] = [
    portfolioScreen!,
    {
      name: 'equity series "all" / exposure by league (portfolio:view), worker',
      value: `${f1(equityAll.ms)} ms / ${f1(exposure.ms)} ms`,
      target: '<= 100 ms / <= 50 ms',
      ok: equityAll.ms <= 100 && exposure.ms <= 50,
    },
    marketsRows!,
    marketsLines!,
    marketsPage!,
    {
      name: `main-thread event-loop delay max, every History and Portfolio action (${ACTIONS.length})`,
      value:
        `${f1(worst.loopMaxMs)} ms (worst: ${worst.name}); main busy at most ` +
        `${f1(Math.max(...ACTIONS.map((a) => worker.get(a.name)!.mainBusyMs)))} ms in any`,
      target: `max <= ${TARGET_LOOP_MAX_MS} ms`,
      ok: worst.loopMaxMs <= TARGET_LOOP_MAX_MS,
    },
    ...summary,
    bundle!,
  ];
  notes.push(...ui.notes);
  notes.push(
    `${RUNS} runs of each read after a warm-up: median time, worst loop delay (1 ms ` +
      `resolution), most main busy (event-loop utilization, active time)`,
    `${build ? 'renderer built with electron-vite before the run' : 'out/ as it was (--no-build)'}`,
    `at start: ${loadAtStart}`,
    `at end: ${load()}`,
  );
  console.log(formatReport({ title: 'bench:portfolio, each read', lines: actions, notes: [] }));
  console.log('');
  console.log(formatReport({ title: "bench:portfolio, the issue's numbers", lines: table, notes }));
}

await main();
