/**
 * The guardian log as CSV (src/main/export/guard-log.ts) over a real store: the columns of
 * docs/guardians.md, the log's filters, the formula guard and BOM of the other exports, and the
 * app's export (`{kind: 'guards'}`) writing the same bytes as the module.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportFeature } from '../../../src/main/export/feature.js';
import {
  exportGuardLogCsv,
  GUARD_LOG_COLUMNS,
  type ExportDestination,
} from '../../../src/main/export/index.js';
import type { Store } from '../../../src/main/store/index.js';
import type { ExportProgress } from '../../../src/shared/ipc/contract.js';
import { storeAndDirEachTest } from '../store/support.js';
import { parseCsv } from './parse-csv.js';
import { fill, fillGuardLog, GUARD_LOG_START, ProgressLog, sessionOf, sink } from './support.js';

let store: Store;
let accountId: number;
let dir: string;
storeAndDirEachTest((t) => {
  ({ store, accountId, dir } = t);
  fill(store, accountId, 0);
  fillGuardLog(store, accountId, 70);
});

const HOUR = 3_600_000;

async function csvOf(
  scope: Parameters<typeof exportGuardLogCsv>[2],
  options: Parameters<typeof exportGuardLogCsv>[3] = {},
) {
  const out = sink();
  const { rows } = await exportGuardLogCsv(store, out.stream, scope, options);
  return { rows, bytes: out.bytes(), records: parseCsv(out.bytes().toString('utf8')) };
}

describe('the guardian log CSV', () => {
  it('has the columns docs/guardians.md names, oldest first, one row per log row', async () => {
    const { rows, records } = await csvOf({ accountId });
    const [header, ...data] = records;
    expect(header).toEqual([
      'time',
      'account',
      'rule_id',
      'kind',
      'fixture',
      'contract_id',
      'outcome',
      'event',
      'hold',
      'message',
      'observed_at',
      'closing_price',
      'index_price',
      'pnl',
      'pnl_percent',
      'contracts',
      'client_order_id',
      'order_id',
      'error_code',
    ]);
    expect(header).toEqual([...GUARD_LOG_COLUMNS]);
    expect(rows).toBe(70);
    expect(data).toHaveLength(70);
    const times = data.map((r) => Date.parse(r[0]!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(data[0]![0]).toBe('2024-03-01T12:00:00.000Z');
  });

  it('writes the figures a rule was judged on exactly, and its order and error code', async () => {
    const { records } = await csvOf({ accountId });
    const col = (name: (typeof GUARD_LOG_COLUMNS)[number]) => GUARD_LOG_COLUMNS.indexOf(name);
    const held = records.find((r) => r[col('event')] === 'held')!;
    expect(held[col('account')]).toBe('main');
    expect(held[col('hold')]).toBe('stale');
    expect(held[col('fixture')]).toBe('ARS v CHE');
    expect(held[col('observed_at')]).toBe(
      new Date(Date.parse(held[col('time')]!) - 1500).toISOString(),
    );
    expect(held.slice(col('closing_price'), col('pnl_percent') + 1)).toEqual([
      '0.4210',
      '0.3875',
      '-1.50',
      '-12.5',
    ]);
    const failed = records.find((r) => r[col('event')] === 'failed')!;
    expect(failed[col('error_code')]).toBe('-2029');
    expect(failed[col('contracts')]).toBe('20');
    // A message that starts like a formula is guarded; its comma and quotes are quoted.
    expect(failed[col('message')]).toBe(`'-2029: nothing to sell, "already closed", not retried.`);
    const filled = records.find((r) => r[col('event')] === 'filled')!;
    expect(filled[col('client_order_id')]).toMatch(/^bdg-\d+-abc123$/);
    expect(filled[col('order_id')]).toMatch(/^0x[0-9a-f]{8}$/);
    // No observation: its cells are empty, not "null".
    const armed = records.find((r) => r[col('event')] === 'armed')!;
    expect(armed.slice(col('observed_at'), col('contracts') + 1)).toEqual(['', '', '', '', '', '']);
  });

  it('names the fixture a spreadsheet would run as a formula, guarded unless turned off', async () => {
    const guarded = await csvOf({ accountId, contractId: 'EPL-3' });
    const fixtureAt = GUARD_LOG_COLUMNS.indexOf('fixture');
    expect(guarded.records.slice(1).map((r) => r[fixtureAt])).toContain(`'=CMD v CHE`);
    const raw = await csvOf({ accountId, contractId: 'EPL-3' }, { formulaGuard: false, bom: true });
    expect(raw.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(raw.bytes.toString('utf8')).toContain(',=CMD v CHE,');
  });

  it('keeps to the filter: event, kind, rule, contract and a time range', async () => {
    const rule = store.guards.live(accountId)[1]!;
    const from = GUARD_LOG_START + 10 * HOUR;
    const to = GUARD_LOG_START + 40 * HOUR;
    const scopes = [
      { event: 'failed' as const },
      { kind: 'stop_loss' as const },
      { ruleId: rule.id },
      { contractId: 'EPL-2' },
      { from, to },
      { event: 'held' as const, from },
    ];
    for (const scope of scopes) {
      const { rows, records } = await csvOf({ accountId, ...scope });
      expect(rows).toBe(store.guards.logCount(accountId, scope));
      expect(rows).toBeGreaterThan(0);
      expect(rows).toBeLessThan(70);
      expect(records).toHaveLength(rows + 1);
    }
    const { records } = await csvOf({ accountId, from, to });
    expect(records[1]![0]).toBe(new Date(from).toISOString());
    expect(records.at(-1)![0]).toBe(new Date(to - HOUR).toISOString());
  });

  it('writes the header alone when nothing matches, and nothing of another account', async () => {
    const other = store.accounts.create({
      label: 'other',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'key-2',
      permission: 'trade',
      wallet: '0x' + '2'.repeat(40),
    }).id;
    const { rows, records } = await csvOf({ accountId: other });
    expect(rows).toBe(0);
    expect(records).toEqual([[...GUARD_LOG_COLUMNS]]);
  });
});

describe('the guardian log exported from the app', () => {
  it('writes what the Guardians screen filter shows, byte for byte as the module writes it', async () => {
    const file = path.join(dir, 'guards.csv');
    const offered: string[] = [];
    const destination: ExportDestination = {
      kind: 'file',
      chooseFile: (name) => {
        offered.push(name);
        return Promise.resolve(file);
      },
    };
    const log = new ProgressLog();
    const svc = exportFeature({
      store,
      started: sessionOf(accountId),
      emit: (_event, payload) => log.emit(payload as ExportProgress),
      destination,
      now: () => new Date(2025, 0, 31, 18, 30).getTime(),
    });
    const filter = { kind: 'trailing_stop' as const, from: GUARD_LOG_START + 5 * HOUR };
    const { export: started } = await svc['export:start']({
      kind: 'guards',
      filter,
      options: { bom: true, formulaGuard: true },
    });
    expect(offered).toEqual(['betdesk-guards-2025-01-31.csv']);
    const total = store.guards.logCount(accountId, filter);
    expect(total).toBeGreaterThan(5);
    expect(started).toMatchObject({ total, fileName: 'guards.csv' });
    const final = await log.final(started!.exportId);
    expect(final).toMatchObject({ kind: 'guards', state: 'done', rows: total });

    const same = sink();
    await exportGuardLogCsv(store, same.stream, { accountId, ...filter }, { bom: true });
    expect(fs.readFileSync(file).equals(same.bytes())).toBe(true);
  });
});
