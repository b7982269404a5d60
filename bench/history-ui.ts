/**
 * The History screen with a year of heavy betting (`npm run bench:ui`): 1,000,000 settlements in
 * the store, the real app in Debian's Chromium through the browser host, its services (paper
 * mode) in this process so the bench can fill the store first.
 *
 *   click on History -> first rows visible                     <= 200 ms
 *   scrolling: frame time p95 (requestAnimationFrame)          <= 16.7 ms
 *   a filter change -> new rows and totals shown               <= 150 ms
 *   renderer memory (the page's process, private), every phase < 150 MB
 *   renderer JavaScript, gzipped                               <= 150 KB
 *
 * Frame times are sampled with requestAnimationFrame while the grid scrolls (a wheel's pace, then
 * jumps to far rows as a dragged scrollbar does). At 60 Hz a frame shows only when it misses a
 * beat, so the same scroll also runs in a browser with vsync and the frame-rate limit off, where
 * the gap between two frames approaches what a frame costs (script, style, layout, and on these
 * GPU-less machines software raster competing for two cores): reported beside it, not a target.
 *
 * Renderer memory is measured after the fifth first rows (a reload each), once History is open
 * in a fresh browser, after its scroll, after the filters, and after the scroll without vsync:
 * the worst is the figure.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../build/chromium.js';
import { createAppServices, type AppServices } from '../src/main/root/services.js';
import { ExportDownloads } from '../src/main/export/index.js';
import { startHost, type RunningHost } from '../src/main/host/server.js';
import { formatReport, type BenchReport } from './core-store.js';
import { benchBundle, buildRenderer } from './desk.js';
import { seedSettlements, SEED_LEAGUES } from './settlement-seed.js';

const root = path.join(import.meta.dirname, '..');
const TARGETS = { firstRowsMs: 200, frameP95Ms: 16.7, filterMs: 150, rendererMb: 150 };

/** The page's globals the bench uses inside page.evaluate (this file is typed for Node). */
interface BrowserGlobals {
  requestAnimationFrame(callback: (t: number) => void): number;
  MutationObserver: new (callback: () => void) => {
    observe(target: unknown, options: Record<string, boolean | string[]>): void;
    disconnect(): void;
  };
  benchSeen: Promise<number>;
  performance: { now(): number };
  document: {
    body: unknown;
    querySelector(selector: string): { scrollTop: number; scrollHeight: number } | null;
    addEventListener(
      type: string,
      listener: () => void,
      options: { capture: boolean; once: boolean },
    ): void;
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (n: number) => `${n.toFixed(1)} ms`;
const mem = (m: { privateMb: number; rssMb: number }) =>
  `${m.privateMb.toFixed(0)} / ${m.rssMb.toFixed(0)} MB`;

/** Rows of the settlements grid that hold data (not the header, not a "Loading…" row). */
const DATA_ROW = '[role="grid"][aria-label="Settlements"] [role="row"][aria-rowindex]:not(.head)';
const READY_ROW = `${DATA_ROW} time`;

export interface App {
  services: AppServices;
  host: RunningHost;
  close(): Promise<void>;
}

async function startApp(): Promise<App> {
  return startAppIn(mkdtempSync(path.join(os.tmpdir(), 'betdesk-bench-ui-')));
}

/** The app's services (browser host) on data folder `dir`, which close() removes. */
export async function startAppIn(dir: string): Promise<App> {
  const downloads = new ExportDownloads();
  const services = await createAppServices({
    dataDir: dir,
    host: 'browser',
    keychainService: 'Betdesk-bench',
    versions: { app: 'bench', node: process.versions.node, electron: null, chrome: null },
    exports: { kind: 'download', downloads },
  });
  const host = await startHost({
    services,
    rendererDir: path.join(root, 'out', 'renderer'),
    validateOutput: false,
    downloads,
    log: () => {},
  });
  return {
    services,
    host,
    async close() {
      await host.close();
      await services.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The paper session once it is up and synced its (empty) history, with sync paused. */
async function readySession(services: AppServices) {
  for (let i = 0; i < 300; i++) {
    const p = services.session() ? (await services.call('history:status', {})).progress : undefined;
    if (services.session() && p !== undefined && p?.state !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await services.call('sync:pause', {});
  return services.session()!;
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('crash', () => console.error('bench:ui: the page crashed (renderer process gone)'));
  await page.goto(url);
  await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  return page;
}

const historyButton = (page: Page) =>
  page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^History/ });

/** From the click on History to the frame after the first data row, timed inside the page. */
async function timeFirstRows(page: Page): Promise<number> {
  await page.reload();
  await historyButton(page).waitFor();
  await page.evaluate((selector) => {
    const w = globalThis as unknown as BrowserGlobals;
    w.benchSeen = new Promise<number>((resolve) => {
      let clickedAt = 0;
      w.document.addEventListener('click', () => (clickedAt = w.performance.now()), {
        capture: true,
        once: true,
      });
      const observer = new w.MutationObserver(() => {
        if (clickedAt === 0 || w.document.querySelector(selector) === null) return;
        observer.disconnect();
        w.requestAnimationFrame(() => resolve(w.performance.now() - clickedAt));
      });
      observer.observe(w.document.body, { subtree: true, childList: true });
    });
  }, READY_ROW);
  await historyButton(page).click();
  return page.evaluate(() => (globalThis as unknown as BrowserGlobals).benchSeen);
}

/**
 * Scrolls the grid for `frames` animation frames: steady scrolling (a wheel's pace), then jumps
 * to far places (a dragged scrollbar). Returns the gaps between animation frames.
 */
interface ScrollFrames {
  /** Gaps after a frame that scrolled on by 120 px (a wheel's pace). */
  steady: number[];
  /** Gaps after a frame that jumped far (a dragged scrollbar): every row is new. */
  jumps: number[];
}

async function scrollFrames(page: Page, frames: number): Promise<ScrollFrames> {
  // A plain script: the bench's transpiler would wrap named functions in a helper the page lacks.
  const out = await page.evaluate<ScrollFrames>(`new Promise((resolve) => {
    const grid = document.querySelector('[role="grid"][aria-label="Settlements"]');
    const steady = [];
    const jumps = [];
    let last = 0;
    let jumped = false;
    let i = 0;
    const step = (t) => {
      if (last !== 0) (jumped ? jumps : steady).push(t - last);
      last = t;
      i += 1;
      if (i > ${frames}) return resolve({ steady, jumps });
      // Three frames in four: 120 px (about 7,000 px a second); every fourth from the second
      // half on: a jump to a place decided by the frame number.
      jumped = i > ${frames} / 2 && i % 4 === 0;
      if (jumped) grid.scrollTop = (((i * 7919) % 1000) / 1000) * grid.scrollHeight;
      else grid.scrollTop += 120;
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  })`);
  out.steady.sort((a, b) => a - b);
  out.jumps.sort((a, b) => a - b);
  return out;
}

/** Changes a filter and times, inside the page, until rows and totals show the new answer. */
async function timeFilter(page: Page, label: string, value: string): Promise<number> {
  // `void`: evaluating the promise itself would make Playwright wait for it here.
  await page.evaluate(`void (window.benchSeen = new Promise((resolve) => {
    let changedAt = 0;
    document.addEventListener('change', () => (changedAt = performance.now()), {
      capture: true,
      once: true,
    });
    const done = () =>
      document.querySelector('[aria-label="Totals for these filters"][aria-busy="false"]') !== null &&
      document.querySelector('[role="grid"][aria-label="Settlements"][aria-busy="false"]') !== null &&
      document.querySelector('${READY_ROW.replaceAll("'", "\\'")}') !== null;
    // Done once the screen has said it is loading the new answer, and then shows it.
    let sawBusy = false;
    const observer = new MutationObserver(() => {
      if (changedAt === 0) return;
      if (document.querySelector('[aria-busy="true"]') !== null) sawBusy = true;
      if (!sawBusy || !done()) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - changedAt));
    });
    setTimeout(() => resolve(NaN), 20000);
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-busy'],
    });
  }))`);
  await page.getByRole('form', { name: 'History filters' }).getByLabel(label).selectOption(value);
  return page.evaluate(() => (globalThis as unknown as BrowserGlobals).benchSeen);
}

interface RendererMemory {
  /** Private memory (clean + dirty): what the process alone holds, as Chrome's task manager. */
  privateMb: number;
  /** Resident set, shared pages (the Chromium binary, fonts) included. */
  rssMb: number;
}

/**
 * The memory of the renderer process that runs `page`. A browser has several renderer
 * processes (a spare one among them), and the one with the most CPU time so far is not always
 * the page's: the page's is the one whose CPU time grows while the page spins for 300 ms.
 */
async function pageRendererMemory(browser: Browser, page: Page): Promise<RendererMemory> {
  const cdp = await browser.newBrowserCDPSession();
  const cpu = async () => {
    const info = await cdp.send('SystemInfo.getProcessInfo');
    return new Map(
      info.processInfo.filter((p) => p.type === 'renderer').map((p) => [p.id, p.cpuTime]),
    );
  };
  const before = await cpu();
  await page.evaluate(
    '(() => { const t = performance.now(); while (performance.now() - t < 300); })()',
  );
  const after = await cpu();
  await cdp.detach();
  const grew = (id: number) => (after.get(id) ?? 0) - (before.get(id) ?? 0);
  const id = [...after.keys()].sort((a, b) => grew(b) - grew(a))[0];
  if (id === undefined) return { privateMb: NaN, rssMb: NaN };
  const rollup = readFileSync(`/proc/${id}/smaps_rollup`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(rollup)?.[1] ?? 0);
  return {
    privateMb: (kb('Private_Clean') + kb('Private_Dirty')) / 1024,
    rssMb: kb('Rss') / 1024,
  };
}

async function benchHistoryScreen(): Promise<BenchReport> {
  const app = await startApp();
  const browsers: Browser[] = [];
  try {
    const { services, host } = app;
    const session = await readySession(services);
    const seeded = seedSettlements(services.store, session.accountId);

    const mainList: number[] = [];
    const mainSummary: number[] = [];
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (let i = 0; i < 10; i++) {
      let t = performance.now();
      await services.call('history:list', { filter: {}, sort: 'time', limit: 200, offset: 0 });
      mainList.push(performance.now() - t);
      t = performance.now();
      await services.call('history:summary', { filter: {}, timeZone });
      mainSummary.push(performance.now() - t);
    }

    const trials = await chromium.launch(chromiumLaunchOptions);
    browsers.push(trials);
    const trialPage = await openPage(trials, host.url);
    const first: number[] = [];
    for (let i = 0; i < 5; i++) first.push(await timeFirstRows(trialPage));
    first.sort((a, b) => a - b);
    // The first rows of the fifth History opened in the same tab (a reload each time).
    const firstRows = await pageRendererMemory(trials, trialPage);
    await trials.close();

    // A user's session in a fresh browser: History opened once, scrolled, filtered.
    const browser = await chromium.launch(chromiumLaunchOptions);
    browsers.push(browser);
    const page = await openPage(browser, host.url);
    await historyButton(page).click();
    await page.locator(READY_ROW).first().waitFor();
    const total = await page
      .getByRole('grid', { name: 'Settlements' })
      .getAttribute('aria-rowcount');
    const opened = await pageRendererMemory(browser, page);

    // Scroll with the display's beat (what a user sees): missed beats only.
    const beatFrames = await scrollFrames(page, 240);
    const beat = [...beatFrames.steady, ...beatFrames.jumps].sort((a, b) => a - b);
    const scrolled = await pageRendererMemory(browser, page);

    const filters: { what: string; ms: number }[] = [];
    const league = SEED_LEAGUES[0][0];
    for (const [label, value] of [
      ['Type', 'CLOSED'],
      ['Type', 'KNOCKED_OUT'],
      ['Type', ''],
      ['League', league],
      ['Sort', 'pnl'],
      ['League', ''],
      ['Sort', 'time'],
    ] as const) {
      filters.push({
        what: `${label} ${value || 'all'}`,
        ms: await timeFilter(page, label, value),
      });
    }
    // A filter the screen never finished answering (20 s) counts as infinitely slow.
    const filterSorted = filters
      .map((f) => (Number.isFinite(f.ms) ? f.ms : Infinity))
      .sort((a, b) => a - b);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heapMetrics = await cdp.send('Performance.getMetrics');
    const filtered = await pageRendererMemory(browser, page);
    const heap =
      (heapMetrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 1024 / 1024;

    // Frame cost: the same scroll in a browser whose animation frames are not held to vsync.
    const free = await chromium.launch({
      ...chromiumLaunchOptions,
      args: [...chromiumLaunchOptions.args, '--disable-gpu-vsync', '--disable-frame-rate-limit'],
    });
    browsers.push(free);
    const freePage = await openPage(free, host.url);
    await historyButton(freePage).click();
    await freePage.locator(READY_ROW).first().waitFor();
    const costFrames = await scrollFrames(freePage, 600);
    const cost = [...costFrames.steady, ...costFrames.jumps].sort((a, b) => a - b);
    const freeScrolled = await pageRendererMemory(free, freePage);
    const medianFirst = percentile(first, 50);
    const worstFilter = filterSorted.at(-1)!;
    const memories = [firstRows, opened, scrolled, filtered, freeScrolled];
    const worst = memories.reduce((a, b) => (b.privateMb > a.privateMb ? b : a));

    return {
      title: `History screen with ${seeded.rows.toLocaleString('en')} settlements`,
      lines: [
        {
          name: 'click on History -> first rows visible, median',
          value: ms(medianFirst),
          target: `<= ${TARGETS.firstRowsMs} ms`,
          ok: medianFirst <= TARGETS.firstRowsMs,
        },
        {
          // rAF timestamps are rounded to 0.1 ms: one 60 Hz beat reads as 16.6 to 16.8 ms. The
          // gap is compared in tenths, as read: a float difference (16.8000000001) is one beat.
          name: 'scrolling: frame interval p95 (rAF at 60 Hz)',
          value: ms(percentile(beat, 95)),
          target: `<= ${TARGETS.frameP95Ms} ms (one beat, +0.1 ms rounding)`,
          ok: Math.round(percentile(beat, 95) * 10) <= Math.round(TARGETS.frameP95Ms * 10) + 1,
        },
        {
          name: 'a filter change -> rows and totals shown, worst',
          value: ms(worstFilter),
          target: `<= ${TARGETS.filterMs} ms`,
          ok: worstFilter <= TARGETS.filterMs,
        },
        {
          name: 'renderer process memory (private), worst',
          value: `${worst.privateMb.toFixed(0)} MB`,
          target: `< ${TARGETS.rendererMb} MB`,
          ok: worst.privateMb < TARGETS.rendererMb,
        },
      ],
      notes: [
        `${total} grid rows (aria-rowcount, header included); store seeded in ${(seeded.ms / 1000).toFixed(1)} s`,
        `first rows, 5 trials after a reload: ${first.map((n) => n.toFixed(0)).join(', ')} ms`,
        `frame cost (vsync off, not a target): p95 ${ms(percentile(cost, 95))}, p50 ${ms(percentile(cost, 50))}, p99 ${ms(percentile(cost, 99))}, ` +
          `max ${ms(cost.at(-1)!)} over ${cost.length} frames; steady scrolling p95 ` +
          `${ms(percentile(costFrames.steady, 95))} (${costFrames.steady.length} frames), jumps p95 ` +
          `${ms(percentile(costFrames.jumps, 95))} (${costFrames.jumps.length})`,
        `60 Hz: p50 ${ms(percentile(beat, 50))}, frames over 20 ms: ` +
          `${beat.filter((g) => g > 20).length} of ${beat.length}`,
        `filters: ${filters.map((f) => `${f.what} ${f.ms.toFixed(0)} ms`).join(', ')}`,
        `renderer private / resident memory: first rows (5th reload) ${mem(firstRows)}, opened ${mem(opened)}, scrolled ${mem(scrolled)}, ` +
          `filtered ${mem(filtered)}, 600 frames vsync off ${mem(freeScrolled)}; ` +
          `JS heap used ${heap.toFixed(1)} MB after the filters`,
        `in main: history:list (200 rows) median ${ms(
          percentile(
            mainList.sort((a, b) => a - b),
            50,
          ),
        )}, ` +
          `history:summary median ${ms(
            percentile(
              mainSummary.sort((a, b) => a - b),
              50,
            ),
          )}`,
      ],
    };
  } finally {
    for (const b of browsers) await b.close();
    await app.close();
  }
}

async function main(): Promise<void> {
  buildRenderer();
  const reports = [benchBundle(), await benchHistoryScreen()];
  for (const r of reports) console.log(`${formatReport(r)}\n`);
  const lines = reports.flatMap((r) => r.lines);
  console.log('# summary');
  for (const l of lines)
    console.log(`${l.ok ? 'ok    ' : 'MISSED'} ${l.name}: ${l.value} (${l.target})`);
  if (lines.some((l) => !l.ok)) process.exitCode = 1;
}

// Run as `npm run bench:ui`; bench:portfolio imports startAppIn.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
