/**
 * Betdesk's own command-line arguments, for the first instance and for what a second instance
 * hands over: `--hidden` (start in the tray, the window not shown: what a login start passes)
 * and `--screen <name>` or `--screen=<name>` (open on that screen: markets, positions, orders,
 * alerts, history, accounts). Anything else (Electron's and Chromium's switches, the app path
 * in development) is ignored.
 */
import { SCREENS, type ScreenName } from '../../shared/ipc/contract.js';

export const HIDDEN_ARG = '--hidden';
export const SCREEN_ARG = '--screen';

export interface AppArgs {
  hidden: boolean;
  screen: ScreenName | null;
}

const isScreen = (name: string | undefined): name is ScreenName =>
  (SCREENS as readonly string[]).includes(name ?? '');

export function parseAppArgs(argv: readonly string[]): AppArgs {
  const args: AppArgs = { hidden: false, screen: null };
  const inline = `${SCREEN_ARG}=`;
  argv.forEach((arg, i) => {
    if (arg === HIDDEN_ARG) args.hidden = true;
    let name: string | undefined;
    if (arg === SCREEN_ARG) name = argv[i + 1];
    else if (arg.startsWith(inline)) name = arg.slice(inline.length);
    if (isScreen(name)) args.screen = name;
  });
  return args;
}

/**
 * What the second instance sends the first with `requestSingleInstanceLock`: its arguments
 * exactly as given (the `argv` of the `second-instance` event may be reordered or carry
 * Chromium's additions).
 */
export interface HandedOver {
  argv: string[];
}

/** The second instance's arguments: from its hand-over when there is a valid one, else argv. */
export function handedOverArgs(argv: readonly string[], additionalData: unknown): AppArgs {
  const data = additionalData as Partial<HandedOver> | null | undefined;
  const given =
    Array.isArray(data?.argv) && data.argv.every((a) => typeof a === 'string') ? data.argv : argv;
  return parseAppArgs(given);
}
