/** positions, orders and settlements: read from the local store (kept current by `sync`). */
import { ORDER_STATUSES, SETTLEMENT_TYPES } from '../../../shared/api/schemas.js';
import { oneOf, parseOptions } from '../args.js';
import { openCommandContext, type CommandContext } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';

const PAGE = 1000;

export async function positionsCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, {});
  return fromStore(p, io, out, 'positions', (ctx) => {
    const rows = ctx.store.positions.list(ctx.account.id);
    for (const r of rows) out.json(r);
    return rows.length;
  });
}

export async function ordersCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, { status: { type: 'string' } });
  const status = oneOf(p, 'status', ORDER_STATUSES);
  return fromStore(p, io, out, 'orders', (ctx) => {
    let n = 0;
    for (let offset = 0; ; offset += PAGE) {
      const page = ctx.store.orders.list(ctx.account.id, {
        ...(status !== undefined ? { status } : {}),
        limit: PAGE,
        offset,
      });
      for (const o of page.orders) out.json(o);
      n += page.orders.length;
      if (page.orders.length < PAGE) return n;
    }
  });
}

export async function settlementsCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, { type: { type: 'string' } });
  const type = oneOf(p, 'type', SETTLEMENT_TYPES);
  return fromStore(p, io, out, 'settlements', (ctx) => {
    let n = 0;
    for (let offset = 0; ; offset += PAGE) {
      const page = ctx.store.settlements.query(ctx.account.id, {
        ...(type !== undefined ? { type } : {}),
        limit: PAGE,
        offset,
      });
      for (const row of page.settlements) out.json(row);
      n += page.settlements.length;
      if (page.settlements.length < PAGE) return n;
    }
  });
}

async function fromStore(
  p: ReturnType<typeof parseOptions>,
  io: CliIO,
  out: Output,
  stream: string,
  print: (ctx: CommandContext) => number,
): Promise<number> {
  const ctx = await openCommandContext(p, io, out, { exchange: false });
  try {
    const n = print(ctx);
    const synced = ctx.store.cursors.get(ctx.account.id, stream)?.lastSyncAt;
    out.say(
      `${stream}: ${n} from the local store` +
        (synced !== undefined
          ? ` (synced ${new Date(synced).toISOString()}).`
          : '; it has never been synced: run `sync --once`.'),
    );
    return EXIT.ok;
  } finally {
    await ctx.close();
  }
}
