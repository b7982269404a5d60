/**
 * Export downloads through the browser host over real HTTP: the app's export service over a real
 * store registers them (export:start over the WebSocket bridge, as the page does), the host
 * streams them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { exportFeature, type ExportFeature } from '../../../src/main/export/feature.js';
import { ExportDownloads, exportSettlementsCsv } from '../../../src/main/export/index.js';
import { startHost, type RunningHost } from '../../../src/main/host/server.js';
import type { Store } from '../../../src/main/store/index.js';
import type {
  ExportProgress,
  ExportRequest,
  ExportStarted,
} from '../../../src/shared/ipc/contract.js';
import type { WsServerMessage } from '../../../src/shared/ipc/ws-protocol.js';
import { memoryServices } from '../ipc/memory-services.js';
import { tempStore } from '../store/support.js';
import { fill, ProgressLog, sessionOf, sink } from '../export/support.js';

let dir: string;
let store: Store;
let accountId: number;
let host: RunningHost;
let downloads: ExportDownloads;
let exports: ExportFeature;
let log: ProgressLog;
let closeStore = () => {};
let clock = Date.UTC(2025, 0, 31, 12);
const sockets: WebSocket[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-host-dl-'));
  mkdirSync(join(dir, 'renderer'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Betdesk</title>');
  const t = tempStore();
  ({ store, accountId } = t);
  closeStore = t.done;
  fill(store, accountId, 6000);
  downloads = new ExportDownloads();
  log = new ProgressLog();
  const services = memoryServices();
  exports = exportFeature({
    store,
    started: sessionOf(accountId),
    emit: (event, payload) => {
      log.emit(payload as ExportProgress);
      services.events.emit(event, payload);
    },
    destination: { kind: 'download', downloads },
    // A clock that moves a second per look: every batch is reported, so a test can act on
    // the first one.
    now: () => (clock += 1000),
  });
  services.handlers['export:start'] = exports['export:start'];
  services.handlers['export:cancel'] = exports['export:cancel'];
  host = await startHost({
    services,
    rendererDir: join(dir, 'renderer'),
    downloads,
    log: () => {},
  });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await exports.stop();
  await host.close();
  closeStore();
  rmSync(dir, { recursive: true, force: true });
});

interface Got {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Whether the body arrived whole (the chunked stream ended properly). */
  complete: boolean;
}

/** A raw request; `onResponse` may act once the headers are in (e.g. cut the download). */
function get(
  path: string,
  opts: { method?: string; host?: string; onData?: (req: ReturnType<typeof request>) => void } = {},
): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        path,
        method: opts.method ?? 'GET',
        headers: { host: opts.host ?? `127.0.0.1:${host.port}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        const finish = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            complete: res.complete,
          });
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          opts.onData?.(req);
        });
        res.on('error', () => {}); // a cut stream: `complete` says so
        res.on('close', finish);
      },
    );
    req.on('error', (err) => (opts.onData ? undefined : reject(err)));
    req.end();
  });
}

const REQUEST: ExportRequest = {
  kind: 'settlements',
  filter: { type: 'CLOSED', league: 'Premier League', from: Date.UTC(2024, 2, 2) },
  options: { bom: true, formulaGuard: true },
};

async function started(request: ExportRequest = REQUEST) {
  const { export: s } = await exports['export:start'](request);
  if (!s?.download) throw new Error('no download');
  return { exportId: s.exportId, download: s.download, total: s.total, fileName: s.fileName };
}

describe('export downloads from the browser host', () => {
  it('streams the same bytes as the export module writes for the same filter', async () => {
    const s = await started();
    const got = await get(s.download);
    expect(got.status).toBe(200);
    expect(got.complete).toBe(true);
    expect(got.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="${s.fileName}"; filename*=UTF-8''${s.fileName}`,
    );
    expect(s.fileName).toMatch(/^betdesk-settlements-\d{4}-\d{2}-\d{2}\.csv$/);
    // No length: a stream cut short is a failed download, not a short file.
    expect(got.headers['content-length']).toBeUndefined();
    expect(got.headers['transfer-encoding']).toBe('chunked');
    expect(got.headers['cache-control']).toBe('no-store');

    const same = sink();
    const { rows } = await exportSettlementsCsv(
      store,
      same.stream,
      { accountId, type: 'CLOSED', league: 'Premier League', from: Date.UTC(2024, 2, 2) },
      { bom: true, formulaGuard: true },
    );
    expect(rows).toBe(s.total);
    expect(rows).toBeGreaterThan(500);
    expect(got.body.equals(same.bytes())).toBe(true);
    expect(await log.final(s.exportId)).toMatchObject({ state: 'done', rows, total: rows });
  });

  it('answers only with the token and its own Host, and then only once', async () => {
    const s = await started();
    const [path, query] = s.download.split('?');
    expect(query).toBe(`token=${encodeURIComponent(host.token)}`);
    expect((await get(path!)).status).toBe(403);
    expect((await get(`${path}?token=wrong`)).status).toBe(403);
    expect((await get(s.download, { host: 'evil.example' })).status).toBe(403);
    expect((await get(s.download, { method: 'HEAD' })).status).toBe(405);
    // None of those used it up.
    const got = await get(s.download);
    expect(got.status).toBe(200);
    expect(got.complete).toBe(true);
    const again = await get(s.download);
    expect(again.status).toBe(404);
    expect(again.body.toString()).toBe(
      'There is no such export, or it was downloaded already. Export again.',
    );
    expect((await get(`/export/AAAAAAAAAAAAAAAA.csv?token=${host.token}`)).status).toBe(404);
  });

  it('answers 404 for a download canceled before it was fetched', async () => {
    const s = await started();
    expect(await exports['export:cancel']({ exportId: s.exportId })).toEqual({ canceled: true });
    expect((await get(s.download)).status).toBe(404);
  });

  it('cuts the stream when the export is canceled mid-way, so the browser fails it', async () => {
    const s = await started({ ...REQUEST, filter: {} });
    log.onEvent = (p) => {
      if (p.exportId === s.exportId && p.state === 'running' && p.rows > 0) {
        void exports['export:cancel']({ exportId: s.exportId });
      }
    };
    const got = await get(s.download);
    expect(got.status).toBe(200);
    expect(got.complete).toBe(false);
    expect(got.body.length).toBeGreaterThan(0);
    const last = await log.final(s.exportId);
    expect(last.state).toBe('canceled');
    expect(last.rows).toBeLessThan(6000);
  });

  it('fails the export in words when the page goes away mid-download', async () => {
    const s = await started({ ...REQUEST, filter: {} });
    const got = await get(s.download, { onData: (req) => req.destroy() });
    expect(got.complete).toBe(false);
    const last = await log.final(s.exportId);
    expect(last).toMatchObject({
      state: 'failed',
      message: 'The download was interrupted before it finished; nothing was saved.',
    });
  });

  it('answers a failure before the first byte in words, not as a file', async () => {
    downloads.offer('broken-export-1', {
      fileName: 'x.csv',
      send: () => Promise.reject(new Error('The local store could not be read.')),
    });
    const got = await get(`/export/broken-export-1.csv?token=${host.token}`);
    expect(got.status).toBe(500);
    expect(got.headers['content-disposition']).toBeUndefined();
    expect(got.body.toString()).toBe('The local store could not be read.');
  });
});

describe('export over the WebSocket bridge', () => {
  it('starts a download with export:start and reports export:progress to the page', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, {
      origin: host.origin,
    });
    sockets.push(ws);
    const messages: WsServerMessage[] = [];
    const ended = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as WsServerMessage;
        messages.push(m);
        if (m.type === 'event' && (m.payload as ExportProgress).state === 'done') resolve();
      });
    });
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject));
    ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'export:start', input: REQUEST }));
    await expect.poll(() => messages.some((m) => m.type === 'result')).toBe(true);
    const result = messages.find((m) => m.type === 'result');
    expect(result).toMatchObject({ result: { ok: true } });
    const value = (result as { result: { value: ExportStarted } }).result.value;
    const got = await get(value.export!.download!);
    expect(got.complete).toBe(true);
    await ended;
    const progress = messages
      .filter((m) => m.type === 'event' && m.event === 'export:progress')
      .map((m) => (m as { payload: ExportProgress }).payload);
    expect(progress[0]).toMatchObject({ state: 'waiting', rows: 0 });
    expect(progress.at(-1)).toMatchObject({
      state: 'done',
      rows: value.export!.total,
      total: value.export!.total,
      message: null,
    });
  });
});
