import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { BetdeskBridge } from '../../../src/shared/ipc/bridge.js';
import { connectBridge } from '../../../src/renderer/src/lib/connect.js';
import { FakeSocket } from './fake-socket.js';

beforeEach(() => {
  FakeSocket.made = [];
  vi.stubGlobal('WebSocket', FakeSocket);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('connecting the app’s bridge', () => {
  test('in Electron, goes through the preload’s window.betdesk and opens no socket', async () => {
    const betdesk: BetdeskBridge = {
      invoke: () => Promise.resolve({ ok: true, value: { oneClickBetting: false } } as never),
      on: () => () => {},
    };
    vi.stubGlobal('window', { betdesk });
    vi.stubGlobal('location', { host: 'unused', search: '' });
    const bridge = connectBridge();
    expect(await bridge.invoke('settings:get', {})).toEqual({ oneClickBetting: false });
    expect(FakeSocket.made).toHaveLength(0);
  });

  test('in a browser, opens the host’s socket with the page’s token, on first use', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('location', { host: '127.0.0.1:4321', search: '?token=a%2Bb c' });
    const bridge = connectBridge();
    expect(FakeSocket.made).toHaveLength(0);
    const changes: boolean[] = [];
    bridge.onConnection((up) => changes.push(up));
    void bridge.invoke('settings:get', {});
    expect(FakeSocket.last.url).toBe('ws://127.0.0.1:4321/ipc?token=a%2Bb%20c');
    FakeSocket.last.open();
    expect(changes).toEqual([true]);
  });
});
