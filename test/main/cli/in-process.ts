/**
 * The command line run in this process (main() with its own streams) against a store file, as
 * the tests that need no exchange and no keychain run it: what it printed, and its exit status.
 */
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../../src/main/cli/main.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Each line of standard output, parsed, when it holds JSON lines. */
  json: Record<string, unknown>[];
}

/** Runs `args --db <db>`; the data folder beside the store, a keychain service nobody uses. */
export async function runInProcess(db: string, args: string[]): Promise<InProcessRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const code = await main(
    [...args, '--db', db],
    {
      stdin: Readable.from([]),
      stdout,
      stderr,
      env: {
        XDG_DATA_HOME: path.join(path.dirname(db), 'data'),
        BETDESK_KEYCHAIN_SERVICE: 'Betdesk-test-unused',
      },
    },
    { wait: () => new Promise(() => {}) },
  );
  // What was piped into standard output (guard log --csv) arrives on the next turn.
  await new Promise((resolve) => setImmediate(resolve));
  const json = out.startsWith('{')
    ? out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
  return { code, stdout: out, stderr: err, json };
}
