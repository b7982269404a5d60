/**
 * CSV export of the local history: settlements and orders, streamed from a read-only SQLite
 * connection through csv-stringify (RFC 4180 quoting) into a file or any writable stream.
 *
 * - RFC 4180: a header row, CRLF line ends, fields with a comma, quote or line break quoted,
 *   quotes doubled.
 * - Decimal strings (prices, pnl, payouts, costs) are written exactly as stored; integers as
 *   integers; times as UTC ISO 8601 (2025-01-31T18:00:00.000Z).
 * - Text columns pass the formula guard (formula-guard.ts) unless it is turned off.
 * - Memory stays flat however long the history: rows come one at a time from the database
 *   iterator, are formatted a small batch at a time, and the producer waits for 'drain'
 *   whenever the target's buffer is full.
 * - A file target is written to a temporary name and renamed when complete, so a failed or
 *   aborted export never leaves a truncated file behind. A full disk (ENOSPC, or EFBIG past a
 *   file-size limit) ends it with a DiskFullError that says how far it got; an I/O error on a
 *   disk with room (EIO) with an IoError that says the same.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import { DiskFullError, IoError, writeFaultOf } from '../store/errors.js';
import {
  EXPORT_ORDER_COLUMNS,
  EXPORT_SETTLEMENT_COLUMNS,
  type ExportOrderColumn,
  type ExportSettlementColumn,
  type OrderFilter,
  type SettlementFilter,
} from '../store/index.js';
import type { StoreReader } from '../store/store.js';
import { guardFormula } from './formula-guard.js';

/** A file path, or a stream the CSV is written into: ended when done, destroyed on failure. */
export type CsvTarget = string | Writable;

/** What an export needs from the store: a way to read without holding the writer. */
export interface ExportSource {
  openReader(): StoreReader;
}

export interface CsvOptions {
  /** Prefix text cells a spreadsheet would run as a formula with an apostrophe. Default true. */
  formulaGuard?: boolean;
  /** Begin with a UTF-8 byte order mark, for spreadsheets that need one. Default false. */
  bom?: boolean;
  /** Stops the export; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told the data rows written so far after every batch (about 500 rows). */
  onProgress?: (rows: number) => void;
}

export interface CsvExportResult {
  /** Data rows written (the header not counted). */
  rows: number;
}

/**
 * How a column is written. `text` is guarded against formulas; `decimal` and `integer` are
 * written as they are; `ms` is a time in ms turned into ISO 8601; `iso` is already ISO.
 */
export type ColumnKind = 'text' | 'decimal' | 'integer' | 'ms' | 'iso';

const SETTLEMENT_KINDS: Record<ExportSettlementColumn, ColumnKind> = {
  timestamp: 'iso',
  type: 'text',
  contract_id: 'text',
  league: 'text',
  home_team: 'text',
  away_team: 'text',
  outcome: 'text',
  contracts: 'integer',
  price: 'decimal',
  pnl: 'decimal',
  payout: 'decimal',
  tx: 'text',
  cost_basis: 'decimal',
  realized_pnl: 'decimal',
  pnl_source: 'text',
};

const ORDER_KINDS: Record<ExportOrderColumn, ColumnKind> = {
  created_at: 'ms',
  updated_at: 'ms',
  order_id: 'text',
  client_order_id: 'text',
  contract_id: 'text',
  league: 'text',
  home_team: 'text',
  away_team: 'text',
  outcome: 'text',
  side: 'text',
  order_type: 'text',
  market_unit: 'text',
  qty: 'decimal',
  boost: 'integer',
  status: 'text',
  contracts: 'integer',
  entry_price: 'decimal',
  cost: 'decimal',
  max_win: 'decimal',
  knockout: 'decimal',
  proceeds: 'decimal',
  error_code: 'integer',
  error_msg: 'text',
  tx: 'text',
};

export type SettlementExportRequest = SettlementFilter & { accountId: number };
export type OrderExportRequest = OrderFilter & { accountId: number };

/** Writes the account's matching settlements, oldest first, as CSV. */
export async function exportSettlementsCsv(
  source: ExportSource,
  target: CsvTarget,
  request: SettlementExportRequest,
  options: CsvOptions = {},
): Promise<CsvExportResult> {
  const { accountId, ...filter } = request;
  return exportRows(
    source,
    (reader) => reader.settlements.iterateForExport(accountId, filter),
    EXPORT_SETTLEMENT_COLUMNS,
    SETTLEMENT_KINDS,
    target,
    options,
  );
}

/** Writes the account's matching orders, oldest first, as CSV. */
export async function exportOrdersCsv(
  source: ExportSource,
  target: CsvTarget,
  request: OrderExportRequest,
  options: CsvOptions = {},
): Promise<CsvExportResult> {
  const { accountId, ...filter } = request;
  return exportRows(
    source,
    (reader) => reader.orders.iterateForExport(accountId, filter),
    EXPORT_ORDER_COLUMNS,
    ORDER_KINDS,
    target,
    options,
  );
}

/**
 * Rows formatted per write (~70 KB of CSV): memory stays flat, and the event loop runs between
 * batches.
 *
 * csv-stringify is the encoder: the header, and every batch holding a cell that needs RFC 4180
 * quoting, go through its sync API. A batch whose every cell is null, a number or a string
 * without a comma, quote or line break is one csv-stringify would write as the cells joined by
 * commas, nothing quoted; such a batch (almost all of them) is joined directly, which measured
 * about ten times cheaper than csv-stringify's per-field casting and option handling.
 * test/main/export/csv.test.ts holds the two to the same output.
 */
const BATCH_ROWS = 500;

/**
 * Streams the raw rows `open` reads from a reader connection into `target` as CSV under the
 * header `columns`, each cell written as `kinds` says. Every export of this folder goes through
 * it (guard-log.ts too), so they all quote, guard and stream alike.
 */
export async function exportRows<C extends string>(
  source: ExportSource,
  open: (reader: StoreReader) => IterableIterator<unknown[]>,
  columns: readonly C[],
  kinds: Record<C, ColumnKind>,
  target: CsvTarget,
  options: CsvOptions,
): Promise<CsvExportResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  const prepare = rowPreparer(
    columns.map((c) => kinds[c]),
    options.formulaGuard ?? true,
  );
  const first = { ...ROW_FORMAT, header: true, columns: [...columns], bom: options.bom ?? false };

  // The reader first: if the store cannot be read, no file is created.
  const reader = source.openReader();
  const output = openTarget(target);
  const stream = output.stream;
  // Settles when the stream finishes or fails; a failure ends the export at its next write.
  const closed = finished(stream);
  closed.catch(() => undefined); // awaited below; this only marks it handled meanwhile

  let headerWritten = false;
  const write = async (batch: unknown[][]): Promise<void> => {
    let text = formatCsvRows(batch);
    if (!headerWritten) text = stringify([], first) + text;
    headerWritten = true;
    // The abort ends the wait too: a download whose reader stalls never drains.
    if (!stream.write(text)) await Promise.race([once(stream, 'drain', { signal }), closed]);
    // Let the event loop run between batches, so the main process stays responsive (IPC,
    // sync, timers) during a long export. Waiting for 'drain' is not enough: when the kernel
    // takes a socket write at once (a fast local reader), Node emits 'drain' on
    // process.nextTick, and an export would then run from start to end without the loop ever
    // reaching its timers (measured: a 3.4 s stall over the browser host's download route).
    await yieldToLoop();
  };

  let rows = 0;
  try {
    let batch: unknown[][] = [];
    const iterator = open(reader);
    try {
      for (const row of iterator) {
        batch.push(prepare(row));
        if (batch.length === BATCH_ROWS) {
          await write(batch);
          rows += batch.length;
          batch = [];
          signal?.throwIfAborted();
          options.onProgress?.(rows);
        }
      }
    } finally {
      iterator.return?.();
    }
    if (batch.length > 0 || !headerWritten) await write(batch);
    rows += batch.length;
    signal?.throwIfAborted();
    stream.end();
    await closed;
    await output.commit();
    return { rows };
  } catch (err) {
    stream.destroy();
    await closed.catch(() => undefined);
    // once() rejects with its own AbortError; the caller's reason says why it stopped.
    if (signal?.aborted) {
      await output.discard();
      throw signal.reason;
    }
    const fault = writeFaultOf(err, output.partial === null ? {} : { at: output.partial });
    if (fault === undefined) {
      await output.discard();
      throw err;
    }
    throw await stoppedByDisk(fault === 'disk-full', output, rows, err);
  } finally {
    reader.close();
  }
}

/** How csv-stringify is asked to write data rows: RFC 4180 quoting, CRLF after every record. */
// quoted_match: with CRLF records csv-stringify quotes only a field holding CRLF itself; a lone
// CR or LF must be quoted too, or a strict RFC 4180 reader splits the record there.
const ROW_FORMAT = { record_delimiter: 'windows', header: false, quoted_match: /[\r\n]/ };

/** A string csv-stringify would quote: it holds the delimiter, the quote or a line break. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Data rows as CSV text, exactly as csv-stringify (ROW_FORMAT) writes them, each ending in CRLF.
 * Exported for the test that holds the direct join to csv-stringify's output.
 */
export function formatCsvRows(rows: readonly (readonly unknown[])[]): string {
  if (rows.length === 0) return '';
  const lines: string[] = [];
  for (const row of rows) {
    for (const cell of row) {
      const plain =
        cell === null ||
        typeof cell === 'number' ||
        (typeof cell === 'string' && !NEEDS_QUOTES.test(cell));
      if (!plain) return stringify(rows as unknown[][], ROW_FORMAT);
    }
    // join writes null as '' and a number as String(n), as csv-stringify does.
    lines.push(row.join(','));
  }
  lines.push('');
  return lines.join('\r\n');
}

/** Turns a raw database row into CSV fields, in place. */
function rowPreparer(kinds: readonly ColumnKind[], guard: boolean): (row: unknown[]) => unknown[] {
  const textAt = guard ? indexesOf(kinds, 'text') : [];
  const msAt = indexesOf(kinds, 'ms');
  return (row) => {
    for (const i of textAt) {
      const v = row[i];
      if (typeof v === 'string') row[i] = guardFormula(v);
    }
    for (const i of msAt) {
      const v = row[i];
      if (typeof v === 'number') row[i] = new Date(v).toISOString();
    }
    return row;
  };
}

function indexesOf(kinds: readonly ColumnKind[], kind: ColumnKind): number[] {
  const out: number[] = [];
  kinds.forEach((k, i) => {
    if (k === kind) out.push(i);
  });
  return out;
}

/**
 * The export met a full disk, or an I/O error on a disk with room: its partial file is removed,
 * and the error says so in words.
 */
async function stoppedByDisk(
  full: boolean,
  output: OpenTarget,
  rows: number,
  cause: unknown,
): Promise<DiskFullError | IoError> {
  const stopped = `the export stopped after ${rows} row${rows === 1 ? '' : 's'}`;
  const error = (detail: string) =>
    full
      ? new DiskFullError(`${detail}.`, { cause })
      : new IoError(
          `${detail.charAt(0).toUpperCase()}${detail.slice(1)}; the store is unchanged.`,
          {
            cause,
            subject: 'Betdesk could not write the export',
          },
        );
  if (output.partial === null) return error(stopped);
  try {
    await output.discard();
    return error(`${stopped} and the partial file was removed`);
  } catch {
    return error(`${stopped}; remove the partial file ${output.partial}`);
  }
}

interface OpenTarget {
  stream: Writable;
  /** The temporary file being written, or null for a stream target. */
  partial: string | null;
  /** Makes the written output final (renames a temporary file into place). */
  commit(): Promise<void>;
  /** Removes what a failed export wrote to a file. */
  discard(): Promise<void>;
}

function openTarget(target: CsvTarget): OpenTarget {
  if (typeof target !== 'string') {
    return { stream: target, partial: null, commit: async () => {}, discard: async () => {} };
  }
  const dir = path.dirname(path.resolve(target));
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.part`);
  return {
    stream: fs.createWriteStream(temp, { highWaterMark: 256 * 1024 }),
    partial: temp,
    commit: () => fs.promises.rename(temp, target),
    discard: () => fs.promises.rm(temp, { force: true }),
  };
}
