import { describe, expect, test } from 'vitest';
import { NavigationState } from '../../../src/renderer/src/lib/state/navigation.svelte.js';
import { FakeBridge } from '../fake-bridge.js';

function setup() {
  const bridge = new FakeBridge();
  const revealed: [string, string | undefined][] = [];
  const opened: number[] = [];
  const nav = new NavigationState(
    bridge,
    { reveal: (c, o) => revealed.push([c, o]) },
    { openSettlement: (id) => Promise.resolve(void opened.push(id)) },
  );
  nav.start();
  return { bridge, nav, revealed, opened };
}

const key = (
  k: string,
  over: Partial<{ ctrlKey: boolean; metaKey: boolean; editing: boolean }> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  editing: false,
  ...over,
});

describe('navigation', () => {
  test('Ctrl or Cmd with 1 to 8 switch screens, even while typing; Portfolio is the second', () => {
    const { nav } = setup();
    expect(nav.key(key('2', { ctrlKey: true }))).toBe(true);
    expect(nav.screen).toBe('portfolio');
    nav.key(key('3', { ctrlKey: true }));
    expect(nav.screen).toBe('positions');
    nav.key(key('6', { ctrlKey: true }));
    expect(nav.screen).toBe('guardians');
    nav.key(key('7', { ctrlKey: true }));
    expect(nav.screen).toBe('history');
    nav.key(key('8', { metaKey: true, editing: true }));
    expect(nav.screen).toBe('accounts');
    expect(nav.key(key('9', { ctrlKey: true }))).toBe(false);
    expect(nav.key(key('3'))).toBe(false);
    expect(nav.screen).toBe('accounts');
  });

  test('/ asks the screen’s search for the focus; screens without one go to the markets', () => {
    const { nav } = setup();
    nav.screen = 'positions';
    expect(nav.key(key('/'))).toBe(true);
    expect(nav.searchFor).toBe('positions');
    nav.searchDone();
    nav.screen = 'orders';
    nav.key(key('/'));
    expect(nav.screen).toBe('markets');
    expect(nav.searchFor).toBe('markets');
  });

  test('/ and ? are typed, not shortcuts, inside a text field', () => {
    const { nav } = setup();
    expect(nav.key(key('/', { editing: true }))).toBe(false);
    expect(nav.key(key('?', { editing: true }))).toBe(false);
    expect(nav.searchFor).toBeNull();
    expect(nav.shortcutsOpen).toBe(false);
  });

  test('? opens the shortcuts overlay and Esc closes it; Esc is left alone otherwise', () => {
    const { nav } = setup();
    nav.key(key('?'));
    expect(nav.shortcutsOpen).toBe(true);
    expect(nav.key(key('Escape'))).toBe(true);
    expect(nav.shortcutsOpen).toBe(false);
    expect(nav.key(key('Escape'))).toBe(false);
  });

  test('app:show shows the screen and brings the position forward', () => {
    const { bridge, nav, revealed } = setup();
    bridge.emit('app:show', { screen: 'positions', contractId: 'EPL-1', outcome: 'ARS' });
    expect(nav.screen).toBe('positions');
    expect(revealed).toEqual([['EPL-1', 'ARS']]);
    bridge.emit('app:show', { screen: 'orders', search: true });
    expect(nav.screen).toBe('markets');
    expect(nav.searchFor).toBe('markets');
  });

  test('app:show of History with a settlement opens that settlement’s detail', () => {
    const { bridge, nav, opened } = setup();
    bridge.emit('app:show', { screen: 'history' });
    expect(opened).toEqual([]);
    bridge.emit('app:show', { screen: 'history', settlementId: 42 });
    expect(nav.screen).toBe('history');
    expect(opened).toEqual([42]);
  });

  test('app:show with the shortcuts opens the overlay over the screen shown now', () => {
    const { bridge, nav } = setup();
    nav.screen = 'orders';
    bridge.emit('app:show', { screen: 'markets', shortcuts: true });
    expect(nav.shortcutsOpen).toBe(true);
    expect(nav.screen).toBe('orders');
  });
});
