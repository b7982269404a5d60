/**
 * sync: keeps the account's local store current with the sync engine (src/main/sync) until
 * interrupted, printing one JSON line per change; --once runs one pass of every stream and
 * prints its report; --resync reads the whole history again first (or carries on the resync
 * left unfinished, by this command or the app), then ends as --once does. A history sweep's
 * progress is one plain line per page on standard error, whichever the mode (docs/cli.md).
 * The account's guardians run beside the engine, as in the app (docs/guardians.md): one JSON
 * line per guardian log row written here; with --once they judge the pass once and the command
 * waits for any close they send.
 */
import { GuardBook } from '../../guard/book.js';
import { Guardian } from '../../guard/guardian.js';
import type { GuardLogEntry } from '../../store/index.js';
import { SyncEngine, type HistorySweepProgress } from '../../sync/index.js';
import { parseOptions } from '../args.js';
import { openCommandContext } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';

export async function syncCommand(
  args: string[],
  io: CliIO,
  out: Output,
  signals: { wait(): Promise<void> },
): Promise<number> {
  const p = parseOptions(args, { once: { type: 'boolean' }, resync: { type: 'boolean' } });
  const ctx = await openCommandContext(p, io, out, { exchange: true });
  const engine = new SyncEngine({
    client: ctx.connection.client,
    store: ctx.store,
    accountId: ctx.account.id,
  });
  const { connection } = ctx;
  const guardian = new Guardian({
    store: ctx.store,
    book: new GuardBook({ store: ctx.store }),
    accountId: ctx.account.id,
    bridgeId: ctx.account.isPaper ? null : String(ctx.account.id),
    engine,
    trading: connection.trading,
    ordersBucket: () => connection.governor.snapshot().accounts[connection.governorName]?.orders,
    onLog: (row: GuardLogEntry) => out.json({ ...row, event: `guard:${row.event}` }),
  });
  followHistory(engine, out);
  // A read waiting for the rate governor's next token does not hold the process up by itself
  // (governor/time.ts); a resync spends the burst and waits a second a page, so this does.
  const holdOpen = setInterval(() => undefined, 60_000);
  try {
    const resync = p.values['resync'] === true;
    if (resync) {
      out.say(
        `Resyncing the history of account "${ctx.account.label}" (Ctrl-C stops it; the next ` +
          'sync or app start carries on where it stopped).',
      );
      // Ctrl-C stops the sweep between two pages; what it stored is kept.
      let stopped = false;
      void signals.wait().then(() => {
        stopped = true;
        return engine.stop();
      });
      // A failure is said by the progress line; the pass below reports the stream's state.
      await engine.resyncHistory().catch(() => undefined);
      if (stopped) return EXIT.failed;
    }
    if (p.values['once'] === true || resync) {
      const report = await engine.syncOnce();
      out.json(report);
      // One judgement of the pass; a close it sends is followed to its end.
      guardian.start();
      await guardian.idle();
      await guardian.stop();
      for (const e of report.errors) out.say(`${e.stream}: ${e.message}`);
      if (!report.ok) return report.status.state === 'offline' ? EXIT.unknown : EXIT.exchange;
      // The pass carries on a resync cut short; one still unfinished is not done.
      if (resync && engine.historyProgress()?.state !== 'done') return EXIT.failed;
      out.say(`Synced account "${ctx.account.label}".`);
      return EXIT.ok;
    }
    engine.on('orders:changed', (e) =>
      out.json({ event: 'orders:changed', orders: e.orders.length, cursor: e.cursor, at: e.at }),
    );
    engine.on('positions:changed', (e) =>
      out.json({ event: 'positions:changed', positions: e.positions.length, at: e.at }),
    );
    engine.on('settlements:changed', (e) =>
      out.json({
        event: 'settlements:changed',
        inserted: e.inserted.length,
        total: e.total,
        at: e.at,
      }),
    );
    engine.on('fixtures:changed', (e) =>
      out.json({ event: 'fixtures:changed', fixtures: e.fixtures.length, at: e.at }),
    );
    engine.on('sync:status', (s) => out.json({ event: 'sync:status', ...s }));
    out.say(`Syncing account "${ctx.account.label}"; stop with Ctrl-C.`);
    // Running for days, it takes the daily backup as the app does: checked every hour.
    ctx.backups.start();
    engine.start();
    guardian.start();
    await signals.wait();
    await guardian.stop();
    await engine.stop();
    return EXIT.ok;
  } finally {
    clearInterval(holdOpen);
    await guardian.stop();
    await engine.stop();
    await ctx.close();
  }
}

/** One line per page of a history sweep, and one when it ends, on standard error. */
function followHistory(engine: SyncEngine, out: Output): void {
  let said: string | null = null;
  engine.on('history:progress', (p) => {
    const line = historyLine(p);
    // Asking and starting report the same numbers: said once.
    if (line !== said) out.say(line);
    said = line;
  });
}

const count = (n: number): string => n.toLocaleString('en-US');

/** "Resyncing history: page 12 of 40, 1,130 rows added" and its ends. */
export function historyLine(p: HistorySweepProgress): string {
  const what = p.reason === 'resync' ? 'Resyncing history' : 'First sync of the history';
  const of = p.estimatedPages > 0 ? ` of ${count(p.estimatedPages)}` : '';
  const rows = `${count(p.added)} row${p.added === 1 ? '' : 's'} added`;
  switch (p.state) {
    case 'running':
      return `${what}: page ${count(p.pages)}${of}, ${rows}`;
    case 'done':
      return `${what}: done, ${count(p.pages)} page${p.pages === 1 ? '' : 's'}, ${rows}.`;
    case 'failed':
    case 'interrupted':
      return `${what}: stopped at page ${count(p.pages)}${of}, ${rows}. ${p.message ?? ''}`.trim();
  }
}
