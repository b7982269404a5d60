/**
 * Opening a folder in the OS's file manager without Electron (the browser host): `xdg-open`,
 * `open` or `explorer`, detached so it outlives nothing of ours. Answers as Electron's
 * shell.openPath does: '' when it opened, else why not, in words.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export type FolderOpener = (path: string) => Promise<string>;

type Spawn = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

/** How long a failing opener has to say so; one still running by then is taken as opened. */
const VERDICT_MS = 2000;

export function systemFolderOpener(
  platform: NodeJS.Platform = process.platform,
  run: Spawn = spawn,
): FolderOpener {
  const command = platform === 'win32' ? 'explorer' : platform === 'darwin' ? 'open' : 'xdg-open';
  return (path) =>
    new Promise<string>((resolve) => {
      let child: ChildProcess;
      try {
        child = run(command, [path], { detached: true, stdio: 'ignore', windowsHide: false });
      } catch (err) {
        resolve(`${command} could not be started (${String(err)})`);
        return;
      }
      const timer = setTimeout(() => resolve(''), VERDICT_MS);
      timer.unref();
      child.once('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve(
          err.code === 'ENOENT'
            ? `${command} is not installed`
            : `${command} could not be started (${err.code ?? err.message})`,
        );
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        // explorer answers 1 even when it opened the folder.
        if (code === 0 || platform === 'win32') resolve('');
        else resolve(`${command} could not open it (exit code ${String(code)})`);
      });
      child.unref();
    });
}
