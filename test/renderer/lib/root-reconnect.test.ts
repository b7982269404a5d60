/**
 * The desk in the browser host, over its WebSocket: pushes sent while Betdesk's own service was
 * away are lost, so when the socket is back every screen reads its data again; the first
 * connection reads nothing twice.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { IpcChannel } from '../../../src/shared/ipc/contract.js';
import type { WsInvoke } from '../../../src/shared/ipc/ws-protocol.js';
import { BridgeFailure } from '../../../src/renderer/src/lib/bridge.js';
import { connectBridge } from '../../../src/renderer/src/lib/connect.js';
import { createRoot } from '../../../src/renderer/src/lib/root.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { appInfo, appStatus, positionsView } from '../rows.js';
import { FakeSocket } from './fake-socket.js';

/** The host's end of the socket: each invoke frame is answered by `main`. */
class HostSocket extends FakeSocket {
  static main = new FakeBridge();

  override send(data: string): void {
    super.send(data);
    const { id, channel, input } = JSON.parse(data) as WsInvoke;
    void HostSocket.main.invoke(channel as IpcChannel, input as never).then(
      (value) => this.receive({ type: 'result', id, result: { ok: true, value } }),
      (err: unknown) => {
        if (!(err instanceof BridgeFailure)) throw err;
        this.receive({
          type: 'result',
          id,
          result: { ok: false, error: { kind: err.kind, message: err.message } },
        });
      },
    );
  }
}

const REREAD: IpcChannel[] = [
  'fixtures:list',
  'positions:list',
  'orders:list',
  'orders:totals',
  'alerts:list',
  'app:info',
  'status:get',
];

let stop = (): void => {};

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.made = [];
  const main = (HostSocket.main = new FakeBridge());
  main.answer('app:info', appInfo());
  main.answer('status:get', appStatus());
  main.answer('positions:list', positionsView([]));
  vi.stubGlobal('WebSocket', HostSocket);
  vi.stubGlobal('window', {});
  vi.stubGlobal('location', { host: '127.0.0.1:4321', search: '?token=t0k' });
});

afterEach(() => {
  stop();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

test('a dropped socket, once back, has every screen read its data again', async () => {
  const desk = createRoot(connectBridge());
  const main = HostSocket.main;
  stop = desk.start();
  FakeSocket.last.open();
  await settle();
  const count = (channel: IpcChannel) => main.inputs(channel).length;
  const before = new Map(REREAD.map((c) => [c, count(c)]));
  expect(before.get('app:info')).toBe(1);

  FakeSocket.last.drop();
  expect(desk.app.connected).toBe(false);
  vi.advanceTimersByTime(250);
  FakeSocket.last.open();
  await settle();

  expect(desk.app.connected).toBe(true);
  for (const channel of REREAD) {
    expect({ channel, reads: count(channel) }).toEqual({
      channel,
      reads: (before.get(channel) ?? 0) + 1,
    });
  }
});
