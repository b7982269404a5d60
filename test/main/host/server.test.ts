import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { WsServerMessage } from '../../../src/shared/ipc/ws-protocol.js';
import { startHost, type RunningHost } from '../../../src/main/host/server.js';
import { EMPTY_POSITIONS, memoryServices, type MemoryServices } from '../ipc/memory-services.js';

let dir: string;
let host: RunningHost;
let services: MemoryServices;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-host-'));
  mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Betdesk</title>');
  writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'outside.txt'), 'not for the page');
  services = memoryServices();
  host = await startHost({ services, rendererDir: join(dir, 'renderer'), log: () => {} });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw GET, so the path and headers go out exactly as written. */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path,
          headers: { host: `127.0.0.1:${host.port}`, ...headers },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

function connect(opts: { token?: string; origin?: string; path?: string } = {}) {
  const token = opts.token ?? host.token;
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${opts.path ?? '/ipc'}?token=${token}`, {
    origin: opts.origin ?? host.origin,
  });
  sockets.push(ws);
  return ws;
}

function refusal(ws: WebSocket): Promise<number> {
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => reject(new Error('the socket was accepted')));
    ws.on('error', () => {});
  });
}

function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
}

/** Sends frames and collects what comes back until `count` messages arrived. */
function exchange(ws: WebSocket, frames: unknown[], count: number): Promise<WsServerMessage[]> {
  return new Promise((resolve) => {
    const got: WsServerMessage[] = [];
    ws.on('message', (data: Buffer) => {
      got.push(JSON.parse(data.toString('utf8')) as WsServerMessage);
      if (got.length === count) resolve(got);
    });
    for (const f of frames) ws.send(typeof f === 'string' ? f : JSON.stringify(f));
  });
}

describe('the browser host over HTTP', () => {
  it('listens on 127.0.0.1 only, and prints a URL that carries the token', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/?token=${encodeURIComponent(host.token)}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the page only with the token', async () => {
    expect((await get('/')).status).toBe(403);
    expect((await get('/?token=wrong')).status).toBe(403);
    expect((await get(`/index.html?token=${host.token}x`)).status).toBe(403);
    const page = await get(`/?token=${encodeURIComponent(host.token)}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Betdesk</title>');
  });

  it('sends the strict CSP and keeps the token out of referrers', async () => {
    const page = await get(`/?token=${encodeURIComponent(host.token)}`);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const asset = await get('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-security-policy']).toBe(csp);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('answers nobody who calls it by another host name (DNS rebinding)', async () => {
    const page = await get(`/?token=${encodeURIComponent(host.token)}`, { host: 'evil.example' });
    expect(page.status).toBe(403);
    expect((await get('/assets/app.js', { host: `evil.example:${host.port}` })).status).toBe(403);
  });

  it('serves nothing outside the renderer directory', async () => {
    for (const path of [
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/..%2f..%2foutside.txt',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('not for the page');
    }
  });

  it('serves pages with GET only', async () => {
    const status = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: host.port,
          path: '/',
          method: 'POST',
          headers: { host: `127.0.0.1:${host.port}` },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.end();
    });
    expect(status).toBe(405);
  });
});

describe('the browser host’s WebSocket bridge', () => {
  it('refuses a socket without the token, from another origin, or on another path', async () => {
    expect(await refusal(connect({ token: '' }))).toBe(403);
    expect(await refusal(connect({ token: 'wrong' }))).toBe(403);
    expect(await refusal(connect({ origin: 'https://evil.example' }))).toBe(403);
    expect(await refusal(connect({ origin: 'null' }))).toBe(403);
    expect(await refusal(connect({ path: '/other' }))).toBe(403);
    expect(services.calls).toEqual([]);
  });

  it('carries a call of the contract and answers with the same envelope as Electron', async () => {
    const ws = connect();
    await opened(ws);
    const [answer] = await exchange(
      ws,
      [{ type: 'invoke', id: 7, channel: 'app:info', input: {} }],
      1,
    );
    expect(answer).toEqual({
      type: 'result',
      id: 7,
      result: { ok: true, value: expect.objectContaining({ mode: 'paper' }) as unknown },
    });
  });

  it('validates input as the Electron bridge does, and refuses unknown channels', async () => {
    const ws = connect();
    await opened(ws);
    const answers = await exchange(
      ws,
      [
        { type: 'invoke', id: 1, channel: 'accounts:remove', input: { accountId: 42 } },
        { type: 'invoke', id: 2, channel: 'shell:exec', input: {} },
      ],
      2,
    );
    const byId = new Map(answers.map((a) => [a.type === 'result' ? a.id : -1, a]));
    expect(byId.get(1)).toMatchObject({ result: { ok: false, error: { kind: 'invalid-input' } } });
    expect(byId.get(2)).toMatchObject({
      result: {
        ok: false,
        error: {
          kind: 'invalid-input',
          message: 'Betdesk has no bridge channel named shell:exec.',
        },
      },
    });
    expect(services.calls).toEqual([]);
  });

  it('pushes the services’ events to every open page', async () => {
    const a = connect();
    const b = connect();
    await Promise.all([opened(a), opened(b)]);
    const got = Promise.all([exchange(a, [], 1), exchange(b, [], 1)]);
    services.events.emit('positions:changed', { accountId: null, at: 5, view: EMPTY_POSITIONS });
    expect(await got).toEqual([
      [
        {
          type: 'event',
          event: 'positions:changed',
          payload: { accountId: null, at: 5, view: EMPTY_POSITIONS },
        },
      ],
      [
        {
          type: 'event',
          event: 'positions:changed',
          payload: { accountId: null, at: 5, view: EMPTY_POSITIONS },
        },
      ],
    ]);
  });

  it('closes a socket that sends something other than an invoke frame', async () => {
    const ws = connect();
    await opened(ws);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send('{"type":"eval","code":"1"}');
    expect(await closed).toBe(1008);
  });
});

describe('a host whose services are still starting', () => {
  let early: RunningHost | undefined;

  afterEach(async () => {
    await early?.close();
    early = undefined;
  });

  it('serves the page at once and answers a socket’s first call once they are ready', async () => {
    let ready: (s: MemoryServices) => void = () => {};
    const starting = new Promise<MemoryServices>((resolve) => (ready = resolve));
    early = await startHost({
      services: starting,
      rendererDir: join(dir, 'renderer'),
      log: () => {},
    });
    const page = await fetch(early.url);
    expect(page.status).toBe(200);

    const ws = new WebSocket(`ws://127.0.0.1:${early.port}/ipc?token=${early.token}`, {
      origin: early.origin,
    });
    sockets.push(ws);
    // The call goes out the moment the socket opens: it must find the bridge ready.
    const answer = opened(ws).then(() =>
      exchange(ws, [{ type: 'invoke', id: 1, channel: 'app:info', input: {} }], 1),
    );
    setTimeout(() => ready(services), 50);
    expect(await answer).toEqual([
      {
        type: 'result',
        id: 1,
        result: { ok: true, value: expect.objectContaining({ mode: 'paper' }) as unknown },
      },
    ]);
    expect(services.calls.map((c) => c.method)).toEqual(['app.info']);
  });

  it('refuses every socket when they fail to start', async () => {
    early = await startHost({
      services: Promise.reject(new Error('The database is from a newer Betdesk.')),
      rendererDir: join(dir, 'renderer'),
      log: () => {},
    });
    const ws = new WebSocket(`ws://127.0.0.1:${early.port}/ipc?token=${early.token}`, {
      origin: early.origin,
    });
    sockets.push(ws);
    const outcome = await new Promise<string>((resolve) => {
      ws.on('open', () => resolve('open'));
      ws.on('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
  });
});
