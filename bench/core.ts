/**
 * The core benchmarks (`npm run bench:core`): the store's (bench/core-store.ts) and the
 * knockout alert latency (bench/alert-latency.ts). Prints every number with its target and
 * a summary line; the exit code is 1 when a target was missed.
 *
 *   applying order updates into the store            >= 200,000 rows/s
 *   filtered paged settlements query, 1M rows        p95 <= 5 ms
 *   History's totals and P&L series (slots), 1M rows <= 100 ms (the screen's 150 ms budget)
 *   CSV export of 1M settlements                     <= 3 s, peak memory growth < 100 MB
 *   knockout alert latency, default intervals        p95 <= 3.5 s, no 429
 */
import { benchAlertLatency } from './alert-latency.js';
import {
  benchApplyUpdates,
  benchCsvExport,
  benchHistoryStore,
  benchSettlementsQuery,
  formatReport,
  type BenchReport,
} from './core-store.js';

async function main(): Promise<void> {
  const reports: BenchReport[] = [];
  const run = async (bench: () => Promise<BenchReport>): Promise<void> => {
    const r = await bench();
    reports.push(r);
    console.log(`${formatReport(r)}\n`);
  };
  await run(() => benchApplyUpdates());
  await run(() => benchSettlementsQuery());
  await run(() => benchHistoryStore());
  await run(() => benchCsvExport());
  await run(() => benchAlertLatency(Number(process.env.BENCH_ALERT_TRIALS ?? 20)));

  const lines = reports.flatMap((r) => r.lines);
  const missed = lines.filter((l) => !l.ok);
  console.log('# summary');
  for (const l of lines)
    console.log(`${l.ok ? 'ok    ' : 'MISSED'} ${l.name}: ${l.value} (${l.target})`);
  if (missed.length > 0) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
