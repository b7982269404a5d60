/**
 * `cli sync --resync` killed (SIGKILL) at a random page and run again (issue 20's first test):
 * the second run carries the resync on from where the first stopped (it does not read the
 * settlements from page 1 again), ends with every order and settlement of the exchange stored
 * exactly once, and its progress lines on standard error never go back across the kill.
 *
 * The bundled CLI (../trading/bundle.ts) against the sandbox over HTTP and a real SQLite file.
 * The sandbox's own limits are off; the CLI's rate governor still paces the reads (60 a minute,
 * a burst of 10: docs/api.md 8.1), so the history is 10 settlements pages: each run reads
 * within one burst, and the test takes seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { readSweep } from '../../../src/main/sync/sweep-state.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { countRequests, type RequestLog } from '../../harness/requests.js';
import { makeHistory } from '../sync/history-maker.js';
import { canonicalRows, exchangeSettlements, storedSettlements } from '../sync/helpers.js';
import { bundle, root, type Runnable } from '../trading/bundle.js';
import { tempDir } from '../trading/support.js';

let sandbox: Sandbox;
let requests: RequestLog;
let cli: Runnable;
let dir: { dir: string; cleanup: () => void };

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 0, rateLimits: false });
  requests = countRequests(sandbox.app.server);
  cli = await bundle('src/main/cli/index.ts', 'betdesk-cli');
  dir = tempDir('betdesk-cli-resync-');
}, 60_000);

afterAll(async () => {
  requests.detach();
  await sandbox.close();
  cli.remove();
  dir.cleanup();
});

/** One progress line of a sweep: "Resyncing history: page 12 of 40, 1,130 rows added". */
interface ProgressLine {
  pages: number;
  added: number;
}

const PROGRESS = /^Resyncing history: page ([\d,]+)(?: of [\d,]+)?, ([\d,]+) rows? added$/;
const num = (s: string): number => Number(s.replaceAll(',', ''));

interface Run {
  child: ChildProcess;
  progress: ProgressLine[];
  stderr: string[];
  exited: Promise<number | null>;
}

/** `sync --resync` for the wallet's key on `db`; `onProgress` sees each progress line. */
function resync(
  key: { apiKey: string; secret: string },
  db: string,
  onProgress: (line: ProgressLine, run: Run) => void = () => {},
): Run {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BETDESK_')) env[k] = v;
  const child = spawn(cli.file, [...cli.args, 'sync', '--resync', '--db', db], {
    cwd: root,
    env: {
      ...env,
      XDG_DATA_HOME: path.join(dir.dir, 'data'),
      BETDESK_API_KEY: key.apiKey,
      BETDESK_API_SECRET: key.secret,
      BETDESK_BASE_URL: sandbox.url,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const run: Run = {
    child,
    progress: [],
    stderr: [],
    exited: new Promise((resolve) => child.once('exit', resolve)),
  };
  let rest = '';
  child.stderr.on('data', (d: Buffer) => {
    const lines = (rest + d.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      run.stderr.push(line);
      const m = PROGRESS.exec(line);
      if (m === null) continue;
      const p = { pages: num(m[1]!), added: num(m[2]!) };
      run.progress.push(p);
      onProgress(p, run);
    }
  });
  return run;
}

/** "orderId status updatedAt" of every order, sorted: equal lists mean nothing lost or doubled. */
function exchangeOrders(wallet: string): string[] {
  const { orders } = sandbox.domain.orderUpdates(wallet, undefined);
  return orders.map((o) => `${o.orderId} ${o.status} ${o.updatedAt}`).sort();
}

function storedOrders(store: Store): string[] {
  const rows = store.db.prepare('SELECT order_id, status, updated_at FROM orders').all() as {
    order_id: string;
    status: string;
    updated_at: number;
  }[];
  return rows.map((r) => `${r.order_id} ${r.status} ${r.updated_at}`).sort();
}

/** Each number at least the one before it. */
const neverBack = (xs: number[]): boolean => xs.every((x, i) => i === 0 || x >= xs[i - 1]!);

describe('cli sync --resync killed part-way', () => {
  it('carries on from where it was killed: every order and settlement once, its progress never back', async () => {
    const key = await sandbox.newAccount('trade');
    await makeHistory(sandbox.domain, key.wallet, 2000);
    const rows = exchangeSettlements(sandbox.domain, key.wallet);
    const settlementPages = Math.ceil(rows.length / 100);
    expect(settlementPages).toBeGreaterThanOrEqual(9);
    const db = path.join(dir.dir, 'resync.sqlite');
    // The page the kill comes at: the orders read is page 1, so 3 to 6 is inside the history.
    const killAt = 3 + Math.floor(Math.random() * 4);

    requests.reset();
    const first = resync(key, db, (p, run) => {
      if (p.pages >= killAt) run.child.kill('SIGKILL');
    });
    const firstExit = await first.exited;
    expect(first.child.signalCode, first.stderr.join('\n')).toBe('SIGKILL');
    expect(firstExit).toBeNull();
    const readBefore = requests.count('GET /settlements');

    // What the store kept: the resync, at least as far as the lines said.
    let store = openStore(db);
    const accountId = store.accounts.list()[0]!.id;
    const left = readSweep(store, accountId);
    store.close();
    expect(left).toMatchObject({ reason: 'resync', ordersRead: true });
    expect(left!.pages).toBeGreaterThanOrEqual(first.progress.at(-1)!.pages);
    expect(left!.offset).toBeGreaterThan(0);

    requests.reset();
    const second = resync(key, db);
    expect(await second.exited, second.stderr.join('\n')).toBe(0);

    // Carried on at the offset stored: the pages after it, then the pass's newest page.
    const readAfter = requests.count('GET /settlements');
    expect(readAfter).toBe(Math.ceil((rows.length - left!.offset) / 100) + 1);
    expect(readAfter).toBeLessThan(settlementPages);
    expect(readBefore + readAfter).toBeLessThanOrEqual(settlementPages + 2);
    // The orders were read before the kill; the pass after the resync reads what changed since.
    expect(requests.count('GET /orders/updates')).toBe(1);

    // The progress lines go on from where the first run's stopped.
    expect(second.progress[0]!.pages).toBe(left!.pages);
    const lines = [...first.progress, ...second.progress];
    expect(neverBack(lines.map((p) => p.pages))).toBe(true);
    expect(neverBack(lines.map((p) => p.added))).toBe(true);
    expect(second.stderr).toContain(
      `Resyncing history: done, ${1 + settlementPages} pages, ${(2000 + rows.length).toLocaleString('en-US')} rows added.`,
    );

    store = openStore(db);
    try {
      expect(storedOrders(store)).toEqual(exchangeOrders(key.wallet));
      expect(canonicalRows(storedSettlements(store, accountId))).toEqual(canonicalRows(rows));
      expect(readSweep(store, accountId)).toBeNull();
    } finally {
      store.close();
    }
  }, 60_000);
});
