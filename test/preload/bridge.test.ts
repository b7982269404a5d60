import { describe, expect, it } from 'vitest';
import { createBridge, type IpcRendererLike } from '../../src/preload/bridge.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

function fakeIpcRenderer() {
  const invoked: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<string, Set<Listener>>();
  const ipc: IpcRendererLike = {
    invoke(channel, ...args) {
      invoked.push({ channel, args });
      return Promise.resolve({ ok: true, value: channel });
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  const emit = (channel: string, payload: unknown) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: 'ipc' }, payload);
  };
  return { ipc, invoked, listeners, emit };
}

describe('the preload bridge', () => {
  it('exposes invoke and on, frozen, and nothing of ipcRenderer', () => {
    const bridge = createBridge(fakeIpcRenderer().ipc);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('passes a contract channel’s call through', async () => {
    const { ipc, invoked } = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    await expect(bridge.invoke('status:get', {})).resolves.toEqual({
      ok: true,
      value: 'status:get',
    });
    expect(invoked).toEqual([{ channel: 'status:get', args: [{}] }]);
  });

  it('refuses any channel the contract does not have, without touching ipcRenderer', async () => {
    const { ipc, invoked } = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    const forged = bridge as unknown as { invoke(c: string, input: unknown): Promise<unknown> };
    await expect(forged.invoke('shell:openExternal', 'file:///etc/passwd')).rejects.toThrow(
      'Betdesk has no bridge channel named shell:openExternal.',
    );
    await expect(forged.invoke('ELECTRON_BROWSER_REQUIRE', {})).rejects.toThrow();
    expect(invoked).toEqual([]);
  });

  it('delivers an event’s payload without Electron’s event object, until unsubscribed', () => {
    const { ipc, emit, listeners } = fakeIpcRenderer();
    const bridge = createBridge(ipc);
    const seen: unknown[] = [];
    const stop = bridge.on('positions:changed', (p) => seen.push(p));
    emit('positions:changed', { accountId: null, at: 1 });
    stop();
    emit('positions:changed', { accountId: null, at: 2 });
    expect(seen).toEqual([{ accountId: null, at: 1 }]);
    expect(listeners.get('positions:changed')?.size).toBe(0);
  });

  it('refuses to listen on anything but the contract’s events', () => {
    const bridge = createBridge(fakeIpcRenderer().ipc);
    const forged = bridge as unknown as { on(e: string, cb: (p: unknown) => void): () => void };
    expect(() => forged.on('app:info', () => {})).toThrow(
      'Betdesk has no bridge event named app:info.',
    );
  });
});
