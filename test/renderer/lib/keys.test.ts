import { describe, expect, test } from 'vitest';
import { SCREENS } from '../../../src/shared/ipc/schemas/app.js';
import { SCREEN_ORDER, shortcutFor, type KeyPress } from '../../../src/renderer/src/lib/keys.js';

function press(key: string, over: Partial<KeyPress> = {}): KeyPress {
  return { key, ctrlKey: false, metaKey: false, altKey: false, editing: false, ...over };
}

describe('keyboard shortcuts', () => {
  test('the screens are in the order of the app menu', () => {
    expect(SCREEN_ORDER).toEqual(SCREENS);
  });

  test('Ctrl or Cmd with a digit shows that screen, even while typing', () => {
    expect(shortcutFor(press('1', { ctrlKey: true }))).toEqual({
      kind: 'screen',
      screen: 'markets',
    });
    expect(shortcutFor(press('2', { ctrlKey: true }))).toEqual({
      kind: 'screen',
      screen: 'portfolio',
    });
    expect(shortcutFor(press('6', { metaKey: true, editing: true }))).toEqual({
      kind: 'screen',
      screen: 'guardians',
    });
    expect(shortcutFor(press('7', { ctrlKey: true }))).toEqual({
      kind: 'screen',
      screen: 'history',
    });
    expect(shortcutFor(press('9', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press('1', { ctrlKey: true, altKey: true }))).toBeNull();
  });

  test('/ searches and ? lists the shortcuts, but not inside a text field', () => {
    expect(shortcutFor(press('/'))).toEqual({ kind: 'search' });
    expect(shortcutFor(press('?'))).toEqual({ kind: 'shortcuts' });
    expect(shortcutFor(press('/', { editing: true }))).toBeNull();
    expect(shortcutFor(press('?', { ctrlKey: true }))).toBeNull();
  });

  test('while a modal dialog is open, no shortcut acts behind it', () => {
    expect(shortcutFor(press('7', { ctrlKey: true, modal: true }))).toBeNull();
    expect(shortcutFor(press('?', { modal: true }))).toBeNull();
    expect(shortcutFor(press('/', { modal: true }))).toBeNull();
    // The dialog closes itself on Esc (its cancel event).
    expect(shortcutFor(press('Escape', { modal: true }))).toBeNull();
  });

  test('Esc is always passed on, and other keys are not shortcuts', () => {
    expect(shortcutFor(press('Escape', { editing: true }))).toEqual({ kind: 'escape' });
    expect(shortcutFor(press('a'))).toBeNull();
    expect(shortcutFor(press('1'))).toBeNull();
  });
});
