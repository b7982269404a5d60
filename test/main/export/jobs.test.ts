import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ExportDownloads,
  exportFileName,
  ExportJobs,
  exportSettlementsCsv,
  type ExportJobSpec,
  type ExportSource,
} from '../../../src/main/export/index.js';
import { NOT_FETCHED_MESSAGE } from '../../../src/main/export/jobs.js';
import type { Store } from '../../../src/main/store/index.js';
import { storeAndDirEachTest } from '../store/support.js';
import { fill, ProgressLog, sink } from './support.js';

let store: Store;
let accountId: number;
let dir: string;
storeAndDirEachTest((t) => ({ store, accountId, dir } = t));

/** Every settlement of the account, from `source` (the store unless a test breaks it). */
function settlementsSpec(source: ExportSource = store, total = 0): ExportJobSpec {
  return {
    kind: 'settlements',
    total,
    fileName: 'history.csv',
    write: (target, run) => exportSettlementsCsv(source, target, { accountId }, run),
  };
}

/** A store whose export reading fails after `after` rows, as a damaged file would. */
function failingAfter(after: number): ExportSource {
  return {
    openReader() {
      const reader = store.openReader();
      const iterate = reader.settlements.iterateForExport.bind(reader.settlements);
      reader.settlements.iterateForExport = function* (id, filter) {
        let n = 0;
        for (const row of iterate(id, filter)) {
          if (n++ === after) {
            throw Object.assign(new Error('database disk image is malformed'), {
              name: 'SqliteError',
            });
          }
          yield row;
        }
      };
      return reader;
    },
  };
}

describe('export jobs to a file', () => {
  it('reports rows written of total at most once per interval, then one final event', async () => {
    fill(store, accountId, 5000);
    let clock = 0;
    const log = new ProgressLog();
    const at: number[] = [];
    log.onEvent = () => at.push(clock);
    // Each look at the clock moves it 30 ms: without the limit every batch would be reported.
    const jobs = new ExportJobs({ emit: log.emit, now: () => (clock += 30), progressEveryMs: 100 });
    const file = path.join(dir, 'out.csv');
    const { exportId, download } = jobs.toFile(settlementsSpec(store, 5000), file);
    expect(download).toBeNull();

    const last = await log.final(exportId);
    expect(last).toEqual({
      exportId,
      kind: 'settlements',
      state: 'done',
      rows: 5000,
      total: 5000,
      fileName: 'history.csv',
      message: null,
    });
    const running = log.of(exportId).filter((p) => p.state === 'running');
    expect(running[0]?.rows).toBe(0);
    expect(running.length).toBeGreaterThan(2);
    // Ten batches were written; fewer were reported, never two within 100 ms.
    expect(running.length).toBeLessThan(10);
    const runningAt = at.slice(0, running.length);
    for (let i = 1; i < runningAt.length; i++) {
      expect(runningAt[i]! - runningAt[i - 1]!).toBeGreaterThanOrEqual(100);
    }
    const rows = running.map((p) => p.rows);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));

    const same = sink();
    await exportSettlementsCsv(store, same.stream, { accountId });
    expect(fs.readFileSync(file).equals(same.bytes())).toBe(true);
  });

  it('leaves no file, not even its temporary one, when canceled mid-way', async () => {
    fill(store, accountId, 5000);
    const log = new ProgressLog();
    const jobs = new ExportJobs({ emit: log.emit, progressEveryMs: 0 });
    const { exportId } = jobs.toFile(settlementsSpec(), path.join(dir, 'out.csv'));
    await log.next((p) => p.exportId === exportId && p.rows > 0);

    expect(await jobs.cancel(exportId)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual([]);
    const last = await log.final(exportId);
    expect(last.state).toBe('canceled');
    expect(last.rows).toBeLessThan(5000);
    expect(jobs.active).toBe(0);
  });

  it('leaves no file when reading fails mid-way, and says why in words', async () => {
    fill(store, accountId, 3000);
    const log = new ProgressLog();
    const jobs = new ExportJobs({ emit: log.emit });
    const { exportId } = jobs.toFile(settlementsSpec(failingAfter(1200)), path.join(dir, 'x.csv'));
    const last = await log.final(exportId);
    expect(last.state).toBe('failed');
    expect(last.rows).toBe(1000);
    expect(last.message).toBe(
      'The local store could not be read (database disk image is malformed); nothing was saved.',
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('fails in words when the folder is gone', async () => {
    fill(store, accountId, 10);
    const log = new ProgressLog();
    const jobs = new ExportJobs({ emit: log.emit });
    const { exportId } = jobs.toFile(settlementsSpec(), path.join(dir, 'gone', 'x.csv'));
    const last = await log.final(exportId);
    expect(last).toMatchObject({
      state: 'failed',
      message: 'That folder no longer exists; nothing was saved.',
    });
  });

  it('answers false to a cancel after the export ended', async () => {
    fill(store, accountId, 10);
    const log = new ProgressLog();
    const jobs = new ExportJobs({ emit: log.emit });
    const { exportId } = jobs.toFile(settlementsSpec(), path.join(dir, 'x.csv'));
    expect((await log.final(exportId)).state).toBe('done');
    expect(await jobs.cancel(exportId)).toBe(false);
    expect(await jobs.cancel('no-such-export')).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['x.csv']);
  });

  it('stops every export when the app quits, leaving no partial file', async () => {
    fill(store, accountId, 5000);
    const log = new ProgressLog();
    const jobs = new ExportJobs({ emit: log.emit, progressEveryMs: 0 });
    const a = jobs.toFile(settlementsSpec(), path.join(dir, 'a.csv'));
    const b = jobs.toFile(settlementsSpec(), path.join(dir, 'b.csv'));
    await log.next((p) => p.exportId === a.exportId && p.rows > 0);
    await jobs.stop();
    expect(fs.readdirSync(dir)).toEqual([]);
    for (const id of [a.exportId, b.exportId]) {
      expect(await log.final(id)).toMatchObject({
        state: 'failed',
        message: 'Betdesk closed before the export finished; nothing was saved.',
      });
    }
  });
});

describe('export jobs as downloads', () => {
  it('waits for its one fetch; one not fetched in time fails and is withdrawn', async () => {
    const downloads = new ExportDownloads();
    downloads.attach('secret-token');
    const log = new ProgressLog();
    const jobs = new ExportJobs({ emit: log.emit, fetchWithinMs: 20 });
    const started = jobs.toDownload(settlementsSpec(), downloads);
    expect(started.download).toBe(`/export/${started.exportId}.csv?token=secret-token`);
    expect(started.file).toBeNull();
    expect(log.of(started.exportId)[0]?.state).toBe('waiting');

    const last = await log.final(started.exportId);
    expect(last).toMatchObject({ state: 'failed', message: NOT_FETCHED_MESSAGE });
    expect(downloads.take(started.exportId)).toBeUndefined();
  });

  it('withdraws a download canceled before its fetch', async () => {
    const downloads = new ExportDownloads();
    downloads.attach('t');
    const log = new ProgressLog();
    const jobs = new ExportJobs({ emit: log.emit });
    const { exportId } = jobs.toDownload(settlementsSpec(), downloads);
    expect(await jobs.cancel(exportId)).toBe(true);
    expect(downloads.take(exportId)).toBeUndefined();
    expect((await log.final(exportId)).state).toBe('canceled');
  });

  it('refuses a download when no host serves them, and keeps no job', () => {
    const jobs = new ExportJobs({ emit: () => {} });
    expect(() => jobs.toDownload(settlementsSpec(), new ExportDownloads())).toThrow(
      'No browser host serves downloads.',
    );
    expect(jobs.active).toBe(0);
  });
});

describe('the file name', () => {
  it('is the kind and the local date', () => {
    expect(exportFileName('settlements', new Date(2025, 0, 31, 23, 59))).toBe(
      'betdesk-settlements-2025-01-31.csv',
    );
    expect(exportFileName('orders', new Date(2024, 11, 1, 0, 0))).toBe(
      'betdesk-orders-2024-12-01.csv',
    );
  });
});
