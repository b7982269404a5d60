/**
 * `export` on the command line has a flag for every filter the app's screens export with, so a
 * file from the app and one from the CLI can be compared byte for byte. Run in-process against a
 * real store file (reading the local history needs no exchange and no keychain).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportOrdersCsv, exportSettlementsCsv } from '../../../src/main/export/index.js';
import type { Store } from '../../../src/main/store/index.js';
import { runInProcess } from '../cli/in-process.js';
import { tempStore } from '../store/support.js';
import { fill, sink } from './support.js';

let store: Store;
let accountId: number;
let db: string;
let done = () => {};
beforeEach(() => {
  const t = tempStore();
  ({ store, accountId } = t);
  db = t.file;
  fill(store, accountId, 800, 60);
  done = t.done;
});
afterEach(() => done());

async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await runInProcess(db, args);
  return { code, stderr };
}

describe('export on the command line', () => {
  it('filters settlements by league and writes a BOM and unguarded cells when asked', async () => {
    const out = path.join(path.dirname(db), 'cli.csv');
    const from = '2024-03-04';
    const r = await cli([
      'export',
      'settlements',
      '--out',
      out,
      '--league',
      'La Liga',
      '--from',
      from,
      '--bom',
      '--no-formula-guard',
    ]);
    expect(r).toEqual({
      code: 0,
      stderr: expect.stringMatching(/^Wrote \d+ settlements/) as unknown,
    });
    const same = sink();
    const { rows } = await exportSettlementsCsv(
      store,
      same.stream,
      { accountId, league: 'La Liga', from: Date.parse(from) },
      { bom: true, formulaGuard: false },
    );
    expect(rows).toBeGreaterThan(100);
    expect(rows).toBeLessThan(800);
    const written = fs.readFileSync(out);
    expect(written.equals(same.bytes())).toBe(true);
    expect(written.toString('utf8')).toContain(',=CMD,');
    // The realized P&L columns (docs/pnl.md) come after the columns of before, in both.
    const [header, ...lines] = written.toString('utf8').split('\r\n');
    expect(header).toMatch(/,pnl,payout,tx,cost_basis,realized_pnl,pnl_source$/);
    expect(lines.filter((l) => l.endsWith(',exchange')).length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.endsWith(',unknown')).length).toBeGreaterThan(0);
  });

  it('filters orders by several statuses and a side, as the app groups them', async () => {
    const out = path.join(path.dirname(db), 'orders.csv');
    const r = await cli([
      'export',
      'orders',
      '--out',
      out,
      '--status',
      'canceled,EXPIRED',
      '--side',
      'sell',
    ]);
    expect(r.code).toBe(0);
    const same = sink();
    const { rows } = await exportOrdersCsv(store, same.stream, {
      accountId,
      status: ['CANCELED', 'EXPIRED'],
      side: 'SELL',
    });
    expect(rows).toBeGreaterThan(3);
    expect(fs.readFileSync(out).equals(same.bytes())).toBe(true);
  });

  it('refuses a flag that does not apply, or a status that is none, as a usage error', async () => {
    const out = path.join(path.dirname(db), 'x.csv');
    const league = await cli(['export', 'orders', '--out', out, '--league', 'La Liga']);
    expect(league.code).toBe(2);
    expect(league.stderr).toContain('--league applies to settlements');
    const side = await cli(['export', 'settlements', '--out', out, '--side', 'BUY']);
    expect(side.code).toBe(2);
    const status = await cli(['export', 'orders', '--out', out, '--status', 'FILLED,DONE']);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('--status must be one or more of');
    expect(fs.existsSync(out)).toBe(false);
  });
});
