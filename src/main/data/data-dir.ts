/**
 * Where Betdesk keeps its data (the store, the paper exchange, backups): one folder per OS user,
 * the same for the desktop app, the browser host and the CLI.
 *
 * - Linux and other Unixes: `$XDG_DATA_HOME/betdesk` (`~/.local/share/betdesk`).
 * - macOS: `~/Library/Application Support/Betdesk`.
 * - Windows: `%APPDATA%\Betdesk`.
 * - `BETDESK_DATA_DIR` overrides all three.
 *
 * Earlier versions kept the app's and the browser host's store in Electron's userData for the
 * package name `betdesk` (`$XDG_CONFIG_HOME/betdesk`, `~/Library/Application Support/betdesk`,
 * `%APPDATA%\betdesk`) and the CLI's in `$XDG_DATA_HOME/betdesk` (`~/.local/share/betdesk`) on
 * every OS: `legacyDataDirs` names them so that a store found there is moved once
 * (store-move.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { absoluteEnv, pathsOf, type Env } from '../env-folders.js';

export const DATA_DIR_ENV = 'BETDESK_DATA_DIR';

/** `$XDG_DATA_HOME/betdesk`, or `~/.local/share/betdesk`: the Linux folder (and the old CLI's). */
function xdgDataDir(platform: NodeJS.Platform, env: Env, home: string): string {
  const p = pathsOf(platform);
  return p.join(
    absoluteEnv(env, 'XDG_DATA_HOME', platform) ?? p.join(home, '.local', 'share'),
    'betdesk',
  );
}

/** Windows' roaming application data folder. */
function appData(platform: NodeJS.Platform, env: Env, home: string): string {
  return absoluteEnv(env, 'APPDATA', platform) ?? path.win32.join(home, 'AppData', 'Roaming');
}

/** The OS's folder for Betdesk's data, or `BETDESK_DATA_DIR` when set. */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: Env = process.env,
  home: string = os.homedir(),
): string {
  const p = pathsOf(platform);
  const chosen = env[DATA_DIR_ENV];
  if (chosen) return p.resolve(chosen);
  if (platform === 'darwin') return p.join(home, 'Library', 'Application Support', 'Betdesk');
  if (platform === 'win32') return p.join(appData(platform, env, home), 'Betdesk');
  return xdgDataDir(platform, env, home);
}

/**
 * Folders where earlier versions kept a store that `dataDir` now replaces, most important
 * first; none when `dataDir` is not the default (a folder the user chose is taken as it is).
 */
export function legacyDataDirs(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
  env: Env = process.env,
  home: string = os.homedir(),
): string[] {
  const p = pathsOf(platform);
  if (env[DATA_DIR_ENV] || p.resolve(dataDir) !== defaultDataDir(platform, env, home)) return [];
  // Electron's userData for the package name `betdesk` (app.getPath('userData')).
  const userData =
    platform === 'darwin'
      ? p.join(home, 'Library', 'Application Support', 'betdesk')
      : platform === 'win32'
        ? p.join(appData(platform, env, home), 'betdesk')
        : p.join(
            absoluteEnv(env, 'XDG_CONFIG_HOME', platform) ?? p.join(home, '.config'),
            'betdesk',
          );
  // The CLI's folder, the Linux one on every OS: the same as the new one on Linux.
  const cli = xdgDataDir(platform, env, home);
  return [userData, cli].filter(
    (dir, i, all) => dir !== p.resolve(dataDir) && all.indexOf(dir) === i,
  );
}
