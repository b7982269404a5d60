/**
 * A folder named by the environment ($XDG_*_HOME, %APPDATA%, %LOCALAPPDATA%), taken only when it
 * is an absolute path: the XDG spec says to ignore a relative one, and Betdesk applies the same
 * rule to every such variable, for its data, its logs and its autostart entry alike.
 */
import path from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/** The path module of `platform`, so Windows paths are built right when tested elsewhere. */
export function pathsOf(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** `env[name]` when set to an absolute path for `platform`; undefined otherwise. */
export function absoluteEnv(
  env: Env,
  name: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const value = env[name];
  return value && pathsOf(platform).isAbsolute(value) ? value : undefined;
}
