import { describe, expect, it } from 'vitest';
import type { NativeImage } from 'electron';
import type { AppStatus } from '../../../src/shared/ipc/contract.js';
import {
  BetdeskTray,
  trayMenuTemplate,
  trayTooltip,
  type TrayParts,
} from '../../../src/main/shell/tray.js';
import { Menu, Tray } from './fake-electron.js';

function status(state: AppStatus['sync']['state'], online = true): AppStatus {
  return {
    mode: 'paper',
    online,
    sync: { state, lastSyncAt: null, message: null },
    clockOffsetMs: 0,
    rateBudget: [],
  };
}

function actions() {
  const done: string[] = [];
  return {
    done,
    actions: {
      open: () => done.push('open'),
      pauseSync: () => done.push('pause'),
      resumeSync: () => done.push('resume'),
      quit: () => done.push('quit'),
    },
  };
}

describe('the tray menu', () => {
  it('offers open, pause sync and quit', () => {
    const { done, actions: a } = actions();
    const menu = trayMenuTemplate(status('idle'), a);
    expect(menu.map((i) => i.label ?? i.type)).toEqual([
      'Open Betdesk',
      'Pause sync',
      'separator',
      'Quit Betdesk',
    ]);
    for (const item of menu) (item.click as (() => void) | undefined)?.();
    expect(done).toEqual(['open', 'pause', 'quit']);
  });

  it('offers to resume once sync is paused', () => {
    const { done, actions: a } = actions();
    const resume = trayMenuTemplate(status('paused'), a)[1];
    expect(resume?.label).toBe('Resume sync');
    (resume?.click as () => void)();
    expect(done).toEqual(['resume']);
  });
});

describe('the tray tooltip', () => {
  it('says how sync is doing', () => {
    expect(trayTooltip(null)).toBe('Betdesk: starting');
    expect(trayTooltip(status('idle'))).toBe('Betdesk (paper): sync up to date');
    expect(trayTooltip(status('paused'))).toBe('Betdesk (paper): sync paused');
    expect(trayTooltip(status('offline', false))).toBe(
      'Betdesk (paper): sync offline, exchange unreachable',
    );
  });

  it('gives the time of the last sync', () => {
    const at = new Date(2026, 10, 25, 14, 5);
    const s = {
      ...status('idle'),
      sync: { state: 'idle' as const, lastSyncAt: at.getTime(), message: null },
    };
    expect(trayTooltip(s, at)).toMatch(/^Betdesk \(paper\): sync up to date, last sync .*05/);
  });
});

describe('the tray icon', () => {
  it('shows the menu and tooltip, and follows the status', () => {
    Tray.all = [];
    const { actions: a, done } = actions();
    const tray = new BetdeskTray({ Tray, Menu } as unknown as TrayParts, {} as NativeImage, a);
    const icon = Tray.all[0]!;
    expect(icon.tooltip).toBe('Betdesk: starting');
    tray.update(status('paused'));
    expect(icon.tooltip).toBe('Betdesk (paper): sync paused');
    expect(icon.menu?.template.map((i) => i.label ?? i.type)).toContain('Resume sync');
    icon.emit('click');
    expect(done).toEqual(['open']);
  });
});
