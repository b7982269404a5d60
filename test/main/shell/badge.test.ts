import type { NativeImage } from 'electron';
import { beforeEach, describe, expect, it } from 'vitest';
import { UnreadBadge } from '../../../src/main/shell/badge.js';
import { app, BrowserWindow as FakeWindow, resetFakeElectron } from './fake-electron.js';

const dot = { dot: true } as unknown as NativeImage;

function badge(platform: NodeJS.Platform, win: FakeWindow | null) {
  return new UnreadBadge({
    app,
    window: () => win,
    overlay: dot,
    platform,
  });
}

describe('the unread badge', () => {
  beforeEach(() => resetFakeElectron());

  it('counts unread alerts on the macOS dock and Linux launchers, and clears at 0', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      resetFakeElectron();
      const b = badge(platform, null);
      b.set(3);
      b.set(0);
      expect(app.badgeCounts).toEqual([3, 0]);
    }
  });

  it('puts a red dot over the Windows taskbar button, saying the count, and clears it at 0', () => {
    const win = new FakeWindow({});
    const b = badge('win32', win);
    b.set(2);
    b.set(1);
    b.set(0);
    expect(win.overlays).toEqual([
      { image: dot, description: '2 unread alerts' },
      { image: dot, description: '1 unread alert' },
      { image: null, description: '' },
    ]);
    expect(app.badgeCounts).toEqual([]);
  });

  it('waits on Windows for a window, and gives a new one the current count', () => {
    const b = badge('win32', null);
    b.set(4);
    expect(b.current()).toBe(4);
    const fresh = new FakeWindow({});
    b.show(fresh);
    expect(fresh.overlays).toEqual([{ image: dot, description: '4 unread alerts' }]);
  });
});
