/**
 * The app's keyboard shortcuts, as one table: the overlay lists it and `shortcutFor` reads a key
 * press against it. The slip's own keys (Enter, Ctrl/Cmd+Enter, Esc) live with the slip.
 */
import { SCREENS, SCREEN_LABELS, type ScreenName } from '../../../shared/screens.js';

/** A screen of the desk (main's app menu and `app:show` name the same ones). */
export type DeskScreen = ScreenName;

/** The screens in navigation order (src/shared/screens.ts): Ctrl/Cmd+1… follow it. */
export const SCREEN_ORDER = SCREENS;
export { SCREEN_LABELS };

export type ShortcutAction =
  | { kind: 'screen'; screen: DeskScreen }
  | { kind: 'search' }
  | { kind: 'shortcuts' }
  | { kind: 'escape' };

/**
 * What a key press carries that matters here; `editing` is true inside a text field, `modal`
 * while a modal dialog is open (the export dialog, this overlay, a settlement's detail).
 */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  editing: boolean;
  modal?: boolean;
}

/** A modal owns the keyboard: no shortcut acts behind it (it closes itself on Esc). */
export function shortcutFor(press: KeyPress): ShortcutAction | null {
  if (press.modal) return null;
  const mod = press.ctrlKey || press.metaKey;
  if (mod && !press.altKey && /^[1-9]$/.test(press.key)) {
    const screen = SCREEN_ORDER[Number(press.key) - 1];
    return screen ? { kind: 'screen', screen } : null;
  }
  if (press.key === 'Escape') return { kind: 'escape' };
  if (mod || press.altKey || press.editing) return null;
  if (press.key === '/') return { kind: 'search' };
  if (press.key === '?') return { kind: 'shortcuts' };
  return null;
}

/** What the shortcuts overlay lists. */
export const SHORTCUT_LIST: readonly { keys: string; does: string }[] = [
  ...SCREEN_ORDER.map((s, i) => ({ keys: `Ctrl/Cmd+${i + 1}`, does: `Show ${SCREEN_LABELS[s]}` })),
  { keys: '/', does: 'Search (markets, positions)' },
  { keys: '↑ ↓ Enter', does: 'History: move through the settlements; open one' },
  { keys: '?', does: 'Show these shortcuts' },
  { keys: 'Enter', does: 'Bet slip: request a quote' },
  { keys: 'Ctrl/Cmd+Enter', does: 'Bet slip: place the bet (or confirm it)' },
  { keys: 'Esc', does: 'Bet slip: step back or clear; close this overlay' },
];
