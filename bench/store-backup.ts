/**
 * The store's safety work over a year of betting (1,000,000 settlements, bench/settlement-seed.ts):
 *
 *   quick_check at start    checkFile: PRAGMA quick_check on a worker thread, what every start
 *                           runs before opening the store; and the event loop's worst delay
 *   backup                  backupStore (online backup API, then the copy checked): total time,
 *                           the longest step, and the event loop's worst delay measured from
 *                           outside (perf_hooks) while it ran
 *
 * `npx tsx bench/store-backup.ts [store file]`: with no file, a temp store is seeded and removed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { backupStore, listBackups } from '../src/main/store/backup.js';
import { checkFile } from '../src/main/store/integrity.js';
import { openStore } from '../src/main/store/index.js';
import { seedSettlements } from './settlement-seed.js';

const given = process.argv[2];
const ms = (ns: number) => (ns / 1e6).toFixed(1);
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'betdesk-backup-bench-'));
try {
  const file = given ?? path.join(dir, 'betdesk.sqlite');
  if (given === undefined) {
    const store = openStore(file);
    const accountId = store.accounts.create({
      label: 'bench',
      baseUrl: 'http://x',
      apiKey: 'k',
    }).id;
    seedSettlements(store, accountId);
    store.close();
  }
  const mb = (fs.statSync(file).size / 1024 / 1024).toFixed(0);

  // The start's check, on its worker thread: how long it takes, and what the event loop feels.
  let lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  let t = performance.now();
  const problem = await checkFile(file);
  const checked = performance.now() - t;
  await settle();
  lag.disable();
  console.log(
    `quick_check of ${mb} MB at start: ${checked.toFixed(0)} ms (${problem ?? 'ok'}), ` +
      `event loop delay max ${ms(lag.max)} ms (worker thread)`,
  );

  for (const inThread of [false, true]) {
    lag = monitorEventLoopDelay({ resolution: 5 });
    let longest = 0;
    let steps = 0;
    lag.enable();
    t = performance.now();
    await backupStore(file, path.join(dir, 'backups'), {
      inThread,
      onStep: (s) => {
        steps++;
        longest = Math.max(longest, s.ms);
      },
    });
    const total = performance.now() - t;
    // A delay is recorded when the loop comes round again: let it, before reading the histogram.
    await settle();
    lag.disable();
    const where = inThread
      ? `in this thread (${steps} steps, longest but the last ${longest.toFixed(1)} ms)`
      : 'on a worker thread';
    console.log(
      `backup of ${mb} MB ${where}: ${(total / 1000).toFixed(2)} s with the check of the copy; ` +
        `event loop delay max ${ms(lag.max)} ms, p99 ${ms(lag.percentile(99))} ms`,
    );
  }
  const [backup] = listBackups(path.join(dir, 'backups'));
  console.log(`backup file: ${(fs.statSync(backup!.file).size / 1024 / 1024).toFixed(0)} MB`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
