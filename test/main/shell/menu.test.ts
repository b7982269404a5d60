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
  it('lists the six screens in navigation order with Ctrl/Cmd+1…6, and search and shortcuts', () => {
    expect(entries(goMenu('linux').items)).toEqual([
      'Markets | CmdOrCtrl+1 | false',
      'Positions | CmdOrCtrl+2 | false',
      'Orders | CmdOrCtrl+3 | false',
      'Alerts | CmdOrCtrl+4 | false',
      'History | CmdOrCtrl+5 | false',
      'Accounts | CmdOrCtrl+6 | false',
      'separator',
      'Search | / | false',
      'Keyboard shortcuts | ? | false',
    ]);
  });

  it('on macOS, where every accelerator is live, puts / and ? in the label so fields still type them', () => {
    expect(entries(goMenu('darwin').items).slice(5)).toEqual([
      'Accounts | CmdOrCtrl+6 | false',
      'separator',
      'Search (/) | - | -',
      'Keyboard shortcuts (?) | - | -',
    ]);
  });

  it('asks the renderer for the screen that was clicked', () => {
    const { click, shown } = goMenu('win32');
    click('Positions');
    click('History');
    click('Accounts');
    expect(shown).toEqual([{ screen: 'positions' }, { screen: 'history' }, { screen: 'accounts' }]);
  });

  it('asks for the markets search, and for the shortcuts overlay over Markets', () => {
    const { click, shown } = goMenu('linux');
    click('Search');
    click('Keyboard shortcuts');
    expect(shown).toEqual([
      { screen: 'markets', search: true },
      { screen: 'markets', shortcuts: true },
    ]);
  });
});

describe('the application menu', () => {
  it('has File, Edit, View, Go and Window, with the Go menu wired to show', () => {
    const shown: ShowRequest[] = [];
    const menu = appMenuTemplate(
      { quit: () => {}, show: (r) => shown.push(r), devTools: false },
      'linux',
    );
    expect(menu.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Go', 'Window']);
    const go = menu[3]?.submenu as MenuItemConstructorOptions[];
    (go[2]?.click as () => void)();
    expect(shown).toEqual([{ screen: 'orders' }]);
  });
});
