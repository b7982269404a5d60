/**
 * Crashes: a child process places and syncs orders in a loop on one SQLite file and is killed
 * with SIGKILL at a random moment, again and again. Each restart reconciles first, and must then
 * find the store equal to the exchange: every order stored with its status, every intent done
 * with its order or not placed with none, nothing open, nothing doubled.
 *
 * The child is bundled once (bundle.ts), so a restart costs a Node start, not a TypeScript
 * compile.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeClient } from '../../../src/main/client/index.js';
import { openStore } from '../../../src/main/store/index.js';
import { TradingService } from '../../../src/main/trading/index.js';
import { startSandbox, type Sandbox } from '../../exchange/harness.js';
import { compareWithExchange, syncOrders, untilOrdersFinal, type Convergence } from './converge.js';
import { bundle, root, type Runnable } from './bundle.js';
import { tempDir } from './support.js';

const KILLS = 55;

let sandbox: Sandbox;
let dir: { dir: string; cleanup: () => void };
let command: Runnable;

beforeAll(async () => {
  sandbox = await startSandbox({ blockMs: 20, rateLimits: false });
  dir = tempDir('betdesk-crash-');
  command = await bundle('test/main/trading/crash-worker.ts', 'betdesk-crash-worker');
});

afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
  command.remove();
});

interface Reconciled {
  placed: number;
  notPlaced: number;
  unknown: number;
  check: Convergence;
}

interface Run {
  child: ChildProcess;
  checked: Promise<Convergence & { reconciled?: Reconciled }>;
  placed(): number;
  exited: Promise<void>;
  stderr(): string;
}

function start(env: Record<string, string>): Run {
  const child = spawn(command.file, command.args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let placed = 0;
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const checked = new Promise<Convergence & { reconciled?: Reconciled }>((resolve, reject) => {
    let reconciled: Reconciled | undefined;
    const lines = readline.createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const e = JSON.parse(line) as { event: string } & Record<string, unknown>;
      if (e.event === 'reconciled') reconciled = e as unknown as Reconciled;
      if (e.event === 'checked')
        resolve({ ...(e as unknown as Convergence), ...(reconciled ? { reconciled } : {}) });
      if (e.event === 'placed') placed++;
    });
    void exited.then(() => reject(new Error(`the worker exited before its check: ${err}`)));
  });
  checked.catch(() => undefined);
  return { child, checked, placed: () => placed, exited, stderr: () => err };
}

describe('crashes', () => {
  it(`converges to the exchange after each of ${KILLS} kills at random moments`, async () => {
    const key = await sandbox.newAccount('trade');
    const fixtures: string[] = [];
    for (let i = 0; i < 4; i++) {
      const f = await sandbox.admin<{ contractId: string; homeTeam: string }>('POST', '/fixtures', {
        homeTeam: 'HOM',
        awayTeam: 'AWY',
        league: 'Crash League',
      });
      fixtures.push(`${f.contractId}:${f.homeTeam}`);
    }
    const db = path.join(dir.dir, 'betdesk.sqlite');
    const env = {
      BETDESK_CRASH_URL: sandbox.url,
      BETDESK_CRASH_KEY: key.apiKey,
      BETDESK_CRASH_SECRET: key.secret,
      BETDESK_CRASH_DB: db,
      BETDESK_CRASH_FIXTURES: fixtures.join(','),
    };

    let placedBefore = 0;
    const found = { placed: 0, notPlaced: 0 };
    for (let i = 0; i < KILLS; i++) {
      const run = start(env);
      const check = await run.checked;
      expect(check.reconciled?.check.problems, `restart ${i}: ${run.stderr()}`).toEqual([]);
      expect(check.problems, `restart ${i}, after a sync: ${run.stderr()}`).toEqual([]);
      expect(check.ok).toBe(true);
      found.placed += check.reconciled?.placed ?? 0;
      found.notPlaced += check.reconciled?.notPlaced ?? 0;
      // Let it trade for a random while, then kill it wherever it is.
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 150)));
      run.child.kill('SIGKILL');
      await run.exited;
      placedBefore += run.placed();
    }

    // A last restart, in this process: reconcile, sync, compare.
    const store = openStore(db);
    const client = new ExchangeClient({
      baseUrl: sandbox.url,
      credentials: { apiKey: key.apiKey, secret: key.secret },
    });
    try {
      const account = store.accounts.getByLabel('crash')!;
      const trading = new TradingService({ client, store, accountId: account.id });
      const report = await trading.reconcileOpenIntents();
      found.placed += report.placed.length;
      found.notPlaced += report.notPlaced.length;
      expect((await compareWithExchange(store, account.id, client, 'reconciled')).problems).toEqual(
        [],
      );
      await untilOrdersFinal(client);
      await syncOrders(store, account.id, client);
      const final = await compareWithExchange(store, account.id, client);
      console.log(
        `${KILLS} kills: ${final.exchangeOrders} orders on the exchange, ${final.intents} intents ` +
          `(${final.notPlaced} not placed); restarts found ${found.placed} orders placed by a ` +
          `killed process and ${found.notPlaced} intents it never sent`,
      );
      expect(final.problems).toEqual([]);
      expect(final.exchangeOrders).toBeGreaterThan(KILLS);
      expect(final.intents).toBe(final.exchangeOrders + final.notPlaced);
      // Kills landed inside placements, not only between them.
      expect(found.placed + found.notPlaced).toBeGreaterThan(0);
      expect(placedBefore).toBeGreaterThan(0);
    } finally {
      await client.close();
      store.close();
    }
  }, 170_000);
});
