import { describe, expect, test } from 'vitest';
import type { StoreNotice } from '../../../src/shared/ipc/contract.js';
import { AppState } from '../../../src/renderer/src/lib/state/app.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { appInfo, appStatus } from '../rows.js';

const status = appStatus();

const notice = (at: number): StoreNotice => ({
  kind: 'recovered',
  at,
  message: `Betdesk found its local store damaged (${at}).`,
  movedTo: '/data/betdesk.sqlite.corrupt-2026-11-26T13-20-00Z',
  restoredFrom: null,
});

describe('the store notice', () => {
  test('shows what main says until acknowledged, then the next one, then none', async () => {
    const bridge = new FakeBridge();
    const queue = [notice(1), notice(2)];
    const current = () => (queue[0] ? appInfo({ storeNotice: queue[0] }) : appInfo());
    bridge.answer('app:info', current);
    bridge.answer('status:get', status);
    bridge.answer('store:acknowledge', ({ at }) => {
      if (queue[0]?.at === at) queue.shift();
      return current();
    });
    const app = new AppState(bridge);
    app.start();
    await settle();
    expect(app.storeNotice).toEqual(notice(1));

    await app.acknowledgeStoreNotice();
    expect(bridge.inputs('store:acknowledge')).toEqual([{ at: 1 }]);
    expect(app.storeNotice).toEqual(notice(2));
    await app.acknowledgeStoreNotice();
    expect(app.storeNotice).toBeNull();
    // Nothing to acknowledge: no call.
    await app.acknowledgeStoreNotice();
    expect(bridge.inputs('store:acknowledge')).toHaveLength(2);
  });

  test('stays, with the error said, when acknowledging fails', async () => {
    const bridge = new FakeBridge();
    bridge.answer('app:info', appInfo({ storeNotice: notice(1) }));
    bridge.answer('status:get', status);
    const app = new AppState(bridge);
    app.start();
    await settle();
    await app.acknowledgeStoreNotice();
    expect(app.storeNotice).toEqual(notice(1));
    expect(app.error).toMatch(/store:acknowledge/);
  });
});
