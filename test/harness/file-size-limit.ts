/**
 * A full disk for a child process: a file-size limit (RLIMIT_FSIZE, set with util-linux's
 * prlimit). Past the limit the OS refuses a write with EFBIG (Node ignores the SIGXFSZ that
 * comes with it), as a full disk refuses one with ENOSPC; SQLite then says SQLITE_FULL or
 * SQLITE_IOERR_WRITE. It needs no mount and no root. Only the soft limit is set, so
 * `liftFileSizeLimit` can raise it on the running child, as freeing space would.
 */
import { execFileSync } from 'node:child_process';
import { spawnProgram, type Program } from './processes.js';

/** Runs `command` with `args` under a limit of `limitBytes` per file it writes. */
export function spawnWithFileSizeLimit(
  limitBytes: number,
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv } = {},
): Program {
  return spawnProgram('prlimit', [`--fsize=${limitBytes}:`, '--', command, ...args], opts);
}

/** A TypeScript file of the repository run by Node through tsx: [command, args]. */
export function tsxScript(file: string, ...args: string[]): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', file, ...args]];
}

/** Lifts the limit of a running process: from now on its writes find room. */
export function liftFileSizeLimit(pid: number): void {
  execFileSync('prlimit', ['--pid', String(pid), '--fsize=unlimited:']);
}
