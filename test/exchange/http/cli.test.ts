/** The standalone server: `tsx src/exchange/cli.ts`, one stdout line, logs on stderr, clean stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) signalGroup(c, 'SIGKILL');
});

/**
 * Each child leads its own process group, and signals go to the whole group, as a terminal's
 * Ctrl-C does: npx and npm run do not pass a SIGTERM on to the server they started.
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

interface Started {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `viaNpx` runs the command as documented; otherwise node loads tsx in-process, so a signal
 * reaches the exchange itself rather than a wrapper (npx does not pass SIGINT on).
 */
function run(args: string[], viaNpx = false): Omit<Started, 'url'> {
  const [cmd, pre] = viaNpx ? ['npx', ['tsx']] : [process.execPath, ['--import', 'tsx']];
  const child = spawn(cmd, [...pre, 'src/exchange/cli.ts', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'close' waits for every holder of the stdout pipe, i.e. the server under npx and tsx too.
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function start(args: string[], viaNpx = false): Promise<Started> {
  const r = run(args, viaNpx);
  const deadline = Date.now() + 25_000;
  while (!r.stdout().includes('\n')) {
    if (r.child.exitCode !== null) throw new Error(`exited early: ${r.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no listening line; stderr: ${r.stderr()}`);
    await new Promise((res) => setTimeout(res, 50));
  }
  const line = JSON.parse(r.stdout().split('\n')[0]!) as { event: string; url: string };
  return { ...r, url: line.url };
}

describe('exchange CLI', () => {
  it('writes exactly one listening line, answers, logs JSON to stderr, and stops on SIGTERM within 2 s', async () => {
    const s = await start(['--port', '0', '--admin-token', 't'], true);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.parse(s.stdout().split('\n')[0]!)).toEqual({ event: 'listening', url: s.url });

    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(200);
    const wallet = await fetch(`${s.url}/sandbox/wallets`, {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
    });
    expect(wallet.status).toBe(201);

    const stoppedAt = Date.now();
    signalGroup(s.child, 'SIGTERM');
    const exit = await s.exited;
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    // Nothing is left listening.
    await expect(fetch(`${s.url}/health`)).rejects.toThrow();

    expect(s.stdout()).toBe(`${JSON.stringify({ event: 'listening', url: s.url })}\n`);
    const logLines = s
      .stderr()
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const l of logLines) expect(() => JSON.parse(l) as unknown).not.toThrow();
    // Logs never carry a secret or a signature.
    expect(s.stderr()).not.toMatch(/"secret"/);
  });

  it('stops on SIGINT within 2 s, even with a keep-alive connection open', async () => {
    const s = await start(['--port', '0', '--no-rate-limits']);
    const res = await fetch(`${s.url}/time`, { headers: { connection: 'keep-alive' } });
    expect(res.status).toBe(200);
    const stoppedAt = Date.now();
    signalGroup(s.child, 'SIGINT');
    await s.exited;
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
  });

  it('answers 404 on /sandbox without --admin-token', async () => {
    const s = await start(['--port', '0']);
    const res = await fetch(`${s.url}/sandbox/wallets`, {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
    });
    expect(res.status).toBe(404);
    signalGroup(s.child, 'SIGTERM');
    await s.exited;
  });

  it('keeps its state in --data and reloads it on restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exchange-cli-'));
    try {
      const file = join(dir, 'state.sqlite');
      const a = await start(['--port', '0', '--admin-token', 't', '--data', file]);
      const created = (await (
        await fetch(`${a.url}/sandbox/wallets`, {
          method: 'POST',
          headers: { authorization: 'Bearer t' },
        })
      ).json()) as { wallet: string };
      const key = await fetch(`${a.url}/sandbox/keys`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ wallet: created.wallet, permission: 'read' }),
      });
      const { apiKey } = (await key.json()) as { apiKey: string };
      signalGroup(a.child, 'SIGTERM');
      await a.exited;

      const b = await start(['--port', '0', '--admin-token', 't', '--data', file]);
      const revoke = await fetch(`${b.url}/sandbox/keys/${apiKey}/revoke-grant`, {
        method: 'POST',
        headers: { authorization: 'Bearer t' },
      });
      expect(revoke.status).toBe(204); // the key survived the restart
      signalGroup(b.child, 'SIGTERM');
      await b.exited;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad options with a readable message on stderr and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', 'abc'], /--port/],
      [['--port', '70000'], /--port/],
      [['--block-ms', '-1'], /block-ms/],
      [['--price-budget', '0'], /--price-budget/],
      [['--bogus'], /bogus/],
      [['extra'], /argument|positional/i],
    ];
    // Started together: each is a separate process that exits at once.
    const runs = cases.map(([args]) => run(args));
    const exits = await Promise.all(runs.map((r) => r.exited));
    cases.forEach(([args, msg], i) => {
      expect(exits[i]?.code, args.join(' ')).toBe(2);
      expect(runs[i]?.stdout()).toBe('');
      expect(runs[i]?.stderr()).toMatch(msg);
    });
  });
});
