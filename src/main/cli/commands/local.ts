/** positions, orders and settlements: read from the local store (kept current by `sync`). */
import { ORDER_STATUSES, SETTLEMENT_TYPES } from '../../../shared/api/schemas.js';
import { oneOf, parseOptions } from '../args.js';
import { openSession, type Session } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';

const PAGE = 1000;

export async function positionsCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, {});
  return withSession(p, io, out, 'positions', (s) => {
    const rows = s.store.positions.list(s.account.id);
    for (const r of rows) out.json(r);
    return rows.length;
  });
}

export async function ordersCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, { status: { type: 'string' } });
  const status = oneOf(p, 'status', ORDER_STATUSES);
  return withSession(p, io, out, 'orders', (s) => {
    let n = 0;
    for (let offset = 0; ; offset += PAGE) {
      const page = s.store.orders.list(s.account.id, {
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
  return withSession(p, io, out, 'settlements', (s) => {
    let n = 0;
    for (let offset = 0; ; offset += PAGE) {
      const page = s.store.settlements.query(s.account.id, {
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

async function withSession(
  p: ReturnType<typeof parseOptions>,
  io: CliIO,
  out: Output,
  stream: string,
  print: (s: Session) => number,
): Promise<number> {
  const session = await openSession(p, io, out, { exchange: false });
  try {
    const n = print(session);
    const synced = session.store.cursors.get(session.account.id, stream)?.lastSyncAt;
    out.say(
      `${stream}: ${n} from the local store` +
        (synced !== undefined
          ? ` (synced ${new Date(synced).toISOString()}).`
          : '; it has never been synced: run `sync --once`.'),
    );
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
