/**
 * Starting Betdesk at login, hidden in the tray when asked. macOS and Windows have OS login items
 * (`app.setLoginItemSettings`); Linux has none in Electron, so there Betdesk writes an XDG
 * autostart entry (~/.config/autostart/betdesk.desktop). Windows and Linux start it with
 * `--hidden`; macOS 13+ has no hidden login start, so there the shell asks whether this start was
 * a login start and then follows the "start hidden" setting itself.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { App } from 'electron';
import type { DeskSettings } from '../../shared/ipc/contract.js';
import { absoluteEnv } from '../env-folders.js';
import type { Handlers } from '../ipc/handler.js';
import { Refusal } from '../refusal.js';
import { HIDDEN_ARG } from './args.js';

export type StartupSettings = Pick<DeskSettings, 'startAtLogin' | 'startHidden'>;

export interface LoginItems {
  /** Makes the OS start Betdesk at login or not, in the tray only when `startHidden`. */
  apply(settings: StartupSettings): Promise<void>;
  /** Whether the OS says this start was a login start it made (macOS only; else false). */
  openedAtLogin(): boolean;
}

/** What starts Betdesk: the executable and the arguments before Betdesk's own. */
export interface Launch {
  command: string;
  args: string[];
}

/**
 * The AppImage file when running from one (its executable lives in a mount that is gone after
 * quit), else Electron's executable; in development also the app's folder, which Electron needs.
 */
export function launchOf(opts: {
  execPath: string;
  packaged: boolean;
  appPath: string;
  env: Record<string, string | undefined>;
}): Launch {
  const appImage = opts.env['APPIMAGE'];
  return {
    command: appImage && opts.packaged ? appImage : opts.execPath,
    args: opts.packaged ? [] : [opts.appPath],
  };
}

type LoginItemApp = Pick<App, 'setLoginItemSettings' | 'getLoginItemSettings'>;

/** macOS and Windows: the OS's own login items. */
export function electronLoginItems(
  app: LoginItemApp,
  launch: Launch,
  platform: NodeJS.Platform,
): LoginItems {
  return {
    apply(settings) {
      if (platform === 'win32') {
        const args = [...launch.args, ...(settings.startHidden ? [HIDDEN_ARG] : [])];
        app.setLoginItemSettings({
          openAtLogin: settings.startAtLogin,
          path: launch.command,
          args,
        });
      } else {
        app.setLoginItemSettings({ openAtLogin: settings.startAtLogin });
      }
      return Promise.resolve();
    },
    openedAtLogin: () => platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin,
  };
}

/**
 * Where the autostart entry goes: `$XDG_CONFIG_HOME/autostart` when that is absolute (the rule of
 * every XDG folder, src/main/env-folders.ts), ~/.config/autostart otherwise.
 */
export function autostartFile(env: Record<string, string | undefined>, home = homedir()): string {
  const configHome = absoluteEnv(env, 'XDG_CONFIG_HOME', 'linux') ?? join(home, '.config');
  return join(configHome, 'autostart', 'betdesk.desktop');
}

/** Linux: an XDG autostart entry, written when on and removed when off. */
export function xdgAutostart(file: string, launch: Launch): LoginItems {
  return {
    async apply(settings) {
      if (!settings.startAtLogin) {
        await rm(file, { force: true });
        return;
      }
      const argv = [launch.command, ...launch.args, ...(settings.startHidden ? [HIDDEN_ARG] : [])];
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, autostartEntry(argv));
    },
    openedAtLogin: () => false,
  };
}

export function autostartEntry(argv: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Betdesk',
    'Comment=Keeps watching your positions for knockouts',
    `Exec=${desktopExec(argv)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/**
 * An Exec= value per the Desktop Entry spec: an argument with a reserved character is quoted
 * (", `, $ and \ escaped inside the quotes), % is doubled (it starts a field code), and then the
 * string-value escaping doubles every backslash once more.
 */
export function desktopExec(argv: readonly string[]): string {
  const quote = (arg: string) =>
    /^[\w\-./:=+,@]+$/.test(arg) ? arg : `"${arg.replace(/["`$\\]/g, '\\$&')}"`;
  return argv
    .map((arg) => quote(arg).replace(/%/g, '%%'))
    .join(' ')
    .replace(/\\/g, '\\\\');
}

/**
 * The `settings:set` the bridge serves in the desktop app, in place of `settings`' own: a change
 * of the login settings reaches the OS first and is stored only once the OS took it, so the two
 * never disagree.
 */
export function applyingLoginItems(
  settings: Handlers<'settings:get' | 'settings:set'>,
  items: LoginItems,
): Handlers<'settings:set'> {
  return {
    async 'settings:set'(change) {
      if (change.startAtLogin === undefined && change.startHidden === undefined) {
        return settings['settings:set'](change);
      }
      const next = { ...(await settings['settings:get']({})), ...change };
      try {
        await items.apply({ startAtLogin: next.startAtLogin, startHidden: next.startHidden });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new Refusal('internal', `Betdesk could not change its start at login: ${reason}`);
      }
      return settings['settings:set'](change);
    },
  };
}
