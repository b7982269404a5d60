/**
 * export settlements|orders: CSV of the local store, written to a file atomically.
 *
 * Every filter of the app's History and Orders screens has a flag here, and the app exports
 * through the same module, so the app and the CLI give the same bytes for the same filter.
 */
import path from 'node:path';
import {
  ORDER_STATUSES,
  SETTLEMENT_TYPES,
  SIDES,
  type OrderStatus,
} from '../../../shared/api/schemas.js';
import { exportOrdersCsv, exportSettlementsCsv } from '../../export/index.js';
import { oneOf, parseOptions, required, str, time, type Parsed } from '../args.js';
import { openCommandContext } from '../context.js';
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
      side: { type: 'string' },
      contract: { type: 'string' },
      team: { type: 'string' },
      league: { type: 'string' },
      bom: { type: 'boolean' },
      'no-formula-guard': { type: 'boolean' },
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
  const csv = {
    bom: p.values['bom'] === true,
    formulaGuard: p.values['no-formula-guard'] !== true,
  };
  /** A flag of the other export is a usage error that names the flag to use instead. */
  const refuseFlag = (flag: string, appliesTo: string, instead: string) => {
    if (str(p, flag) !== undefined) {
      throw new UsageError(`--${flag} applies to ${appliesTo}; ${instead}.`);
    }
  };
  let type: (typeof SETTLEMENT_TYPES)[number] | undefined;
  let league: string | undefined;
  let statuses: OrderStatus[] | undefined;
  let side: (typeof SIDES)[number] | undefined;
  if (what === 'settlements') {
    refuseFlag('status', 'orders', 'settlements have --type');
    refuseFlag('side', 'orders', 'settlements have --type');
    type = oneOf(p, 'type', SETTLEMENT_TYPES);
    league = str(p, 'league');
  } else {
    refuseFlag('type', 'settlements', 'orders have --status');
    refuseFlag('league', 'settlements', 'orders have --contract');
    statuses = statusList(p);
    side = oneOf(p, 'side', SIDES);
  }

  const ctx = await openCommandContext(p, io, out, { exchange: false });
  try {
    const accountId = ctx.account.id;
    const { rows } =
      what === 'settlements'
        ? await exportSettlementsCsv(
            ctx.store,
            file,
            { accountId, ...common, ...(type ? { type } : {}), ...(league ? { league } : {}) },
            csv,
          )
        : await exportOrdersCsv(
            ctx.store,
            file,
            {
              accountId,
              ...common,
              ...(statuses ? { status: statuses } : {}),
              ...(side ? { side } : {}),
            },
            csv,
          );
    out.json({ exported: what, rows, out: file });
    out.say(`Wrote ${rows} ${what} to ${file}.`);
    return EXIT.ok;
  } finally {
    await ctx.close();
  }
}

/** `--status FILLED` or several, `--status CANCELED,EXPIRED` (how the app groups them). */
function statusList(p: Parsed): OrderStatus[] | undefined {
  const v = str(p, 'status');
  if (v === undefined) return undefined;
  const words = v.split(',').map((w) => w.trim().toUpperCase());
  for (const w of words) {
    if (!(ORDER_STATUSES as readonly string[]).includes(w)) {
      throw new UsageError(
        `--status must be one or more of ${ORDER_STATUSES.join(', ')}, separated by commas (got "${v}").`,
      );
    }
  }
  return [...new Set(words)] as OrderStatus[];
}
