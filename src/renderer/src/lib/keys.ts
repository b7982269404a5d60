/**
 * The app's keyboard shortcuts, as one table: the overlay lists it and `shortcutFor` reads a key
 * press against it. The slip's own keys (Enter, Ctrl/Cmd+Enter, Esc) live with the slip.
 */
import type { SCREENS, ScreenName } from '../../../shared/ipc/schemas/app.js';

/** A screen of the desk (main's app menu and `app:show` name the same ones). */
export type DeskScreen = ScreenName;

/**
 * The screens in navigation order: Ctrl/Cmd+1… follow it, as the app menu's do. A literal (the
 * renderer does not load the contract's schemas); the check below keeps it equal to SCREENS.
 */
export const SCREEN_ORDER = [
  'markets',
  'positions',
  'orders',
  'alerts',
  'history',
  'accounts',
] as const satisfies typeof SCREENS;

export const SCREEN_LABELS: Record<DeskScreen, string> = {
  markets: 'Markets',
  positions: 'Positions',
  orders: 'Orders',
  alerts: 'Alerts',
  history: 'History',
  accounts: 'Accounts',
};

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
