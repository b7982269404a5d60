/**
 * sync: keeps the account's local store current with the sync engine (src/main/sync) until
 * interrupted, printing one JSON line per change; --once runs one pass of every stream and
 * prints its report. The account's guardians run beside the engine, as in the app
 * (docs/guardians.md): one JSON line per guardian log row written here; with --once they judge
 * the pass once and the command waits for any close they send.
 */
import { GuardBook } from '../../guard/book.js';
import { Guardian } from '../../guard/guardian.js';
import type { GuardLogEntry } from '../../store/index.js';
import { SyncEngine } from '../../sync/index.js';
import { parseOptions } from '../args.js';
import { openCommandContext } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';

export async function syncCommand(
  args: string[],
  io: CliIO,
  out: Output,
  signals: { wait(): Promise<void> },
): Promise<number> {
  const p = parseOptions(args, { once: { type: 'boolean' } });
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
  try {
    if (p.values['once'] === true) {
      const report = await engine.syncOnce();
      out.json(report);
      // One judgement of the pass; a close it sends is followed to its end.
      guardian.start();
      await guardian.idle();
      await guardian.stop();
      for (const e of report.errors) out.say(`${e.stream}: ${e.message}`);
      if (report.ok) {
        out.say(`Synced account "${ctx.account.label}".`);
        return EXIT.ok;
      }
      return report.status.state === 'offline' ? EXIT.unknown : EXIT.exchange;
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
    await guardian.stop();
    await engine.stop();
    await ctx.close();
  }
}
