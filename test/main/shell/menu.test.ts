import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import type { ShowRequest } from '../../../src/shared/ipc/contract.js';
import { appMenuTemplate, goMenuTemplate } from '../../../src/main/shell/menu.js';

function goMenu(platform: NodeJS.Platform) {
  const shown: ShowRequest[] = [];
  const items = goMenuTemplate((request) => shown.push(request), platform);
  const click = (label: string) => {
    const item = items.find((i) => i.label === label);
    (item?.click as (() => void) | undefined)?.();
  };
  return { items, shown, click };
}

const entries = (items: MenuItemConstructorOptions[]) =>
  items.map((i) =>
    i.type === 'separator'
      ? 'separator'
      : [i.label, i.accelerator ?? '-', String(i.registerAccelerator ?? '-')].join(' | '),
  );

describe('the Go menu', () => {
  it('lists the eight screens in navigation order with Ctrl/Cmd+1…8, and search', () => {
    expect(entries(goMenu('linux').items)).toEqual([
      'Markets | CmdOrCtrl+1 | false',
      'Portfolio | CmdOrCtrl+2 | false',
      'Positions | CmdOrCtrl+3 | false',
      'Orders | CmdOrCtrl+4 | false',
      'Alerts | CmdOrCtrl+5 | false',
      'Guardians | CmdOrCtrl+6 | false',
      'History | CmdOrCtrl+7 | false',
      'Accounts | CmdOrCtrl+8 | false',
      'separator',
      'Search | / | false',
    ]);
  });

  it('on macOS, where every accelerator is live, puts / in the label so fields still type it', () => {
    expect(entries(goMenu('darwin').items).slice(7)).toEqual([
      'Accounts | CmdOrCtrl+8 | false',
      'separator',
      'Search (/) | - | -',
    ]);
  });

  it('asks the renderer for the screen that was clicked', () => {
    const { click, shown } = goMenu('win32');
    click('Positions');
    click('History');
    click('Accounts');
    expect(shown).toEqual([{ screen: 'positions' }, { screen: 'history' }, { screen: 'accounts' }]);
  });

  it('asks for the markets search', () => {
    const { click, shown } = goMenu('linux');
    click('Search');
    expect(shown).toEqual([{ screen: 'markets', search: true }]);
  });
});

function appMenu(platform: NodeJS.Platform, devTools = false) {
  const done: string[] = [];
  const shown: ShowRequest[] = [];
  const menu = appMenuTemplate(
    {
      quit: () => done.push('quit'),
      show: (r) => shown.push(r),
      about: () => done.push('about'),
      openLogsFolder: () => done.push('logs'),
      copyDiagnostics: () => done.push('diagnostics'),
      devTools,
    },
    platform,
  );
  const sub = (label: string) =>
    (menu.find((m) => m.label === label)?.submenu ?? []) as MenuItemConstructorOptions[];
  const click = (top: string, label: string) => {
    const item = sub(top).find((i) => i.label === label);
    if (!item) throw new Error(`no ${top} > ${label}`);
    (item.click as () => void)();
  };
  const roles = (top: string) => sub(top).flatMap((i) => (i.role ? [i.role] : []));
  return { menu, done, shown, sub, click, roles };
}

const items = (submenu: MenuItemConstructorOptions[]) =>
  submenu.map((i) => i.label ?? i.role ?? i.type);

describe('the application menu', () => {
  it('has File, Edit, View, Go, Window and Help on Windows and Linux', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const { menu } = appMenu(platform);
      expect(menu.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Go', 'Window', 'Help']);
    }
  });

  it('puts the app menu first on macOS, with About, Services, Hide and Quit', () => {
    const { menu, sub, click, done } = appMenu('darwin');
    expect(menu.map((m) => m.label)).toEqual([
      'Betdesk',
      'File',
      'Edit',
      'View',
      'Go',
      'Window',
      'Help',
    ]);
    expect(items(sub('Betdesk'))).toEqual([
      'About Betdesk',
      'separator',
      'services',
      'separator',
      'hide',
      'hideOthers',
      'unhide',
      'separator',
      'Quit Betdesk',
    ]);
    click('Betdesk', 'About Betdesk');
    click('Betdesk', 'Quit Betdesk');
    expect(done).toEqual(['about', 'quit']);
  });

  it('quits from File > Quit on Windows and Linux, and closes the window there on macOS', () => {
    const linux = appMenu('linux');
    expect(linux.sub('File')[0]).toMatchObject({
      label: 'Quit Betdesk',
      accelerator: 'CmdOrCtrl+Q',
    });
    linux.click('File', 'Quit Betdesk');
    expect(linux.done).toEqual(['quit']);
    expect(appMenu('darwin').roles('File')).toEqual(['close']);
  });

  it('has the standard editing, view and window roles of each OS', () => {
    const linux = appMenu('linux');
    expect(linux.roles('Edit')).toEqual([
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'delete',
      'selectAll',
    ]);
    expect(linux.roles('View')).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
    expect(linux.roles('Window')).toEqual(['minimize', 'close']);
    const mac = appMenu('darwin');
    expect(mac.roles('Edit')).toContain('pasteAndMatchStyle');
    expect(mac.roles('Window')).toEqual(['minimize', 'zoom', 'front']);
  });

  it('offers the developer tools in development only', () => {
    expect(appMenu('linux', true).roles('View')).toContain('toggleDevTools');
    expect(appMenu('linux', false).roles('View')).not.toContain('toggleDevTools');
  });

  it('wires the Go menu to show', () => {
    const { click, shown } = appMenu('linux');
    click('Go', 'Orders');
    expect(shown).toEqual([{ screen: 'orders' }]);
  });

  it('has Help with the shortcuts, the logs folder, diagnostics and About', () => {
    const { menu, sub, click, done, shown } = appMenu('linux');
    expect(menu.find((m) => m.label === 'Help')?.role).toBe('help');
    expect(items(sub('Help'))).toEqual([
      'Keyboard shortcuts',
      'separator',
      'Open logs folder',
      'Copy diagnostics',
      'separator',
      'About Betdesk',
    ]);
    expect(sub('Help')[0]).toMatchObject({ accelerator: '?', registerAccelerator: false });
    click('Help', 'Keyboard shortcuts');
    click('Help', 'Open logs folder');
    click('Help', 'Copy diagnostics');
    click('Help', 'About Betdesk');
    expect(shown).toEqual([{ screen: 'markets', shortcuts: true }]);
    expect(done).toEqual(['logs', 'diagnostics', 'about']);
  });

  it('keeps About out of Help on macOS, where the app menu has it, and ? in the label', () => {
    const { sub } = appMenu('darwin');
    expect(items(sub('Help'))).toEqual([
      'Keyboard shortcuts (?)',
      'separator',
      'Open logs folder',
      'Copy diagnostics',
    ]);
    expect(sub('Help')[0]?.accelerator).toBeUndefined();
  });
});
