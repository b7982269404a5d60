import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Settlement } from '../../../src/shared/api/schemas.js';
import {
  exportOrdersCsv,
  exportSettlementsCsv,
  guardFormula,
} from '../../../src/main/export/index.js';
import type { Store } from '../../../src/main/store/index.js';
import { fixture, order, settlement, storeAndDirEachTest } from '../store/support.js';
import { formatCsvRows } from '../../../src/main/export/csv.js';
import { parseCsv } from './parse-csv.js';

let store: Store;
let accountId: number;
let dir: string;
storeAndDirEachTest((t) => ({ store, accountId, dir } = t));

const SETTLEMENT_HEADER = [
  'timestamp',
  'type',
  'contract_id',
  'league',
  'home_team',
  'away_team',
  'outcome',
  'contracts',
  'price',
  'pnl',
  'payout',
  'tx',
  // Issue 18: appended, so the columns existing spreadsheets read keep their places.
  'cost_basis',
  'realized_pnl',
  'pnl_source',
];

/** Collects what is written to a stream, as text. */
function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function settlementsCsv(filter: Parameters<typeof exportSettlementsCsv>[2] = { accountId }) {
  const out = sink();
  const result = await exportSettlementsCsv(store, out.stream, filter);
  return { result, text: out.text(), rows: parseCsv(out.text()) };
}

describe('settlements CSV', () => {
  it('starts with a header row and ends records with CRLF', async () => {
    store.applySettlements(accountId, [settlement(1)]);
    const { text, rows, result } = await settlementsCsv();
    expect(rows[0]).toEqual(SETTLEMENT_HEADER);
    expect(result.rows).toBe(1);
    expect(text.split('\r\n')).toHaveLength(3); // header, row, trailing empty
  });

  it('writes only the header when nothing matches', async () => {
    const { rows, result } = await settlementsCsv();
    expect(rows).toEqual([SETTLEMENT_HEADER]);
    expect(result.rows).toBe(0);
  });

  it('writes decimal strings untouched and times as UTC ISO 8601, oldest first', async () => {
    store.applySettlements(accountId, [
      settlement(1, {
        type: 'CLOSED',
        price: '0.5000',
        pnl: '-1.50',
        timestamp: '2024-03-02T00:00:00Z',
      }),
      settlement(2, {
        type: 'SETTLEMENT',
        payout: '0',
        price: undefined,
        pnl: undefined,
        timestamp: '2024-03-01T12:30:00+02:00',
      }),
    ]);
    const { rows } = await settlementsCsv();
    expect(rows.slice(1).map((r) => [r[0], r[1], r[8], r[9], r[10]])).toEqual([
      ['2024-03-01T10:30:00.000Z', 'SETTLEMENT', '', '', '0'],
      ['2024-03-02T00:00:00.000Z', 'CLOSED', '0.5000', '-1.50', ''],
    ]);
  });

  it('appends cost basis, realized P&L and its source after the columns of before', async () => {
    const t = Date.UTC(2024, 2, 1, 18);
    const bought = (i: number, contracts: number, cost: string, at: number) =>
      order(i, {
        contractId: 'EPL-W',
        outcome: 'ARS',
        status: 'FILLED',
        contracts,
        cost,
        createdAt: at,
        updatedAt: at,
      });
    store.applyOrderUpdates(
      accountId,
      [bought(1, 6, '3.00', t - 2000), bought(2, 4, '2.60', t - 1000)],
      1,
    );
    store.applySettlements(accountId, [
      settlement(1, { type: 'CLOSED', pnl: '-1.50', timestamp: new Date(t - 5000).toISOString() }),
      {
        type: 'SETTLEMENT',
        contractId: 'EPL-W',
        outcome: 'ARS',
        contracts: 10,
        payout: '10.00',
        tx: '0xs',
        timestamp: new Date(t).toISOString(),
      },
      settlement(3, {
        type: 'SETTLEMENT',
        payout: '4.00',
        pnl: undefined,
        price: undefined,
        timestamp: new Date(t + 1000).toISOString(),
      }),
    ]);
    const { rows } = await settlementsCsv();
    expect(rows.slice(1).map((r) => [r[1], r[9], r[10], ...r.slice(12)])).toEqual([
      ['CLOSED', '-1.50', '', '', '-1.50', 'exchange'],
      ['SETTLEMENT', '', '10.00', '5.60', '4.40', 'orders'],
      ['SETTLEMENT', '', '4.00', '', '', 'unknown'],
    ]);
  });

  it('adds league and teams from the fixture when it is known', async () => {
    store.fixtures.upsertMany(
      accountId,
      [fixture('EPL-1', { league: 'Premier League', homeTeam: 'ARS', awayTeam: 'CHE' })],
      1,
    );
    store.applySettlements(accountId, [
      settlement(1, { contractId: 'EPL-1' }),
      settlement(2, { contractId: 'X-9' }),
    ]);
    const { rows } = await settlementsCsv();
    const byContract = Object.fromEntries(
      rows.slice(1).map((r): [string, string[]] => [r[2] ?? '', r.slice(3, 6)]),
    );
    expect(byContract).toEqual({ 'EPL-1': ['Premier League', 'ARS', 'CHE'], 'X-9': ['', '', ''] });
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says, and reads back equal', async () => {
    const league = 'Liga "A", Group 1\r\nNorth\nSouth';
    store.fixtures.upsertMany(accountId, [fixture('EPL-1', { league })], 1);
    store.applySettlements(accountId, [settlement(1, { contractId: 'EPL-1', tx: 'a,b' })]);
    const { text, rows } = await settlementsCsv();
    expect(text).toContain('"Liga ""A"", Group 1\r\nNorth\nSouth"');
    expect(text).toContain('"a,b"');
    expect(rows[1]?.[3]).toBe(league);
    expect(rows[1]?.[11]).toBe('a,b');
  });

  it('guards text cells against formulas but leaves negative money alone', async () => {
    store.fixtures.upsertMany(
      accountId,
      [
        fixture('EPL-1', {
          league: '=HYPERLINK("http://evil")',
          homeTeam: '+1',
          awayTeam: '@SUM(A1)',
        }),
      ],
      1,
    );
    store.applySettlements(accountId, [
      settlement(1, {
        type: 'CLOSED',
        contractId: 'EPL-1',
        outcome: '-ARS',
        pnl: '-1.50',
        price: '0.4000',
      }),
    ]);
    const { rows } = await settlementsCsv();
    expect(rows[1]?.slice(3, 7)).toEqual([
      '\'=HYPERLINK("http://evil")',
      "'+1",
      "'@SUM(A1)",
      "'-ARS",
    ]);
    expect(rows[1]?.[9]).toBe('-1.50');
    const plain = sink();
    await exportSettlementsCsv(store, plain.stream, { accountId }, { formulaGuard: false });
    expect(parseCsv(plain.text())[1]?.[3]).toBe('=HYPERLINK("http://evil")');
  });

  it('applies the date range, type, contract and team filters', async () => {
    const rows: Settlement[] = Array.from({ length: 200 }, (_, i) => settlement(i));
    store.applySettlements(accountId, rows);
    const from = Date.UTC(2024, 2, 5);
    const to = Date.UTC(2024, 2, 9, 12);
    const { rows: out } = await settlementsCsv({
      accountId,
      from,
      to,
      type: 'CLOSED',
      team: 'ars',
    });
    const expected = rows.filter((s) => {
      const ms = Date.parse(s.timestamp);
      return ms >= from && ms < to && s.type === 'CLOSED' && s.outcome === 'ARS';
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(
      out
        .slice(1)
        .map((r) => r[11])
        .sort(),
    ).toEqual(expected.map((s) => s.tx).sort());
    const byContract = await settlementsCsv({ accountId, contractId: 'epl-3' });
    expect(byContract.rows.length).toBeGreaterThan(1);
    expect(byContract.rows.slice(1).every((r) => r[2] === 'EPL-3')).toBe(true);
    expect(byContract.result.rows).toBe(rows.filter((s) => s.contractId === 'EPL-3').length);
  });

  it('writes a file atomically and leaves nothing behind when the export fails', async () => {
    store.applySettlements(accountId, [settlement(1), settlement(2)]);
    const file = path.join(dir, 'history.csv');
    const r = await exportSettlementsCsv(store, file, { accountId });
    expect(r.rows).toBe(2);
    expect(parseCsv(fs.readFileSync(file, 'utf8'))).toHaveLength(3);
    expect(fs.readdirSync(dir)).toEqual(['history.csv']);

    const aborted = new AbortController();
    aborted.abort(new Error('user cancelled'));
    await expect(
      exportSettlementsCsv(
        store,
        path.join(dir, 'never.csv'),
        { accountId },
        { signal: aborted.signal },
      ),
    ).rejects.toThrow('user cancelled');
    expect(fs.readdirSync(dir)).toEqual(['history.csv']);

    const nowhere = path.join(dir, 'missing-folder', 'x.csv');
    await expect(exportSettlementsCsv(store, nowhere, { accountId })).rejects.toThrow(/ENOENT/);
  });

  it('rejects when the target stream fails, and frees the reader', async () => {
    store.applySettlements(
      accountId,
      Array.from({ length: 5000 }, (_, i) => settlement(i, {}, 200)),
    );
    const failing = new Writable({
      write(_c, _e, cb) {
        cb(new Error('disk full'));
      },
    });
    await expect(exportSettlementsCsv(store, failing, { accountId })).rejects.toThrow('disk full');
    // The writer is still free to write while and after an export.
    store.applySettlements(accountId, [settlement(9999)]);
    expect(store.settlements.count(accountId)).toBe(5001);
  });

  it('streams 100,000 rows with backpressure and reads back exactly what is stored', async () => {
    const n = 100_000;
    const all = Array.from({ length: n }, (_, i) => settlement(i, {}, 400));
    store.applySettlements(accountId, all);
    // A slow consumer with a small buffer forces many waits for 'drain'.
    const chunks: Buffer[] = [];
    let writes = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _e, cb) {
        chunks.push(chunk);
        if (++writes % 50 === 0) setImmediate(cb);
        else cb();
      },
    });
    const r = await exportSettlementsCsv(store, slow, { accountId });
    expect(r.rows).toBe(n);
    const parsed = parseCsv(Buffer.concat(chunks).toString('utf8'));
    expect(parsed).toHaveLength(n + 1);
    const want = new Map(
      all.map((s) => [
        s.tx,
        [
          new Date(s.timestamp).toISOString(),
          s.type,
          s.contractId,
          '',
          '',
          '',
          s.outcome,
          String(s.contracts),
          s.price ?? '',
          s.pnl ?? '',
          s.payout ?? '',
          s.tx,
          '',
          s.pnl ?? '', // no orders stored: a SETTLEMENT's realized P&L is unknown
          s.type === 'SETTLEMENT' ? 'unknown' : 'exchange',
        ].join('|'),
      ]),
    );
    // Collected rather than asserted per row: 100,000 expect() calls would dominate the test.
    const wrong: string[] = [];
    let last = '';
    for (const row of parsed.slice(1)) {
      const tx = row[11]!;
      if (want.get(tx) !== row.join('|')) wrong.push(row.join('|'));
      if (row[0]! < last) wrong.push(`out of order: ${row[0]}`);
      last = row[0]!;
      want.delete(tx);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(want.size).toBe(0);
  }, 120_000);
});

describe('orders CSV', () => {
  it('writes every column with ISO times, untouched decimals and guarded messages', async () => {
    store.fixtures.upsertMany(accountId, [fixture('EPL-1')], 1);
    store.applyOrderUpdates(
      accountId,
      [
        order(1, {
          contractId: 'EPL-1',
          status: 'FILLED',
          knockout: '0.3012',
          boost: 50,
          proceeds: '1.10',
        }),
        order(2, {
          status: 'REJECTED',
          error: { code: -2024, msg: '=cmd|" /C calc"!A0, reverted' },
        }),
      ],
      1,
    );
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const r = await exportOrdersCsv(store, out, { accountId });
    expect(r.rows).toBe(2);
    const rows = parseCsv(Buffer.concat(chunks).toString('utf8'));
    const header = rows[0]!;
    expect(header).toEqual([
      'created_at',
      'updated_at',
      'order_id',
      'client_order_id',
      'contract_id',
      'league',
      'home_team',
      'away_team',
      'outcome',
      'side',
      'order_type',
      'market_unit',
      'qty',
      'boost',
      'status',
      'contracts',
      'entry_price',
      'cost',
      'max_win',
      'knockout',
      'proceeds',
      'error_code',
      'error_msg',
      'tx',
    ]);
    const rec = (i: number) => Object.fromEntries(header.map((h, j) => [h, rows[i]![j]]));
    expect(rec(1)).toMatchObject({
      created_at: new Date(order(1).createdAt).toISOString(),
      client_order_id: 'bd-1',
      league: 'Premier League',
      status: 'FILLED',
      entry_price: '0.5512',
      cost: '27.5600',
      knockout: '0.3012',
      boost: '50',
      proceeds: '1.10',
      error_code: '',
    });
    expect(rec(2)).toMatchObject({
      error_code: '-2024',
      error_msg: `'=cmd|" /C calc"!A0, reverted`,
    });
  });

  it('filters by status, team and time', async () => {
    store.applyOrderUpdates(
      accountId,
      Array.from({ length: 30 }, (_, i) => order(i, { status: i % 3 ? 'FILLED' : 'CANCELED' })),
      1,
    );
    const out = sink();
    const from = order(10).createdAt;
    const r = await exportOrdersCsv(store, out.stream, {
      accountId,
      status: 'FILLED',
      team: 'ars',
      from,
    });
    const expected = Array.from({ length: 30 }, (_, i) => i).filter(
      (i) => i >= 10 && i % 3 && i % 2,
    );
    expect(r.rows).toBe(expected.length);
    expect(
      parseCsv(out.text())
        .slice(1)
        .map((row) => row[3]),
    ).toEqual(expected.map((i) => `bd-${i}`));
  });
});

describe('formatCsvRows', () => {
  const csvStringify = (rows: unknown[][]): string =>
    stringify(rows, { record_delimiter: 'windows', header: false, quoted_match: /[\r\n]/ });

  it('writes exactly what csv-stringify writes, for any cells a row can hold', () => {
    // Plain cells mostly (the direct join), with the characters that need quoting mixed in.
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', '0', '.', '-', ' ', '=', "'", 'é', ',', '"', '\r', '\n'),
      maxLength: 6,
    });
    const cell = fc.oneof(
      { weight: 4, arbitrary: text },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.integer() },
      { weight: 1, arbitrary: fc.double() },
    );
    const rows = fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 6 });
    fc.assert(
      fc.property(rows, (r) => {
        expect(formatCsvRows(r)).toBe(csvStringify(r));
      }),
      { numRuns: 2000 },
    );
  });

  it('joins plain rows directly and quotes a batch with a cell that needs it', () => {
    expect(
      formatCsvRows([
        ['a', 1, null, ''],
        ['-1.5', 'x y'],
      ]),
    ).toBe('a,1,,\r\n-1.5,x y\r\n');
    expect(formatCsvRows([['lf\nonly', 'cr\ronly']])).toBe('"lf\nonly","cr\ronly"\r\n');
    const mixed = [['a'], ['b,c', 'say "hi"', 'l1\r\nl2']];
    expect(formatCsvRows(mixed)).toBe('a\r\n"b,c","say ""hi""","l1\r\nl2"\r\n');
    expect(formatCsvRows([])).toBe('');
  });
});

describe('guardFormula', () => {
  it('prefixes only cells that start like a formula', () => {
    expect(
      ['=1+2', '+1', '-1', '@x', '\tx', '\rx', '＝1', 'ARS', '', '0x12'].map(guardFormula),
    ).toEqual(["'=1+2", "'+1", "'-1", "'@x", "'\tx", "'\rx", "'＝1", 'ARS', '', '0x12']);
  });
});
