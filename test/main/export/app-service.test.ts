/**
 * The app's export service (src/main/export/feature.ts) over a real store: the History and Orders
 * screens' filters written as the CLI's export module writes them, byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportFeature, MAX_ACTIVE_EXPORTS } from '../../../src/main/export/feature.js';
import {
  ExportDownloads,
  exportOrdersCsv,
  exportSettlementsCsv,
  type ExportDestination,
} from '../../../src/main/export/index.js';
import type { Store } from '../../../src/main/store/index.js';
import type { ExportProgress, ExportRequest } from '../../../src/shared/ipc/contract.js';
import { storeAndDirEachTest } from '../store/support.js';
import { fill, ProgressLog, sessionOf, sink } from './support.js';

let store: Store;
let accountId: number;
let dir: string;
storeAndDirEachTest((t) => {
  ({ store, accountId, dir } = t);
  fill(store, accountId, 600, 40);
});

const NOW = new Date(2025, 0, 31, 18, 30).getTime();

function service(destination: ExportDestination | undefined, log = new ProgressLog()) {
  const events: string[] = [];
  const svc = exportFeature({
    store,
    started: sessionOf(accountId),
    emit: (event, payload) => {
      events.push(event);
      log.emit(payload as ExportProgress);
    },
    destination,
    now: () => NOW,
  });
  return { svc, log, events };
}

/** A save dialog that answers `file` and remembers the name it offered. */
function dialog(file: string | null) {
  const offered: string[] = [];
  const destination: ExportDestination = {
    kind: 'file',
    chooseFile: (name) => {
      offered.push(name);
      return Promise.resolve(file);
    },
  };
  return { destination, offered };
}

const FROM = Date.UTC(2024, 2, 3);
const TO = Date.UTC(2024, 2, 15);

describe('export from the desktop app', () => {
  it('writes what the History filter shows, byte for byte as the export module writes it', async () => {
    const file = path.join(dir, 'chosen.csv');
    const { destination, offered } = dialog(file);
    const { svc, log, events } = service(destination);
    const request: ExportRequest = {
      kind: 'settlements',
      filter: { type: 'CLOSED', league: 'La Liga', from: FROM, to: TO },
      options: { bom: true, formulaGuard: true },
    };
    const { export: started } = await svc['export:start'](request);

    expect(offered).toEqual(['betdesk-settlements-2025-01-31.csv']);
    const filter = { type: 'CLOSED' as const, league: 'La Liga', from: FROM, to: TO };
    const total = store.settlements.count(accountId, filter);
    expect(total).toBeGreaterThan(10);
    expect(total).toBeLessThan(store.settlements.count(accountId, { type: 'CLOSED' }));
    expect(started).toEqual({
      exportId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/) as unknown,
      total,
      fileName: 'chosen.csv',
      download: null,
      file,
    });

    const last = await log.final(started!.exportId);
    expect(last).toMatchObject({ state: 'done', rows: total, total, fileName: 'chosen.csv' });
    expect(new Set(events)).toEqual(new Set(['export:progress']));
    const same = sink();
    await exportSettlementsCsv(store, same.stream, { accountId, ...filter }, { bom: true });
    expect(fs.readFileSync(file).equals(same.bytes())).toBe(true);
    expect(fs.readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('writes cells as they are when the formula guard is off', async () => {
    const file = path.join(dir, 'raw.csv');
    const { svc, log } = service(dialog(file).destination);
    const { export: started } = await svc['export:start']({
      kind: 'settlements',
      filter: { contractId: 'EPL-3' },
      options: { bom: false, formulaGuard: false },
    });
    await log.final(started!.exportId);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(',=CMD,');
    const same = sink();
    await exportSettlementsCsv(
      store,
      same.stream,
      { accountId, contractId: 'EPL-3' },
      { formulaGuard: false },
    );
    expect(text).toBe(same.bytes().toString('utf8'));
  });

  it('exports nothing when the user closes the save dialog', async () => {
    const { destination, offered } = dialog(null);
    const { svc, log } = service(destination);
    const answer = await svc['export:start']({
      kind: 'orders',
      filter: {},
      options: { bom: false, formulaGuard: true },
    });
    expect(answer).toEqual({ export: null });
    expect(offered).toEqual(['betdesk-orders-2025-01-31.csv']);
    expect(log.events).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('writes the Orders scope: its status group, side, contract and dates', async () => {
    const file = path.join(dir, 'orders.csv');
    const { svc, log } = service(dialog(file).destination);
    const scope = { status: 'canceled' as const, side: 'BUY' as const, from: 1_700_000_002_000 };
    const { export: started } = await svc['export:start']({
      kind: 'orders',
      filter: scope,
      options: { bom: false, formulaGuard: true },
    });
    const filter = {
      status: ['CANCELED', 'EXPIRED'] as const,
      side: 'BUY' as const,
      from: scope.from,
    };
    const total = store.orders.list(accountId, { ...filter, limit: 1 }).total;
    expect(total).toBeGreaterThan(3);
    expect(started?.total).toBe(total);
    expect((await log.final(started!.exportId)).rows).toBe(total);
    const same = sink();
    await exportOrdersCsv(store, same.stream, { accountId, ...filter });
    expect(fs.readFileSync(file).equals(same.bytes())).toBe(true);
  });

  it('writes only the header for orders never placed (they are not exchange orders)', async () => {
    const file = path.join(dir, 'none.csv');
    const { svc, log } = service(dialog(file).destination);
    const { export: started } = await svc['export:start']({
      kind: 'orders',
      filter: { status: 'not_placed' },
      options: { bom: false, formulaGuard: true },
    });
    expect(started?.total).toBe(0);
    expect((await log.final(started!.exportId)).rows).toBe(0);
    expect(fs.readFileSync(file, 'utf8').split('\r\n')).toHaveLength(2);
  });
});

describe('export from the browser host', () => {
  it('registers a download and answers its address', async () => {
    const downloads = new ExportDownloads();
    downloads.attach('tok');
    const { svc, log } = service({ kind: 'download', downloads });
    const { export: started } = await svc['export:start']({
      kind: 'settlements',
      filter: {},
      options: { bom: false, formulaGuard: true },
    });
    expect(started).toMatchObject({
      total: 600,
      fileName: 'betdesk-settlements-2025-01-31.csv',
      file: null,
      download: `/export/${started!.exportId}.csv?token=tok`,
    });
    expect(log.events.map((p) => p.state)).toEqual(['waiting']);
    expect(await svc['export:cancel']({ exportId: started!.exportId })).toEqual({ canceled: true });
  });

  it('refuses in words when no host serves downloads, or nothing can save', async () => {
    const { svc } = service({ kind: 'download', downloads: new ExportDownloads() });
    const request: ExportRequest = {
      kind: 'settlements',
      filter: {},
      options: { bom: false, formulaGuard: true },
    };
    await expect(svc['export:start'](request)).rejects.toMatchObject({
      kind: 'not-ready',
      message: 'The browser host is not serving downloads.',
    });
    await expect(service(undefined).svc['export:start'](request)).rejects.toMatchObject({
      kind: 'not-ready',
    });
  });

  it(`keeps at most ${MAX_ACTIVE_EXPORTS} exports under way`, async () => {
    const downloads = new ExportDownloads();
    downloads.attach('tok');
    const { svc } = service({ kind: 'download', downloads });
    const request: ExportRequest = {
      kind: 'orders',
      filter: {},
      options: { bom: false, formulaGuard: true },
    };
    const started = [];
    for (let i = 0; i < MAX_ACTIVE_EXPORTS; i++)
      started.push((await svc['export:start'](request)).export);
    await expect(svc['export:start'](request)).rejects.toMatchObject({ kind: 'conflict' });
    await svc['export:cancel']({ exportId: started[0]!.exportId });
    await expect(svc['export:start'](request)).resolves.toMatchObject({ export: { total: 40 } });
    await svc.stop();
  });
});
