/**
 * Start to markets (`npm run bench:start -- [--runs N] [--no-build]`): how long a person waits
 * from typing `npm run serve` to the first fixtures of the Markets screen.
 *
 *   first start (empty data folder): spawn -> first market row visible   median <= 1.2 s
 *   returning user (a filled folder): spawn -> the stored markets shown   median <= 600 ms
 *
 * Each run starts the browser host the way a user does (npm, build/serve.mjs, the bundle). On an
 * empty data directory the paper sandbox, the store and the first sync are all part of it. The
 * returning user's folder is made once (a first start left to sync its fixtures) and started
 * N times: its rows are the store's, shown before the services are up (docs/desk.md, "Saved
 * markets"), and each run notes whether they appeared marked as saved.
 * Chromium is already open (as a user's browser is); when the host prints its address the bench
 * opens it in a fresh page, whose init script stamps the animation frame after the first row of a
 * league's list exists. Both clocks are this machine's Date.now(). The app is built once first,
 * so no run pays for a build; a run whose host rebuilt anyway (a source changed meanwhile) is
 * left out and said so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../build/chromium.js';
import { startBetdesk } from '../test/e2e/processes.js';
import { formatReport, type BenchReport } from './core-store.js';

const root = path.join(import.meta.dirname, '..');
const TARGET_MS = 1200;
const RETURNING_TARGET_MS = 600;

/** The page's globals the bench reads (this file is typed for Node). */
interface BrowserGlobals {
  /** When the first row was drawn, and whether the rows were marked as saved then. */
  benchMarkets: Promise<[number, boolean]>;
  performance: { timeOrigin: number };
}

/** Installed before the page's own scripts: a plain script, so nothing transpiles it. */
const WATCH_FIRST_ROW = `
  window.benchMarkets = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector('section[aria-label^="League "] li')) return;
      observer.disconnect();
      const saved = document.body.textContent.includes('Saved markets from');
      requestAnimationFrame(() => resolve([Date.now(), saved]));
    });
    observer.observe(document, { subtree: true, childList: true });
  });
`;

interface Sample {
  /** Spawn -> the listening line on stdout. */
  listening: number;
  /** Spawn -> the page's navigation start. */
  navigation: number;
  /** Spawn -> the frame after the first market row. */
  markets: number;
  /** CPU time (user + system) of npm and the host by then. */
  hostCpu: number;
  /** The first rows were marked as saved markets (the store's, before the first sync). */
  saved: boolean;
  /** npm's own start: its process -> the host's node process (10 ms ticks); NaN if not found. */
  npm: number;
}

/** The start of a process, in ms since boot (USER_HZ ticks); undefined when it is gone. */
function startedMs(pid: number | string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's closing parenthesis, starttime is the 20th field.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) * 10;
  } catch {
    return undefined;
  }
}

/** npm's share of the start: from npm's process to the host's (node build/serve.mjs). */
function npmShareMs(pgid: number): number {
  const npm = startedMs(pgid);
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes('build/serve.mjs') || cmdline.startsWith('sh')) continue;
    const host = startedMs(pid);
    if (npm !== undefined && host !== undefined) return host - npm;
  }
  return NaN;
}

/** CPU time in ms of every live process in the group (npm, its shell, the host). */
function groupCpuMs(pgid: number): number {
  const tick = 100; // USER_HZ on Linux
  let sum = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command's closing parenthesis: state, ppid, pgrp, ..., utime (12th), stime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    sum += ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
  }
  return sum;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? NaN;
};
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** `runs` starts (after one not counted, which warms the disk cache) on `dataDir`, or empty. */
async function sampleStarts(
  browser: Browser,
  runs: number,
  dataDir?: string,
): Promise<{ samples: Sample[]; rebuilt: number }> {
  const samples: Sample[] = [];
  let rebuilt = 0;
  // A run that rebuilt is run again.
  for (let i = 0; samples.length < runs && i <= 3 * runs; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(WATCH_FIRST_ROW);
    const spawnedAt = Date.now();
    const betdesk = await startBetdesk(dataDir === undefined ? {} : { dataDir });
    try {
      const listeningAt = Date.now();
      await page.goto(betdesk.url, { waitUntil: 'commit' });
      const [seenAt, saved] = await page
        .evaluate(() => (globalThis as unknown as BrowserGlobals).benchMarkets)
        .catch((err: unknown) => {
          throw new Error(`no market row appeared: ${String(err)}\n${betdesk.stderr()}`);
        });
      const origin = await page.evaluate(
        () => (globalThis as unknown as BrowserGlobals).performance.timeOrigin,
      );
      const hostCpu = groupCpuMs(betdesk.process.pid!);
      const npm = npmShareMs(betdesk.process.pid!);
      if (betdesk.stderr().includes('building the app')) rebuilt += 1;
      else if (i > 0) {
        samples.push({
          listening: listeningAt - spawnedAt,
          navigation: origin - spawnedAt,
          markets: seenAt - spawnedAt,
          hostCpu,
          saved,
          npm,
        });
      }
      // A returning user's store: left until its first sync confirmed the markets, so the
      // next start has a synced store, as a user's has.
      if (dataDir !== undefined) {
        await page.getByText('Saved markets from').waitFor({ state: 'detached', timeout: 10_000 });
      }
    } finally {
      await page.close();
      await betdesk.stop();
    }
  }
  return { samples, rebuilt };
}

/** A data folder whose store holds paper's markets: one first start, left to sync. */
async function filledDataDir(browser: Browser): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'betdesk-bench-start-'));
  const page = await browser.newPage();
  const betdesk = await startBetdesk({ dataDir });
  try {
    await page.goto(betdesk.url);
    await page.locator('section[aria-label^="League "] li').first().waitFor();
  } finally {
    await page.close();
    await betdesk.stop();
  }
  return dataDir;
}

function startLines(samples: Sample[]): string[] {
  return [
    `each run: ${samples.map((s) => s.markets.toFixed(0)).join(', ')} ms`,
    `spawn -> listening line: median ${ms(median(samples.map((s) => s.listening)))}`,
    `spawn -> page navigation start: median ${ms(median(samples.map((s) => s.navigation)))}`,
    `navigation start -> first row: median ${ms(median(samples.map((s) => s.markets - s.navigation)))}`,
    `CPU time of npm and the host by then: median ${ms(median(samples.map((s) => s.hostCpu)))}`,
    // What `npm run` itself takes before Betdesk's own code starts (the desktop app has none).
    `of which npm's own start (npm -> the host's node process): median ${ms(median(samples.map((s) => s.npm)))}`,
  ];
}

export async function benchStart(runs = 7, build = true): Promise<BenchReport> {
  if (build) {
    const cli = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
    const built = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'ignore' });
    if (built.status !== 0) throw new Error('electron-vite build failed; run it to see why.');
  }
  const loadAtStart = loadavg()[0]!;
  const browser = await chromium.launch(chromiumLaunchOptions);
  let first: Awaited<ReturnType<typeof sampleStarts>>;
  let returning: Awaited<ReturnType<typeof sampleStarts>>;
  let dataDir: string | undefined;
  try {
    first = await sampleStarts(browser, runs);
    dataDir = await filledDataDir(browser);
    returning = await sampleStarts(browser, runs, dataDir);
  } finally {
    await browser.close();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }
  const total = median(first.samples.map((s) => s.markets));
  const back = median(returning.samples.map((s) => s.markets));
  const saved = returning.samples.filter((s) => s.saved).length;
  const rebuilt = first.rebuilt + returning.rebuilt;
  return {
    title: `start to markets (${runs} runs each, npm run serve)`,
    lines: [
      {
        name: 'empty data folder: spawn -> first market row visible, median',
        value: ms(total),
        target: `<= ${TARGET_MS} ms`,
        ok: total <= TARGET_MS,
      },
      {
        name: 'returning user: spawn -> stored markets visible, median',
        value: ms(back),
        target: `<= ${RETURNING_TARGET_MS} ms`,
        ok: back <= RETURNING_TARGET_MS,
      },
    ],
    notes: [
      'empty data folder:',
      ...startLines(first.samples),
      'returning user (a filled data folder):',
      ...startLines(returning.samples),
      `first rows marked as saved markets: ${saved} of ${returning.samples.length} runs`,
      // A shared machine slows every run: compare runs made under a similar load.
      `load average (1 min) at start and end: ${loadAtStart.toFixed(1)}, ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`,
      ...(rebuilt > 0 ? [`${rebuilt} run(s) left out: the host rebuilt the app first`] : []),
    ],
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '7' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const report = await benchStart(Number(values.runs), !values['no-build']);
  console.log(formatReport(report));
  if (report.lines.some((l) => !l.ok)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
