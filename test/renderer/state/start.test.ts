/**
 * The start's state in the renderer: where main is, from `app:start` and each `app:starting`
 * (a push heard before the answer is newer than it), and when the start screen covers the desk.
 */
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../../src/renderer/src/lib/state/clock.svelte.js';
import { StartState } from '../../../src/renderer/src/lib/state/start.svelte.js';
import type { StartProgress } from '../../../src/shared/ipc/contract.js';
import { FakeBridge, settle } from '../fake-bridge.js';

const T0 = 1_700_000_000_000;

function progress(over: Partial<StartProgress> = {}): StartProgress {
  return {
    phase: 'checking',
    message: 'Checking your store…',
    done: null,
    total: null,
    unit: '',
    startedAt: T0,
    phaseStartedAt: T0,
    ...over,
  };
}

function setup() {
  const bridge = new FakeBridge();
  const clock = new ManualClock(T0 + 200);
  const desk = { shown: false };
  const start = new StartState(bridge, clock, desk);
  return { bridge, clock, desk, start };
}

describe('the start in the renderer', () => {
  test('reads where the start is, and follows each push', async () => {
    const { bridge, start } = setup();
    bridge.answer('app:start', progress());
    start.start();
    await settle();
    expect(start.progress?.phase).toBe('checking');
    expect(start.covering).toBe(false);

    bridge.emit('app:starting', progress({ phase: 'upgrading', message: 'Upgrading…' }));
    expect(start.progress?.phase).toBe('upgrading');
    expect(start.covering).toBe(true);

    bridge.emit('app:starting', progress({ phase: 'ready', message: 'Ready.' }));
    expect(start.covering).toBe(false);
  });

  test('keeps a push heard before the answer, unless the answer says the start is over', async () => {
    const { bridge, start } = setup();
    const held = bridge.hold('app:start');
    start.start();
    await settle();
    bridge.emit('app:starting', progress({ phase: 'backing-up' }));
    held[0]!.resolve(progress({ phase: 'checking' }));
    await settle();
    expect(start.progress?.phase).toBe('backing-up');

    const again = setup();
    const held2 = again.bridge.hold('app:start');
    again.start.start();
    await settle();
    again.bridge.emit('app:starting', progress({ phase: 'starting' }));
    held2[0]!.resolve(progress({ phase: 'ready' }));
    await settle();
    expect(again.start.progress?.phase).toBe('ready');
  });

  test('covers a plain start once it has taken a second with no desk to show', async () => {
    const { bridge, clock, desk, start } = setup();
    bridge.answer('app:start', progress({ phase: 'starting' }));
    start.start();
    await settle();
    expect(start.covering).toBe(false);
    clock.now = T0 + 1200;
    expect(start.covering).toBe(true);
    desk.shown = true;
    clock.now = T0 + 1300;
    expect(start.covering).toBe(false);
  });
});
