/**
 * Where Betdesk writes its logs: the OS's own place for them, so a user (or a support person)
 * finds them where that OS's other apps keep theirs.
 */
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import { absoluteEnv } from '../env-folders.js';

/**
 * Linux and other Unixes: `$XDG_STATE_HOME/betdesk/logs` (~/.local/state): the XDG spec's place
 * for logs, state that outlives a restart but is not worth backing up. macOS:
 * `~/Library/Logs/Betdesk`, where Console.app looks. Windows: `%LOCALAPPDATA%\Betdesk\logs`,
 * machine-local: logs have no business roaming with the profile.
 *
 * Electron's own app.getPath('logs') agrees on macOS but puts them under userData elsewhere
 * (~/.config/Betdesk/logs, %APPDATA%\Betdesk\logs: config, roaming); the shell hands this
 * folder to app.setAppLogsPath so both name the same one.
 */
export function defaultLogsDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    const local =
      absoluteEnv(env, 'LOCALAPPDATA', platform) ?? win32.join(home, 'AppData', 'Local');
    return win32.join(local, 'Betdesk', 'logs');
  }
  if (platform === 'darwin') return posix.join(home, 'Library', 'Logs', 'Betdesk');
  const base = absoluteEnv(env, 'XDG_STATE_HOME', platform) ?? posix.join(home, '.local', 'state');
  return posix.join(base, 'betdesk', 'logs');
}
