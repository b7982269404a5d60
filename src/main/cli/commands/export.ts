/** export settlements|orders: CSV of the local store, written to a file atomically. */
import path from 'node:path';
import { ORDER_STATUSES, SETTLEMENT_TYPES } from '../../../shared/api/schemas.js';
import { exportOrdersCsv, exportSettlementsCsv } from '../../export/index.js';
import { oneOf, parseOptions, required, str, time } from '../args.js';
import { openSession } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';
import { UsageError } from '../usage.js';

export async function exportCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(
    args,
    {
      out: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      type: { type: 'string' },
      status: { type: 'string' },
      contract: { type: 'string' },
      team: { type: 'string' },
    },
    1,
  );
  const what = p.positionals[0];
  if (what !== 'settlements' && what !== 'orders') {
    throw new UsageError(
      what === undefined
        ? 'Say what to export: settlements or orders.'
        : `Cannot export "${what}": settlements or orders.`,
    );
  }
  const file = path.resolve(required(p, 'out', 'the CSV file to write'));
  const from = time(p, 'from');
  const to = time(p, 'to');
  if (from !== undefined && to !== undefined && from >= to) {
    throw new UsageError('--from must be before --to.');
  }
  const common = {
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(str(p, 'contract') !== undefined ? { contractId: str(p, 'contract')! } : {}),
    ...(str(p, 'team') !== undefined ? { team: str(p, 'team')! } : {}),
  };
  let type: (typeof SETTLEMENT_TYPES)[number] | undefined;
  let status: (typeof ORDER_STATUSES)[number] | undefined;
  if (what === 'settlements') {
    if (str(p, 'status') !== undefined)
      throw new UsageError('--status applies to orders; settlements have --type.');
    type = oneOf(p, 'type', SETTLEMENT_TYPES);
  } else {
    if (str(p, 'type') !== undefined)
      throw new UsageError('--type applies to settlements; orders have --status.');
    status = oneOf(p, 'status', ORDER_STATUSES);
  }

  const session = await openSession(p, io, out, { exchange: false });
  try {
    const accountId = session.account.id;
    const { rows } =
      what === 'settlements'
        ? await exportSettlementsCsv(session.store, file, {
            accountId,
            ...common,
            ...(type ? { type } : {}),
          })
        : await exportOrdersCsv(session.store, file, {
            accountId,
            ...common,
            ...(status ? { status } : {}),
          });
    out.json({ exported: what, rows, out: file });
    out.say(`Wrote ${rows} ${what} to ${file}.`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
