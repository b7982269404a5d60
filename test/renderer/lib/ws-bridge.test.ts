import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { WebSocketBridge } from '../../../src/renderer/src/lib/ws-bridge.js';
import { settle } from '../fake-bridge.js';
import { FakeSocket } from './fake-socket.js';

const URL = 'ws://127.0.0.1:5173/ipc?token=t0k';

beforeEach(() => {
  FakeSocket.made = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the browser host’s WebSocket bridge', () => {
  test('opens nothing until it is first used', () => {
    const bridge = new WebSocketBridge(URL);
    expect(FakeSocket.made).toHaveLength(0);
    void bridge.invoke('settings:get', {});
    expect(FakeSocket.made.map((s) => s.url)).toEqual([URL]);
  });

  test('a call made before the first connection waits for it, then gets its own answer', async () => {
    const bridge = new WebSocketBridge(URL);
    const first = bridge.invoke('settings:get', {});
    const second = bridge.invoke('accounts:list', {});
    const socket = FakeSocket.last;
    expect(socket.sent).toEqual([]);
    socket.open();
    expect(socket.sent).toEqual([
      { type: 'invoke', id: 1, channel: 'settings:get', input: {} },
      { type: 'invoke', id: 2, channel: 'accounts:list', input: {} },
    ]);
    socket.receive({ type: 'result', id: 2, result: { ok: true, value: { accounts: [] } } });
    socket.receive({
      type: 'result',
      id: 1,
      result: { ok: true, value: { oneClickBetting: true } },
    });
    expect(await first).toEqual({ ok: true, value: { oneClickBetting: true } });
    expect(await second).toEqual({ ok: true, value: { accounts: [] } });
  });

  test('pushes reach the listeners of their event until they stop; binary frames are ignored', () => {
    const bridge = new WebSocketBridge(URL);
    const seen: unknown[] = [];
    const stop = bridge.on('fixtures:changed', (p) => seen.push(p));
    const socket = FakeSocket.last;
    socket.open();
    socket.receive({ type: 'event', event: 'fixtures:changed', payload: { at: 1 } });
    socket.receive({ type: 'event', event: 'positions:changed', payload: { at: 2 } });
    socket.receive(new ArrayBuffer(4));
    stop();
    socket.receive({ type: 'event', event: 'fixtures:changed', payload: { at: 3 } });
    expect(seen).toEqual([{ at: 1 }]);
  });

  test('a dropped connection fails the calls on their way, as lost answers', async () => {
    const bridge = new WebSocketBridge(URL);
    const pending = bridge.invoke('settings:get', {});
    FakeSocket.last.open();
    FakeSocket.last.drop();
    const result = await pending;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.kind).toBe('internal');
  });

  test('while down, a call fails at once as offline and nothing is queued for later', async () => {
    const bridge = new WebSocketBridge(URL);
    void bridge.invoke('settings:get', {});
    const socket = FakeSocket.last;
    socket.open();
    socket.drop();
    const result = await bridge.invoke('order:place', {
      clientOrderId: 'bd-1',
      type: 'FOK',
      rfqId: 'rfq-1',
    });
    expect(!result.ok && result.error.kind).toBe('offline');
    vi.advanceTimersByTime(250);
    FakeSocket.last.open();
    await settle();
    expect(FakeSocket.made.flatMap((s) => s.sent).map((f) => f.channel)).toEqual(['settings:get']);
  });

  test('reconnects with a doubling delay, at most 5 s, and says when it is up or down', () => {
    const bridge = new WebSocketBridge(URL);
    const changes: boolean[] = [];
    bridge.onConnection((up) => changes.push(up));
    bridge.on('fixtures:changed', () => {});
    FakeSocket.last.open();
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      const count = FakeSocket.made.length;
      FakeSocket.last.drop();
      let waited = 0;
      while (FakeSocket.made.length === count) {
        vi.advanceTimersByTime(50);
        waited += 50;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    FakeSocket.last.open();
    expect(changes).toEqual([true, false, true]);
    // Once connected again the delay starts over.
    const count = FakeSocket.made.length;
    FakeSocket.last.drop();
    vi.advanceTimersByTime(250);
    expect(FakeSocket.made).toHaveLength(count + 1);
  });
});
