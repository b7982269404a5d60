/**
 * The browser host served through the start gate (as serve.ts wires it): the page's socket is
 * let in before the services are up; `app:start` answers where the start is, each step is
 * pushed as `app:starting`, and a call of the services waits for them, then is answered.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startHost, type RunningHost } from '../../../src/main/host/server.js';
import type { Bridged } from '../../../src/main/ipc/handlers.js';
import { startGate } from '../../../src/main/ipc/start-gate.js';
import { StartTracker } from '../../../src/main/start/index.js';
import type { WsServerMessage } from '../../../src/shared/ipc/ws-protocol.js';
import { memoryServices } from '../ipc/memory-services.js';

let dir: string;
let host: RunningHost;
let tracker: StartTracker;
let servicesUp: (services: Bridged) => void;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'betdesk-host-gate-'));
  mkdirSync(join(dir, 'renderer'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Betdesk</title>');
  tracker = new StartTracker();
  const services = new Promise<Bridged>((resolve) => (servicesUp = resolve));
  host = await startHost({
    services: startGate({ tracker, services }),
    rendererDir: join(dir, 'renderer'),
    log: () => {},
  });
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await host.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An open socket and every message it has received so far. */
async function connect(): Promise<{ ws: WebSocket; got: WsServerMessage[] }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, {
    origin: host.origin,
  });
  sockets.push(ws);
  const got: WsServerMessage[] = [];
  ws.on('message', (data: Buffer) =>
    got.push(JSON.parse(data.toString('utf8')) as WsServerMessage),
  );
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  return { ws, got };
}

async function until<T>(find: () => T | undefined): Promise<T> {
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const resultOf = (got: WsServerMessage[], id: number) =>
  got.find((m) => m.type === 'result' && m.id === id);

describe('the browser host before its services are up', () => {
  it('lets the socket in at once and answers app:start from the tracker', async () => {
    tracker.report({
      phase: 'upgrading',
      message: 'Upgrading your store: step 1 of 2 (realized P&L)',
      done: 0,
      total: 2,
      unit: 'steps',
    });
    const { ws, got } = await connect();
    ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:start', input: {} }));
    const answer = await until(() => resultOf(got, 1));
    expect(answer).toMatchObject({
      result: {
        ok: true,
        value: { phase: 'upgrading', message: 'Upgrading your store: step 1 of 2 (realized P&L)' },
      },
    });
  });

  it('pushes each step as app:starting, and answers a waiting call once the services are up', async () => {
    const { ws, got } = await connect();
    ws.send(JSON.stringify({ type: 'invoke', id: 2, channel: 'app:info', input: {} }));
    tracker.report({
      phase: 'backing-up',
      message: 'Backing up your store before upgrading it…',
      done: 10,
      total: 100,
      unit: 'pages',
    });
    const pushed = await until(() =>
      got.find((m) => m.type === 'event' && m.event === 'app:starting'),
    );
    expect(pushed).toMatchObject({ payload: { phase: 'backing-up', done: 10, total: 100 } });
    expect(resultOf(got, 2)).toBeUndefined();

    servicesUp(memoryServices());
    tracker.report({ phase: 'ready', message: 'Ready.' });
    const info = await until(() => resultOf(got, 2));
    expect(info).toMatchObject({ result: { ok: true } });
    await until(() =>
      got.find(
        (m) =>
          m.type === 'event' &&
          m.event === 'app:starting' &&
          (m.payload as { phase: string }).phase === 'ready',
      ),
    );
  });
});
