/**
 * Programs run the way a user runs them (the exchange's CLI, the browser host, `npm run ...`),
 * each printing one JSON line `{"event":"listening","url":...}` on stdout once it listens.
 *
 * Each child leads its own process group, and signals go to the whole group, as a terminal's
 * Ctrl-C does: npx and npm run do not pass a SIGTERM on to the program they started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The repository's root: where `npm run` and `node --import tsx src/...` are run from. */
export const root = join(import.meta.dirname, '..', '..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Program {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout: () => string;
  /** Everything written to stderr so far (the last 1 MB). */
  stderr: () => string;
  /** Resolves when the process and every holder of its stdout (npm's, tsx's children) are gone. */
  exited: Promise<Exit>;
  /** Sends `signal` to the process group; a group already gone is no error. */
  signal: (signal: NodeJS.Signals) => void;
  /** SIGTERM, then SIGKILL after `graceMs` if the group is still there; resolves on exit. */
  stop: (graceMs?: number) => Promise<Exit>;
}

export function spawnProgram(
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Program {
  const child = spawn(command, args, {
    cwd: opts.cwd ?? root,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString('utf8')).slice(-1_000_000)));
  const exited = new Promise<Exit>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const signal = (s: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, s);
    } catch {
      // already gone
    }
  };
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    signal,
    async stop(graceMs = 5000) {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
}

/** A program that has printed its listening line. */
export interface Listening extends Program {
  url: string;
}

/**
 * Waits for the program's listening line (the first stdout line that parses as one). Rejects
 * with its stderr when it exits first or says nothing within `timeoutMs`, and then kills it.
 */
export function untilListening(p: Program, what: string, timeoutMs = 60_000): Promise<Listening> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      p.child.stdout?.off('data', onData);
      p.signal('SIGKILL');
      reject(new Error(`${what} ${why}; stderr:\n${p.stderr()}`));
    };
    const timer = setTimeout(() => fail(`did not report listening in ${timeoutMs} ms`), timeoutMs);
    const onData = (): void => {
      for (const line of p.stdout().split('\n').slice(0, -1)) {
        let msg: { event?: unknown; url?: unknown };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          continue;
        }
        if (msg.event === 'listening' && typeof msg.url === 'string' && !settled) {
          settled = true;
          clearTimeout(timer);
          p.child.stdout?.off('data', onData);
          resolve({ ...p, url: msg.url });
          return;
        }
      }
    };
    p.child.stdout?.on('data', onData);
    void p.exited.then((e) => fail(`exited (${e.code ?? e.signal}) before listening`));
    onData();
  });
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI from source (`node --import tsx src/main/cli/index.ts ...args`) to its end, with
 * exactly `env` (not merged with this process's: a test leaves out BETDESK_* or XDG_* itself).
 */
export function runCliFromSource(args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli/index.ts', ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
