import { describe, expect, test } from 'vitest';
import type { AppStatus } from '../../../src/shared/ipc/contract.js';
import { AppState } from '../../../src/renderer/src/lib/state/app.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { appInfo, appStatus } from '../rows.js';

const status = (online: boolean): AppStatus =>
  appStatus({
    online,
    sync: { state: online ? 'idle' : 'offline', lastSyncAt: null, message: null },
  });

function setup() {
  const bridge = new FakeBridge();
  bridge.answer('app:info', appInfo());
  bridge.answer('status:get', status(true));
  return { bridge, app: new AppState(bridge) };
}

describe('the app state', () => {
  test('cannot trade before it knows the account, and can once main says so', async () => {
    const { app } = setup();
    expect(app.canTrade).toBe(false);
    app.start();
    await settle();
    expect(app.canTrade).toBe(true);
    expect(app.paper).toBe(true);
  });

  test('is offline when the exchange does not answer, or Betdesk’s own service drops', async () => {
    const { bridge, app } = setup();
    app.start();
    await settle();
    expect(app.online).toBe(true);
    bridge.emit('sync:status', status(false));
    expect(app.online).toBe(false);
    bridge.emit('sync:status', status(true));
    bridge.setConnected(false);
    expect(app.online).toBe(false);
  });

  test('says why synced prices may be out of date: offline, a failed sync, or sync paused', async () => {
    const { bridge, app } = setup();
    app.start();
    await settle();
    expect(app.syncBehind).toBeNull();
    // An address that answers but is not an exchange: online, and every sync fails.
    const failing: AppStatus = {
      ...status(true),
      mode: 'live',
      sync: {
        state: 'error',
        lastSyncAt: null,
        message: 'The server at this address is not an exchange.',
      },
    };
    bridge.emit('sync:status', failing);
    expect(app.online).toBe(true);
    expect(app.syncBehind).toBe('failed');
    bridge.emit('sync:status', { ...failing, sync: { ...failing.sync, state: 'paused' } });
    expect(app.syncBehind).toBe('paused');
    bridge.emit('sync:status', status(false));
    expect(app.syncBehind).toBe('offline');
    bridge.emit('sync:status', status(true));
    expect(app.syncBehind).toBeNull();
  });

  test('reads once at start, and everything again only when its service comes back', async () => {
    const { bridge, app } = setup();
    let reconnects = 0;
    app.onReconnect(() => reconnects++);
    app.start();
    // The socket's first connection: the first reads were waiting for it, so nothing more.
    bridge.setConnected(true);
    await settle();
    expect(bridge.inputs('app:info')).toHaveLength(1);
    expect(reconnects).toBe(0);

    bridge.setConnected(false);
    expect(app.connected).toBe(false);
    bridge.setConnected(true);
    await settle();
    expect(app.connected).toBe(true);
    expect(bridge.inputs('app:info')).toHaveLength(2);
    expect(bridge.inputs('status:get')).toHaveLength(2);
    expect(reconnects).toBe(1);
  });

  test('tells its listeners when the active account changes, not on every info', async () => {
    const { bridge, app } = setup();
    let changes = 0;
    app.onModeChange(() => changes++);
    app.start();
    await settle();
    bridge.emit('app:changed', appInfo());
    expect(changes).toBe(0);
    bridge.emit('app:changed', appInfo({ mode: 'live', activeAccountId: 'a1', canTrade: false }));
    expect(changes).toBe(1);
    expect(app.canTrade).toBe(false);
  });
});
