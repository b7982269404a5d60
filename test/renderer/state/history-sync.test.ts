import { describe, expect, test } from 'vitest';
import type { HistorySyncProgress } from '../../../src/shared/ipc/contract.js';
import { HistorySyncState } from '../../../src/renderer/src/lib/state/history-sync.svelte.js';
import { FakeBridge, settle } from '../fake-bridge.js';
import { NOW } from '../rows.js';

function sweep(over: Partial<HistorySyncProgress> = {}): HistorySyncProgress {
  return {
    accountId: 'acc-1',
    reason: 'resync',
    state: 'running',
    pages: 0,
    estimatedPages: 0,
    added: 0,
    startedAt: NOW,
    message: null,
    ...over,
  };
}

function setup() {
  const bridge = new FakeBridge();
  bridge.answer('history:status', { progress: null });
  bridge.answer('history:resync', { progress: sweep() });
  const sync = new HistorySyncState(bridge);
  sync.start();
  return { bridge, sync };
}

describe('keeping the history whole', () => {
  test('Resync asks first, then starts the sweep; nothing is sent before the confirm', async () => {
    const { bridge, sync } = setup();
    sync.askResync();
    expect(sync.confirming).toBe(true);
    sync.cancelResync();
    expect(bridge.inputs('history:resync')).toHaveLength(0);
    sync.askResync();
    await sync.resync();
    expect(sync.confirming).toBe(false);
    expect(bridge.inputs('history:resync')).toHaveLength(1);
    expect(sync.running).toBe(true);
  });

  test('progress: pages fetched of estimated, in words, until it ends', async () => {
    const { bridge, sync } = setup();
    const ended: number[] = [];
    sync.onEnd(() => ended.push(1));
    await sync.resync();
    expect(sync.fraction).toBeNull(); // no estimate before the first settlements page
    bridge.emit('history:progress', sweep({ pages: 3, estimatedPages: 12, added: 240 }));
    expect(sync.fraction).toBe(0.25);
    expect(sync.words).toBe('Resync: page 3 of about 12 fetched, 240 new records so far.');
    bridge.emit('history:progress', sweep({ state: 'done', pages: 12, estimatedPages: 12 }));
    expect(sync.running).toBe(false);
    expect(sync.words).toBe('Resync finished: 12 pages fetched, 0 new records.');
    expect(ended).toHaveLength(1);
  });

  test('an interrupted sweep says what is kept', () => {
    const { bridge, sync } = setup();
    bridge.emit('history:progress', sweep({ pages: 2, estimatedPages: 5 }));
    bridge.emit(
      'history:progress',
      sweep({ state: 'interrupted', pages: 2, message: 'The exchange stopped answering.' }),
    );
    expect(sync.words).toBe(
      'Resync was interrupted: The exchange stopped answering. What was fetched is kept; it carries on where it stopped when this account syncs again.',
    );
  });

  test('a screen opened mid-sweep shows the account’s first sync where it stands', async () => {
    const bridge = new FakeBridge();
    bridge.answer('history:status', {
      progress: sweep({ reason: 'first-sync', pages: 40, estimatedPages: 101, added: 3900 }),
    });
    const sync = new HistorySyncState(bridge);
    sync.start();
    await settle();
    expect(sync.running).toBe(true);
    expect(sync.words).toBe(
      'First sync of this account’s history: page 40 of about 101 fetched, 3,900 new records so far.',
    );
  });

  test('a resync refused while one runs says so', async () => {
    const { bridge, sync } = setup();
    bridge.fail('history:resync', { kind: 'conflict', message: 'A history sweep is running.' });
    await sync.resync();
    expect(sync.error).toBe('A history sweep is running.');
    expect(sync.asking).toBe(false);
  });
});
