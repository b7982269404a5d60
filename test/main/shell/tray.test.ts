import { beforeEach, describe, expect, it } from 'vitest';
import type { AppStatus } from '../../../src/shared/ipc/contract.js';
import {
  BetdeskTray,
  trayMenuTemplate,
  trayTooltip,
  type TrayIcons,
  type TrayParts,
} from '../../../src/main/shell/tray.js';
import { alertsSummary } from './alert-samples.js';
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
      showPositions: () => done.push('positions'),
      pauseSync: () => done.push('pause'),
      resumeSync: () => done.push('resume'),
      pauseGuards: () => done.push('pause guardians'),
      resumeGuards: () => done.push('resume guardians'),
      quit: () => done.push('quit'),
    },
  };
}

const labels = (menu: { label?: string; type?: string }[]) => menu.map((i) => i.label ?? i.type);
const clickAll = (menu: { click?: unknown }[]) => {
  for (const item of menu) (item.click as (() => void) | undefined)?.();
};

describe('the tray menu', () => {
  it('offers open, pause sync, pause guardians and quit', () => {
    const { done, actions: a } = actions();
    const menu = trayMenuTemplate(status('idle'), alertsSummary(), a);
    expect(labels(menu)).toEqual([
      'Open Betdesk',
      'separator',
      'Pause sync',
      'Pause guardians',
      'separator',
      'Quit Betdesk',
    ]);
    clickAll(menu);
    expect(done).toEqual(['open', 'pause', 'pause guardians', 'quit']);
  });

  it('offers to resume the guardians while they are paused', () => {
    const { done, actions: a } = actions();
    const menu = trayMenuTemplate(status('idle'), null, a, true);
    expect(labels(menu)).toContain('Resume guardians');
    expect(labels(menu)).not.toContain('Pause guardians');
    (menu.find((i) => i.label === 'Resume guardians')?.click as () => void)();
    expect(done).toEqual(['resume guardians']);
  });

  it('offers to resume once sync is paused', () => {
    const { done, actions: a } = actions();
    const resume = trayMenuTemplate(status('paused'), null, a).find((i) =>
      i.label?.endsWith('sync'),
    );
    expect(resume?.label).toBe('Resume sync');
    (resume?.click as () => void)();
    expect(done).toEqual(['resume']);
  });

  it('counts the positions near their knockout in an item that opens the positions', () => {
    const { done, actions: a } = actions();
    const menu = trayMenuTemplate(status('idle'), alertsSummary({ nearKnockout: 3 }), a);
    expect(labels(menu).slice(0, 3)).toEqual([
      'Open Betdesk',
      '3 positions near knockout',
      'separator',
    ]);
    (menu[1]?.click as () => void)();
    expect(done).toEqual(['positions']);
    const one = trayMenuTemplate(null, alertsSummary({ nearKnockout: 1 }), a);
    expect(one[1]?.label).toBe('1 position near knockout');
  });

  it('has no near-knockout item while no position is near, however many alerts are unread', () => {
    const { actions: a } = actions();
    const quiet = alertsSummary({ unread: 4, unreadDanger: 2, nearKnockout: 0 });
    expect(labels(trayMenuTemplate(status('idle'), quiet, a))).not.toContainEqual(
      expect.stringMatching(/knockout/),
    );
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
    expect(trayTooltip(s, null, at)).toMatch(/^Betdesk \(paper\): sync up to date, last sync .*05/);
  });
});

describe('the tray tooltip with alerts', () => {
  it('says how many positions are near their knockout', () => {
    const near = alertsSummary({ nearKnockout: 2 });
    expect(trayTooltip(status('idle'), near)).toBe(
      'Betdesk (paper): sync up to date. 2 positions near their knockout',
    );
    expect(trayTooltip(status('offline', false), alertsSummary({ nearKnockout: 1 }))).toBe(
      'Betdesk (paper): sync offline, exchange unreachable. 1 position near its knockout',
    );
    expect(trayTooltip(null, near)).toBe('Betdesk: starting. 2 positions near their knockout');
  });

  it('says the guardians are paused while they are, before the positions near knockout', () => {
    const near = alertsSummary({ nearKnockout: 2 });
    expect(trayTooltip(status('idle'), near, new Date(), true)).toBe(
      'Betdesk (paper): sync up to date. Guardians paused. 2 positions near their knockout',
    );
    expect(trayTooltip(null, null, new Date(), true)).toBe('Betdesk: starting. Guardians paused');
    expect(trayTooltip(status('idle'), near, new Date(), false)).not.toContain('Guardians');
  });

  it('covers every watched account, naming those with positions near their knockout', () => {
    const counts = { unread: 0, unreadDanger: 0, nearKnockout: 0 };
    const three = alertsSummary({
      everyAccount: [
        { ...counts, accountId: null, account: 'Paper' },
        { ...counts, accountId: '2', account: 'Live A', nearKnockout: 1 },
        { ...counts, accountId: '3', account: 'Live B', nearKnockout: 2, unreadDanger: 1 },
      ],
    });
    // Paper is on screen with nothing near: the others still count.
    expect(trayTooltip(status('idle'), three)).toBe(
      'Betdesk (paper): sync up to date. 3 positions near their knockout (Live A, Live B)',
    );
    const { tray, icon } = makeTray();
    tray.updateAlerts(three);
    expect(icon.image).toBe(icons.warning);
  });

  it('keeps to the sync wording when no position is near its knockout', () => {
    const none = alertsSummary({ unread: 3, unreadDanger: 1, nearKnockout: 0 });
    expect(trayTooltip(status('paused'), none)).toBe('Betdesk (paper): sync paused');
  });
});

const icons = {
  normal: { name: 'normal' },
  warning: { name: 'warning' },
} as unknown as TrayIcons;

function makeTray() {
  const { actions: a, done } = actions();
  const tray = new BetdeskTray({ Tray, Menu } as unknown as TrayParts, icons, a);
  return { tray, done, icon: Tray.all[Tray.all.length - 1]! };
}

describe('the tray icon', () => {
  beforeEach(() => {
    Tray.all = [];
  });

  it('shows the menu and tooltip, and follows the status', () => {
    const { tray, done, icon } = makeTray();
    expect(icon.tooltip).toBe('Betdesk: starting');
    tray.update(status('paused'));
    expect(icon.tooltip).toBe('Betdesk (paper): sync paused');
    expect(icon.menu?.template.map((i) => i.label ?? i.type)).toContain('Resume sync');
    icon.emit('click');
    expect(done).toEqual(['open']);
  });

  it('starts with the normal icon', () => {
    const { icon } = makeTray();
    expect(icon.image).toBe(icons.normal);
  });

  it('warns while an unread near or knocked-out alert waits, and stops once it is read', () => {
    const { tray, icon } = makeTray();
    tray.updateAlerts(alertsSummary({ unread: 1, unreadDanger: 1 }));
    expect(icon.image).toBe(icons.warning);
    expect(tray.warns()).toBe(true);
    tray.updateAlerts(alertsSummary({ unread: 2, unreadDanger: 2 }));
    tray.updateAlerts(alertsSummary({ unread: 1, unreadDanger: 0 }));
    expect(icon.image).toBe(icons.normal);
    expect(tray.warns()).toBe(false);
    // The image changes only when the warning does.
    expect(icon.images).toEqual([icons.normal, icons.warning, icons.normal]);
  });

  it('does not warn for unread fills and rejections alone', () => {
    const { tray, icon } = makeTray();
    tray.updateAlerts(alertsSummary({ unread: 5, unreadDanger: 0 }));
    expect(icon.image).toBe(icons.normal);
  });

  it('puts the near-knockout item in its menu as the count changes, and takes it away at 0', () => {
    const { tray, done, icon } = makeTray();
    tray.updateAlerts(alertsSummary({ nearKnockout: 2 }));
    expect(icon.menu?.template[1]?.label).toBe('2 positions near knockout');
    icon.menu?.template[1]?.click?.();
    expect(done).toEqual(['positions']);
    tray.update(status('paused'));
    expect(icon.menu?.template[1]?.label).toBe('2 positions near knockout');
    tray.updateAlerts(alertsSummary({ nearKnockout: 0 }));
    expect(icon.menu?.template.map((i) => i.label)).not.toContain('2 positions near knockout');
    expect(icon.menu?.template.map((i) => i.label)).toContain('Resume sync');
  });

  it('keeps the count of near positions when the sync status changes', () => {
    const { tray, icon } = makeTray();
    tray.updateAlerts(alertsSummary({ nearKnockout: 3 }));
    expect(icon.tooltip).toBe('Betdesk: starting. 3 positions near their knockout');
    tray.update(status('syncing'));
    expect(icon.tooltip).toBe('Betdesk (paper): sync syncing. 3 positions near their knockout');
    tray.updateAlerts(alertsSummary({ nearKnockout: 0 }));
    expect(icon.tooltip).toBe('Betdesk (paper): sync syncing');
  });

  it('follows the guardians’ pause in its menu and tooltip, whatever sync does', () => {
    const { tray, done, icon } = makeTray();
    const item = (label: string) => icon.menu?.template.find((i) => i.label === label);
    tray.update(status('idle'));
    expect(item('Pause guardians')).toBeDefined();
    tray.updateGuards(true);
    expect(icon.tooltip).toBe('Betdesk (paper): sync up to date. Guardians paused');
    expect(item('Pause guardians')).toBeUndefined();
    item('Resume guardians')?.click?.();
    expect(done).toEqual(['resume guardians']);
    tray.update(status('paused'));
    tray.updateAlerts(alertsSummary({ nearKnockout: 1 }));
    expect(icon.tooltip).toBe(
      'Betdesk (paper): sync paused. Guardians paused. 1 position near its knockout',
    );
    expect(item('Resume guardians')).toBeDefined();
    tray.updateGuards(false);
    expect(icon.tooltip).toBe('Betdesk (paper): sync paused. 1 position near its knockout');
    expect(item('Pause guardians')).toBeDefined();
  });

  it('ignores updates that arrive after it was removed', () => {
    const { tray, icon } = makeTray();
    tray.destroy();
    expect(() => {
      tray.update(status('paused'));
      tray.updateAlerts(alertsSummary({ unreadDanger: 1, nearKnockout: 1 }));
      tray.updateGuards(true);
    }).not.toThrow();
    expect(icon.destroyed).toBe(true);
    expect(icon.tooltip).toBe('Betdesk: starting');
  });
});
